import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from dogcase.cases.models import CityAccess
from dogcase.law import library
from dogcase.staff.roles import ROLES

# Only ever used while DEBUG is True; anywhere else DOGCASE_DEMO_PASSWORD must be given.
DEVELOPMENT_DEMO_PASSWORD = "dogcase-demo-only"  # noqa: S105


def demo_cities() -> list[str]:
    """Every city pack (not the state layer): the demo users work for all of them."""
    lib = library()
    return sorted(j for j in lib.jurisdictions if lib.get(j).pack.kind == "city")


def _refuse_weak(password: str, User) -> None:
    """Outside development the demo accounts are real logins: their password must pass the same validators
    as any user's (AUTH_PASSWORD_VALIDATORS), against each demo username, and may not be the development one."""
    if password == DEVELOPMENT_DEMO_PASSWORD:
        raise CommandError("DEBUG is False: DOGCASE_DEMO_PASSWORD is the published development password.")
    problems: list[str] = []
    for role in ROLES:
        try:
            validate_password(password, user=User(username=role.demo_username))
        except ValidationError as exc:
            problems += [m for m in exc.messages if m not in problems]
    if problems:
        raise CommandError("DEBUG is False: DOGCASE_DEMO_PASSWORD is too weak: " + " ".join(problems))


class Command(BaseCommand):
    help = "Create the role groups and one demo user per role (safe to run again), then print the logins."

    def handle(self, *args, **options):
        password = os.getenv("DOGCASE_DEMO_PASSWORD")
        if not password:
            if not settings.DEBUG:
                raise CommandError("DEBUG is False: set DOGCASE_DEMO_PASSWORD to seed demo users.")
            password = DEVELOPMENT_DEMO_PASSWORD
        User = get_user_model()
        if not settings.DEBUG:
            _refuse_weak(password, User)

        with transaction.atomic():
            for role in ROLES:
                group, _ = Group.objects.get_or_create(name=role.group)
                user, _ = User.objects.get_or_create(username=role.demo_username)
                is_admin = role.group == "administrator"
                user.is_staff = is_admin
                user.is_superuser = is_admin
                user.is_active = True
                # Reset every run, so the table printed below is always true.
                user.set_password(password)
                user.save()
                user.groups.set([group])
                for city in demo_cities():
                    CityAccess.objects.get_or_create(user=user, jurisdiction=city)

        from dogcase.cases.demo import load_demo
        from dogcase.owners import demo as owner_demo
        from dogcase.owners.notice import listen

        with listen() as heard:
            load_demo(self.stdout)
        portal = owner_demo.portal_sign_in(heard)
        if portal is not None:
            self.stdout.write(owner_demo.describe(portal))

        width = max(len(role.label) for role in ROLES)
        self.stdout.write("Demo logins:")
        self.stdout.write(f"  {'role':<{width}}  {'username':<8}  password")
        for role in ROLES:
            self.stdout.write(f"  {role.label:<{width}}  {role.demo_username:<8}  {password}")

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from dogcase.cases.models import CityAccess
from dogcase.cases.roles import ROLES
from dogcase.demo.offices import appoint_by_role
from dogcase.demo.passwords import DEVELOPMENT_DEMO_PASSWORD, refuse_weak
from dogcase.law import library


def demo_cities() -> list[str]:
    """Every city pack (not the state layer): the demo users work for all of them."""
    lib = library()
    return sorted(j for j in lib.jurisdictions if lib.get(j).pack.kind != "state")


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
            refuse_weak(password, User)

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
                appoint_by_role(user, demo_cities())  # the demo cities' Chief of Police, City Administrator

        from dogcase.demo import load_demo
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

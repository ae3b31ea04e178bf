"""The demo users' password: the published one for development, and the check that refuses a weak one outside
development (where the demo accounts are real logins)."""

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from dogcase.cases.roles import ROLES

# Only ever used while DEBUG is True; anywhere else DOGCASE_DEMO_PASSWORD must be given.
DEVELOPMENT_DEMO_PASSWORD = "dogcase-demo-only"  # noqa: S105


def refuse_weak(password: str, User) -> None:
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

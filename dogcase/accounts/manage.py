"""Staff accounts managed by a user administrator, without the Django admin.

A user administrator (the staff role `administrator`) manages the accounts of their own cities only: they see
the users who work for at least one of their cities, create users for their cities, give and remove roles,
give and remove their own cities (never another city a user also works for), and deactivate or reactivate a
user. Each change is one function, atomic, with an audit event in the chain of every city it touches (an
account serves several cities; each city's trail shows who gave access to its records).

An administrator does not deactivate themselves nor take away their own administrator role (the last way
back in would be the Django admin), and does not change a superuser's account (that is the Django admin's).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet

from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.acts import now
from dogcase.cases.audit import append_event
from dogcase.cases.models import CityAccess, Event
from dogcase.cases.roles import ROLES, ROLES_BY_GROUP
from dogcase.law import library

ADMINISTRATOR = "administrator"


class AccountProblem(Exception):
    """A change refused for a reason the administrator can fix: `field` names the form field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def may_manage_users(user) -> bool:
    return user.is_authenticated and ADMINISTRATOR in staff_roles(user) and bool(cities_of(user))


def require_user_administrator(user) -> None:
    if not may_manage_users(user):
        raise PermissionDenied("Only a user administrator may manage staff accounts.")


def city_name(jurisdiction: str) -> str:
    try:
        return library().get(jurisdiction).name
    except Exception:  # noqa: BLE001 - a city whose pack is gone is still named by its id
        return jurisdiction


def manageable_users(admin) -> QuerySet:
    """The accounts an administrator manages: those that work for at least one of the administrator's cities."""
    User = get_user_model()
    return (
        User.objects.filter(city_access__jurisdiction__in=cities_of(admin))
        .distinct()
        .order_by("username")
        .prefetch_related("groups", "city_access")
    )


def check_managed(admin, user):
    require_user_administrator(admin)
    if user.is_superuser and not admin.is_superuser:
        raise PermissionDenied("This account is managed in the Django admin.")
    if not manageable_users(admin).filter(pk=user.pk).exists():
        raise PermissionDenied("This user does not work for any of your cities.")
    return user


def _roles_of(user) -> list[str]:
    names = set(user.groups.values_list("name", flat=True))
    return [role.group for role in ROLES if role.group in names]


def _cities_of(user) -> list[str]:
    return sorted(user.city_access.values_list("jurisdiction", flat=True))


def _check_roles(roles: Iterable[str]) -> list[str]:
    roles = list(dict.fromkeys(roles))
    unknown = [r for r in roles if r not in ROLES_BY_GROUP]
    if unknown:
        raise AccountProblem("roles", "Choose roles from the list.")
    if not roles:
        raise AccountProblem("roles", "Give the user at least one role.")
    return roles


def _check_cities(admin, cities: Iterable[str]) -> list[str]:
    cities = sorted(set(cities))
    if any(c not in cities_of(admin) for c in cities):
        raise AccountProblem("cities", "You may give only the cities you work for.")
    return cities


def _audit(admin, *, cities: Iterable[str], act: str, summary: str, data: dict, at) -> None:
    roles = ",".join(sorted(staff_roles(admin)))
    for city in sorted(set(cities)):
        append_event(
            at=at,
            jurisdiction=city,
            kind=Event.Kind.SYSTEM,
            act=act,
            summary=summary,
            actor=admin,
            actor_roles=roles,
            data=data,
        )


def _words(roles: Iterable[str]) -> str:
    return ", ".join(ROLES_BY_GROUP[r].label for r in roles) or "no role"


def create_user(
    *,
    actor,
    username: str,
    password: str,
    roles: Iterable[str],
    cities: Iterable[str],
    first_name: str = "",
    last_name: str = "",
    email: str = "",
):
    """Create a staff account with its roles and cities (the administrator's own); audited in each city."""
    require_user_administrator(actor)
    User = get_user_model()
    username = (username or "").strip()
    if not username:
        raise AccountProblem("username", "Give the user a username.")
    try:
        User._meta.get_field("username").run_validators(username)
    except ValidationError as exc:
        raise AccountProblem("username", " ".join(exc.messages)) from None
    if User.objects.filter(username__iexact=username).exists():
        raise AccountProblem("username", f"The username {username} is taken.")
    roles = _check_roles(roles)
    cities = _check_cities(actor, cities)
    if not cities:
        raise AccountProblem("cities", "Give the user at least one of your cities.")
    candidate = User(username=username, first_name=first_name, last_name=last_name, email=email)
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        raise AccountProblem("password", " ".join(exc.messages)) from None
    at = now()
    with transaction.atomic():
        candidate.set_password(password)
        candidate.save()
        candidate.groups.set([Group.objects.get_or_create(name=r)[0] for r in roles])
        for city in cities:
            CityAccess.objects.create(user=candidate, jurisdiction=city)
        _audit(
            actor,
            cities=cities,
            act="account_created",
            summary=f"Created the account {username} ({_words(roles)})",
            data={"user": candidate.pk, "username": username, "roles": roles, "cities": cities},
            at=at,
        )
    return candidate


def change_access(user, *, actor, roles: Iterable[str], cities: Iterable[str]):
    """Set a user's roles and, among the administrator's own cities, which of them the user works for.

    Cities the user works for that the administrator does not are kept as they are."""
    check_managed(actor, user)
    roles = _check_roles(roles)
    given = _check_cities(actor, cities)
    mine = set(cities_of(actor))
    before_roles, before_cities = _roles_of(user), _cities_of(user)
    others = [c for c in before_cities if c not in mine]
    after_cities = sorted(set(others) | set(given))
    if not after_cities:
        raise AccountProblem("cities", "Give the user at least one city, or deactivate the account.")
    if user.pk == actor.pk and ADMINISTRATOR not in roles:
        raise AccountProblem("roles", "You cannot take away your own administrator role.")
    if user.pk == actor.pk and not given:
        raise AccountProblem("cities", "You cannot take away all your own cities.")
    if roles == before_roles and after_cities == before_cities:
        return user
    at = now()
    with transaction.atomic():
        user.groups.remove(*Group.objects.filter(name__in=ROLES_BY_GROUP).exclude(name__in=roles))
        user.groups.add(*[Group.objects.get_or_create(name=r)[0] for r in roles])
        CityAccess.objects.filter(user=user, jurisdiction__in=mine - set(given)).delete()
        for city in given:
            CityAccess.objects.get_or_create(user=user, jurisdiction=city)
        added_roles = [r for r in roles if r not in before_roles]
        removed_roles = [r for r in before_roles if r not in roles]
        added_cities = [c for c in after_cities if c not in before_cities]
        removed_cities = [c for c in before_cities if c not in after_cities]
        changes = []
        if added_roles:
            changes.append(f"gave the role {_words(added_roles)}")
        if removed_roles:
            changes.append(f"removed the role {_words(removed_roles)}")
        if added_cities:
            changes.append(f"gave access to {', '.join(city_name(c) for c in added_cities)}")
        if removed_cities:
            changes.append(f"removed access to {', '.join(city_name(c) for c in removed_cities)}")
        _audit(
            actor,
            # the cities the account served before or serves now, of those the administrator manages
            cities=[c for c in set(before_cities) | set(after_cities) if c in mine],
            act="account_access_changed",
            summary=f"Account {user.username}: " + "; ".join(changes),
            data={
                "user": user.pk,
                "username": user.username,
                "roles": {"before": before_roles, "after": roles},
                "cities": {"before": before_cities, "after": after_cities},
            },
            at=at,
        )
    for cached in ("_dogcase_roles", "_dogcase_cities"):
        user.__dict__.pop(cached, None)
    return user


def set_active(user, *, actor, active: bool):
    """Deactivate (the user can no longer log in; their records and audit events stay) or reactivate."""
    check_managed(actor, user)
    if user.pk == actor.pk and not active:
        raise AccountProblem("active", "You cannot deactivate your own account.")
    if user.is_active == active:
        return user
    at = now()
    with transaction.atomic():
        user.is_active = active
        user.save(update_fields=["is_active"])
        _audit(
            actor,
            cities=[c for c in _cities_of(user) if c in cities_of(actor)],
            act="account_reactivated" if active else "account_deactivated",
            summary=f"{'Reactivated' if active else 'Deactivated'} the account {user.username}",
            data={"user": user.pk, "username": user.username, "active": active},
            at=at,
        )
    # an inactive user's open sessions end at their next request (ModelBackend.get_user refuses them)
    return user

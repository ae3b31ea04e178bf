"""Staff accounts managed by a user administrator, without the Django admin.

A user administrator (the staff role `administrator`) manages the accounts of their own cities only: they see
the users who work for at least one of their cities, create users for their cities, give and remove roles,
give and remove their own cities (never another city a user also works for), and deactivate or reactivate a
user. Every change is limited to the administrator's cities, city by city: a role (a Django group) applies in
every city of the user, so it changes only for a user who works for none but the administrator's cities; an
account that also serves another city is "deactivated" by removing its access to the administrator's cities,
and stays open for the others. Each change is one function, atomic, with an audit event in the chain of each
of the administrator's cities where something changed, telling what changed in that city.

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


def may_add_cities(user) -> bool:
    """The deployment's administrator, who adds a city or county to it: a superuser, or an administrator of
    every city this server serves (`manage.py create_administrator NAME --all-cities`)."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or (may_manage_users(user) and set(city_ids()) <= set(cities_of(user)))


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


def _others(admin, user_cities: Iterable[str]) -> list[str]:
    """The cities of a user that the administrator does not administer (never changed, never named)."""
    mine = set(cities_of(admin))
    return [c for c in user_cities if c not in mine]


def _refuse_role_change_elsewhere(others: list[str]) -> None:
    # A role is a Django group: it applies in every city the user works for. Changing it while the user keeps
    # a city this administrator does not administer would change what the user may do there.
    count = len(others)
    raise AccountProblem(
        "roles",
        f"This user also works for {count} cit{'y' if count == 1 else 'ies'} you do not administer, and a role "
        "applies in every city of the user: only an administrator of all of them can change the roles. You can "
        "still give or remove your own cities.",
    )


def change_access(user, *, actor, roles: Iterable[str], cities: Iterable[str]):
    """Set a user's roles and, among the administrator's own cities, which of them the user works for.

    Cities the user works for that the administrator does not are kept as they are; a role (which applies in
    every city of the user) changes only when the user works for no city outside the administrator's after
    the change. Each of the administrator's cities where something changed gets an event of its own change."""
    check_managed(actor, user)
    roles = _check_roles(roles)
    given = _check_cities(actor, cities)
    mine = set(cities_of(actor))
    before_roles, before_cities = _roles_of(user), _cities_of(user)
    others = _others(actor, before_cities)
    after_cities = sorted(set(others) | set(given))
    if not after_cities:
        raise AccountProblem("cities", "Give the user at least one city, or deactivate the account.")
    if user.pk == actor.pk and ADMINISTRATOR not in roles:
        raise AccountProblem("roles", "You cannot take away your own administrator role.")
    if user.pk == actor.pk and not given:
        raise AccountProblem("cities", "You cannot take away all your own cities.")
    roles_changed = set(roles) != set(before_roles)
    if roles_changed and others:
        _refuse_role_change_elsewhere(others)
    if not roles_changed and after_cities == before_cities:
        return user
    at = now()
    with transaction.atomic():
        user.groups.remove(*Group.objects.filter(name__in=ROLES_BY_GROUP).exclude(name__in=roles))
        user.groups.add(*[Group.objects.get_or_create(name=r)[0] for r in roles])
        CityAccess.objects.filter(user=user, jurisdiction__in=mine - set(given)).delete()
        for city in given:
            CityAccess.objects.get_or_create(user=user, jurisdiction=city)
        for city in sorted(mine & (set(before_cities) | set(after_cities))):
            # what the user may do in this city, before and after: their roles while they work for it
            had = before_roles if city in before_cities else []
            has = roles if city in after_cities else []
            if had == has:
                continue
            changes = []
            if not had:
                changes.append(f"gave access to {city_name(city)} as {_words(has)}")
            elif not has:
                changes.append(f"removed access to {city_name(city)} (was {_words(had)})")
            else:
                added = [r for r in has if r not in had]
                removed = [r for r in had if r not in has]
                if added:
                    changes.append(f"gave the role {_words(added)}")
                if removed:
                    changes.append(f"removed the role {_words(removed)}")
            _audit(
                actor,
                cities=[city],
                act="account_access_changed",
                summary=f"Account {user.username}: " + "; ".join(changes),
                data={
                    "user": user.pk,
                    "username": user.username,
                    "city": city,
                    "access": {"before": city in before_cities, "after": city in after_cities},
                    "roles": {"before": had, "after": has},
                },
                at=at,
            )
    for cached in ("_dogcase_roles", "_dogcase_cities"):
        user.__dict__.pop(cached, None)
    return user


def set_active(user, *, actor, active: bool):
    """Deactivate (the user can no longer log in; their records and audit events stay) or reactivate.

    An account that also works for a city the administrator does not administer is not closed: deactivating
    it removes its access to the administrator's cities only (it stays open for the others), and an inactive
    one is reactivated only by an administrator of all its cities. Each of the administrator's cities gets an
    event of what changed in it."""
    check_managed(actor, user)
    if user.pk == actor.pk and not active:
        raise AccountProblem("active", "You cannot deactivate your own account.")
    cities = _cities_of(user)
    mine = [c for c in cities if c in cities_of(actor)]
    others = _others(actor, cities)
    if others and not active and user.is_active:
        at = now()
        with transaction.atomic():
            CityAccess.objects.filter(user=user, jurisdiction__in=mine).delete()
            for city in mine:
                _audit(
                    actor,
                    cities=[city],
                    act="account_deactivated",
                    summary=(
                        f"Deactivated the account {user.username} in {city_name(city)}: removed its access "
                        f"(was {_words(_roles_of(user))}); it stays open for the other cities it works for"
                    ),
                    data={"user": user.pk, "username": user.username, "city": city, "active": True},
                    at=at,
                )
        user.__dict__.pop("_dogcase_cities", None)
        return user
    if others and active and not user.is_active:
        raise AccountProblem(
            "active",
            "This account also works for a city you do not administer: only an administrator of all its cities "
            "can reactivate it.",
        )
    if user.is_active == active:
        return user
    at = now()
    with transaction.atomic():
        user.is_active = active
        user.save(update_fields=["is_active"])
        for city in mine:
            _audit(
                actor,
                cities=[city],
                act="account_reactivated" if active else "account_deactivated",
                summary=f"{'Reactivated' if active else 'Deactivated'} the account {user.username}",
                data={"user": user.pk, "username": user.username, "city": city, "active": active},
                at=at,
            )
    # an inactive user's open sessions end at their next request (ModelBackend.get_user refuses them)
    return user


def city_ids() -> list[str]:
    """The cities (and counties) this deployment serves: its city packs."""
    return sorted(j for j, jur in library().jurisdictions.items() if jur.pack.kind != "state")


def make_administrator(
    *,
    username: str,
    password: str | None,
    cities: Iterable[str],
    email: str = "",
    first_name: str = "",
    last_name: str = "",
    existing: bool = False,
):
    """The first administrator of a deployment, made on the server (no administrator exists yet to make one):
    a new account with the administrator role for the cities named, or (`existing`) an account already there
    (e.g. one made with Django's createsuperuser) given that role and those cities. Audited in each city as a
    change made on the server."""
    User = get_user_model()
    username = (username or "").strip()
    if not username:
        raise AccountProblem("username", "Give the administrator a username.")
    known = city_ids()
    cities = sorted(set(cities))
    if not cities:
        raise AccountProblem("cities", f"Name at least one city; this deployment serves: {', '.join(known)}.")
    unknown = [c for c in cities if c not in known]
    if unknown:
        raise AccountProblem(
            "cities", f"Unknown city {', '.join(unknown)}; this deployment serves: {', '.join(known)}."
        )
    user = User.objects.filter(username__iexact=username).first()
    if user is not None and not existing:
        raise AccountProblem(
            "username",
            f"The username {user.username} is taken; to make that account an administrator, say so.",
        )
    if user is None and existing:
        raise AccountProblem("username", f"There is no account {username}.")
    if user is None:
        try:
            User._meta.get_field("username").run_validators(username)
        except ValidationError as exc:
            raise AccountProblem("username", " ".join(exc.messages)) from None
        user = User(username=username, first_name=first_name, last_name=last_name, email=email)
        if not password:
            raise AccountProblem("password", "Give the new administrator a password.")
        try:
            validate_password(password, user=user)
        except ValidationError as exc:
            raise AccountProblem("password", " ".join(exc.messages)) from None
        user.set_password(password)
        created = True
    else:
        created = False
    if not user.is_active:
        raise AccountProblem("username", f"The account {user.username} is deactivated.")
    at = now()
    with transaction.atomic():
        user.save()
        user.groups.add(Group.objects.get_or_create(name=ADMINISTRATOR)[0])
        added = [c for c in cities if CityAccess.objects.get_or_create(user=user, jurisdiction=c)[1]]
        for city in cities:
            what = "Created the account" if created else "Gave the account"
            append_event(
                at=at,
                jurisdiction=city,
                kind=Event.Kind.SYSTEM,
                act="account_created" if created else "access_changed",
                summary=f"{what} {user.username} the administrator role for {city_name(city)}, on the server",
                actor_name="the server's command line",
                data={
                    "user": user.pk,
                    "username": user.username,
                    "roles": [ADMINISTRATOR],
                    "cities": cities,
                    "city_added": city in added,
                    "by": "create_administrator",
                },
            )
    return user


# -- offices held by appointment (a pack role marked `appointed`: "Tracy Chief of Police") ---------------------


def office_choices(admin, user) -> list[dict]:
    """The offices of the administrator's cities the user could hold (a staff role of theirs maps to it and
    they work for the city), each with whether they hold it."""
    from dogcase.cases.access import appointed_offices
    from dogcase.cases.models import OfficeHolder

    held = set(OfficeHolder.objects.filter(user=user).values_list("jurisdiction", "office"))
    theirs = set(_cities_of(user))
    roles = set(_roles_of(user))
    out = []
    for city in sorted(set(cities_of(admin)) & theirs):
        for office in appointed_offices(city):
            if roles & set(office.staff) or (city, office.id) in held:
                out.append(
                    {
                        "value": f"{city}:{office.id}",
                        "label": office.label,
                        "city": city_name(city),
                        "held": (city, office.id) in held,
                        "description": office.description or "",
                    }
                )
    return out


def set_offices(user, *, actor, offices: Iterable[str]) -> None:
    """Appoint the user to the offices given ("<city>:<office>") among those of the administrator's cities, and
    end their other appointments there; each change an event in its city's chain."""
    from dogcase.cases.access import appointed_offices
    from dogcase.cases.models import OfficeHolder

    check_managed(actor, user)
    mine = set(cities_of(actor))
    known = {
        f"{city}:{o.id}": (city, o) for city in mine & set(_cities_of(user)) for o in appointed_offices(city)
    }
    wanted = set(offices)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise AccountProblem(
            "offices", f"Not an office of your cities this user can hold: {', '.join(unknown)}."
        )
    roles = set(_roles_of(user))
    for value in sorted(wanted):
        city, office = known[value]
        if not roles & set(office.staff):
            raise AccountProblem(
                "offices",
                f"{office.label} is held by a {_words(office.staff)}; give the user that role first.",
            )
    held = {
        f"{h.jurisdiction}:{h.office}": h
        for h in OfficeHolder.objects.filter(user=user, jurisdiction__in=mine)
    }
    at = now()
    with transaction.atomic():
        for value in sorted(wanted - set(held)):
            city, office = known[value]
            OfficeHolder.objects.create(user=user, jurisdiction=city, office=office.id)
            _audit(
                actor,
                cities=[city],
                act="office_appointed",
                summary=f"Account {user.username} appointed {office.label}",
                data={"user": user.pk, "username": user.username, "office": office.id},
                at=at,
            )
        for value in sorted(set(held) - wanted):
            holder = held[value]
            label = known[value][1].label if value in known else holder.office
            holder.delete()
            _audit(
                actor,
                cities=[holder.jurisdiction],
                act="office_vacated",
                summary=f"Account {user.username} no longer {label}",
                data={"user": user.pk, "username": user.username, "office": holder.office},
                at=at,
            )
    user.__dict__.pop("_dogcase_offices", None)

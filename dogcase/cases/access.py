"""Who may see and do what. Every check here runs on the server, for every request and every act."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from dogcase.cases.roles import ROLES_BY_GROUP
from dogcase.law import Actor, library
from dogcase.law.packschema import READ_ONLY_STAFF_ROLES

# Staff roles that may record people, dogs, premises and incidents (intake). The legal acts themselves are
# governed by the law packs (authority provisions), not by this list.
RECORD_KEEPERS = frozenset({"animal_control_officer", "police_officer", "city_clerk", "administrator"})
# Staff roles that may record a case's steps taken before the city used dogcase (open cases brought in).
CASE_RECORDERS = frozenset({"city_clerk", "administrator"})
# Staff roles that never write anything (the law's list: law check warns of a pack role acted only by them).
READ_ONLY = frozenset(READ_ONLY_STAFF_ROLES)


def staff_roles(user) -> frozenset[str]:
    """The product roles (Django groups) of a user; cached on the user object for the request."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_dogcase_roles", None)
    if cached is None:
        names = user.groups.values_list("name", flat=True)
        cached = frozenset(n for n in names if n in ROLES_BY_GROUP)
        user._dogcase_roles = cached
    return cached


def read_access(user) -> None:
    """Read at once what `staff_roles`, `cities_of` and `offices_held` read one at a time: the user's groups,
    cities and offices in one query (a page that asks for all three, the dashboard). Nothing read already is
    read again."""
    from django.db.models import CharField, Value

    from dogcase.cases.models import CityAccess, OfficeHolder

    if not user.is_authenticated or not getattr(user, "pk", None):
        return
    if getattr(user, "_dogcase_roles", None) is not None:
        return

    def tagged(qs, tag: str, *fields):
        return qs.values_list(Value(tag, output_field=CharField()), *fields)

    blank = Value("", output_field=CharField())
    rows = tagged(user.groups.all(), "group", "name", blank).union(
        tagged(CityAccess.objects.filter(user=user), "city", "jurisdiction", blank),
        tagged(OfficeHolder.objects.filter(user=user), "office", "jurisdiction", "office"),
        all=True,
    )
    groups, cities, offices = set(), set(), {}
    for tag, name, office in rows:
        if tag == "group":
            groups.add(name)
        elif tag == "city":
            cities.add(name)
        else:
            offices.setdefault(name, set()).add(office)
    user._dogcase_roles = frozenset(n for n in groups if n in ROLES_BY_GROUP)
    if getattr(user, "_dogcase_cities", None) is None:
        user._dogcase_cities = tuple(sorted(cities))
    # where offices_held keeps them
    user.__dict__.setdefault("_dogcase_offices", {city: frozenset(o) for city, o in offices.items()})


def cities_of(user) -> tuple[str, ...]:
    """The jurisdiction ids a user works for, in a stable order."""
    if not user.is_authenticated or not staff_roles(user):
        return ()
    cached = getattr(user, "_dogcase_cities", None)
    if cached is None:
        cached = tuple(sorted(user.city_access.values_list("jurisdiction", flat=True)))
        user._dogcase_cities = cached
    return cached


def require_city(user, jurisdiction: str) -> None:
    if jurisdiction not in cities_of(user):
        known = library().jurisdictions.get(jurisdiction)
        raise PermissionDenied(f"You do not work for {known.name if known else jurisdiction}.")


def require_record_keeper(user, jurisdiction: str) -> None:
    require_city(user, jurisdiction)
    if not staff_roles(user) & RECORD_KEEPERS:
        raise PermissionDenied("Your role may not record people, dogs or incidents.")


def law_actor(user, jurisdiction: str) -> Actor:
    """The person as the law engine sees them: the pack roles their staff roles act as in that city — an office
    held by appointment (a pack role marked `appointed`: "Tracy Chief of Police") only if they hold it there."""
    j = library().get(jurisdiction)
    roles = j.pack_roles_for(staff_roles(user) - READ_ONLY)
    appointed = {r for r in roles if getattr(j.roles.get(r), "appointed", False)}
    if appointed:
        roles = roles - (appointed - offices_held(user, jurisdiction))
    return Actor(id=str(user.pk), roles=frozenset(roles))


def offices_held(user, jurisdiction: str) -> frozenset[str]:
    """The offices (pack role ids) the account is appointed to in that city; read once per user object."""
    from dogcase.cases.models import OfficeHolder

    cache = user.__dict__.get("_dogcase_offices")
    if cache is None:
        # every city's at once: a page that asks for each of the user's cities reads them in one query
        cache = {}
        if getattr(user, "pk", None):
            for city, office in OfficeHolder.objects.filter(user=user).values_list("jurisdiction", "office"):
                cache.setdefault(city, set()).add(office)
        cache = {city: frozenset(offices) for city, offices in cache.items()}
        user.__dict__["_dogcase_offices"] = cache
    return cache.get(jurisdiction, frozenset())


def appointed_offices(jurisdiction: str) -> list:
    """The offices of the city's law held by appointment (its pack roles marked `appointed`), in pack order."""
    j = library().get(jurisdiction)
    return [r for r in j.roles.values() if getattr(r, "appointed", False)]


def staff_roles_for_pack_roles(jurisdiction: str, pack_roles) -> frozenset[str]:
    j = library().get(jurisdiction)
    out: set[str] = set()
    for role_id in pack_roles:
        role = j.roles.get(role_id)
        if role is not None:
            out.update(getattr(role, "staff", ()) or ())
    return frozenset(out)

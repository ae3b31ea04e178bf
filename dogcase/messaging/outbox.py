"""notify(): the message rows of one event of a case, one per recipient, queued for sending on commit."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from dogcase.cases.models import Case, CityAccess, Person
from dogcase.messaging.compose import compose
from dogcase.messaging.enqueue import enqueue_send
from dogcase.messaging.models import Message

KINDS = frozenset(Message.Kind.values)
NO_ADDRESS = "no e-mail address"


def message_key(key: str) -> str:
    """The key as stored (200 characters at most): a longer one ends in its own hash."""
    if len(key) <= 200:
        return key
    return f"{key[:135]}#{hashlib.sha256(key.encode()).hexdigest()}"


def case_owners(case: Case) -> list[Person]:
    """The dog's current owners (an ownership without an end date, or one ending today or later)."""
    today = timezone.localdate()
    return list(
        Person.objects.filter(ownerships__dog_id=case.dog_id)
        .filter(Q(ownerships__until__isnull=True) | Q(ownerships__until__gte=today))
        .distinct()
        .order_by("pk")
    )


def owners_by_dog(dog_ids, today) -> dict[int, list[Person]]:
    """case_owners() of many dogs in one query: dog id -> its current owners, in id order."""
    if not dog_ids:
        return {}
    from dogcase.cases.models import Ownership

    out: dict[int, list[Person]] = {}
    rows = (
        Ownership.objects.filter(dog_id__in=sorted(dog_ids))
        .filter(Q(until__isnull=True) | Q(until__gte=today))
        .select_related("person")
        .order_by("dog_id", "person_id")
    )
    for row in rows:
        owners = out.setdefault(row.dog_id, [])
        if all(p.pk != row.person_id for p in owners):
            owners.append(row.person)
    return out


def owner_ids_by_dog(dog_ids, today) -> dict[int, list[int]]:
    """owners_by_dog's people as ids alone (no row read into Python): what a message's key needs."""
    if not dog_ids:
        return {}
    from dogcase.cases.models import Ownership

    out: dict[int, list[int]] = {}
    rows = (
        Ownership.objects.filter(dog_id__in=sorted(dog_ids))
        .filter(Q(until__isnull=True) | Q(until__gte=today))
        .order_by("dog_id", "person_id")
        .values_list("dog_id", "person_id")
        .distinct()
    )
    for dog_id, person_id in rows:
        out.setdefault(dog_id, []).append(person_id)
    return out


def recipient_key(key: str, to: str, pk: int) -> str:
    """The key of the message of `key` to one owner (a person's id) or one member of the staff (a user's)."""
    return f"{key}:person:{pk}" if to == "owners" else f"{key}:user:{pk}"


def case_staff(case: Case, roles: str = "") -> list:
    """The active staff of the case's city; only those with one of `roles` (",role,role,") when given."""
    return city_staff(case.jurisdiction, roles)


def city_staff(jurisdiction: str, roles: str = "") -> list:
    """The active staff of a city (auditors, who only read, are never told); only those with one of `roles`
    (",role,role,") when given."""
    return staff_of_cities([(jurisdiction, roles)])[(jurisdiction, roles)]


def staff_of_cities(wanted: list[tuple[str, str]]) -> dict[tuple[str, str], list]:
    """`city_staff` of each (city, roles) pair, in two queries whatever the number of pairs: the cities' active
    users, and those users' roles (the day's reminders ask for a city's staff once per set of roles)."""
    cities = sorted({city for city, _ in wanted})
    if not cities:
        return {pair: [] for pair in wanted}
    access = (
        CityAccess.objects.filter(jurisdiction__in=cities, user__is_active=True)
        .select_related("user")
        .order_by("user_id", "jurisdiction")
    )
    users: dict[int, Any] = {}
    cities_of: list[tuple[int, str]] = []
    for row in access:
        users.setdefault(row.user_id, row.user)
        cities_of.append((row.user_id, row.jurisdiction))
    names: dict[int, set[str]] = {pk: set() for pk in users}
    groups = get_user_model().groups.through.objects.filter(user_id__in=list(users))
    for user_id, name in groups.values_list("user_id", "group__name"):
        names[user_id].add(name)
    chosen = _choose_staff(wanted, cities_of, names)
    return {pair: [users[pk] for pk in ids] for pair, ids in chosen.items()}


def staff_ids_of_cities(wanted: list[tuple[str, str]]) -> dict[tuple[str, str], list[int]]:
    """staff_of_cities' people as ids alone, in one query (the cities' active users with their roles, no user
    read into Python): what a message's key needs."""
    cities = sorted({city for city, _ in wanted})
    if not cities:
        return {pair: [] for pair in wanted}
    rows = (
        CityAccess.objects.filter(jurisdiction__in=cities, user__is_active=True)
        .order_by("user_id", "jurisdiction")
        .values_list("user_id", "jurisdiction", "user__groups__name")
    )
    cities_of: list[tuple[int, str]] = []
    names: dict[int, set[str]] = {}
    for user_id, city, name in rows:  # a row per role of the user (None when it has none)
        if not cities_of or cities_of[-1] != (user_id, city):
            cities_of.append((user_id, city))
        has = names.setdefault(user_id, set())
        if name is not None:
            has.add(name)
    return _choose_staff(wanted, cities_of, names)


def _choose_staff(
    wanted: list[tuple[str, str]], cities_of: list[tuple[int, str]], names: dict[int, set[str]]
) -> dict[tuple[str, str], list[int]]:
    """The ids of each (city, roles) pair's staff, from the (user, city) pairs of access in user order and each
    user's roles: never an auditor alone, only the roles asked when any."""
    out: dict[tuple[str, str], list[int]] = {pair: [] for pair in wanted}
    for user_id, city in cities_of:
        has = names[user_id]
        if not has - {"auditor"}:
            continue
        for pair in wanted:
            at, roles = pair
            if at != city:
                continue
            asked = {r for r in roles.split(",") if r}
            if not asked or has & asked:
                out[pair].append(user_id)
    return out


def recipients_of(
    case: Case | None, *, to: str, context: dict[str, Any], key: str, people=None
) -> list[tuple]:
    """(key of the message, recipient field, name, address, language) for each person told; `people`: the
    owners or staff already read by the caller (the reminders read them for many cases at once; the case is
    then not read, and may be None)."""
    if to == "owners":
        return [
            (recipient_key(key, to, p.pk), {"person": p}, p.full_name, p.email, p.preferred_language)
            for p in (case_owners(case) if people is None else people)
        ]
    if people is None:
        people = (
            list(get_user_model().objects.filter(pk=context["staff_user"], is_active=True))
            if context.get("staff_user")
            else case_staff(case, context.get("staff_roles", ""))
        )
    return [
        (recipient_key(key, to, u.pk), {"user": u}, u.get_full_name() or u.get_username(), u.email, "en")
        for u in people
    ]


def notify(
    case: Case, kind: str, *, to: str, context: dict[str, Any], key: str, people=None, existing=None
) -> list[Message]:
    """The messages of `kind` about `case` to its owners or its staff, each stored on the case; those with an
    address are sent by a background job once the caller's transaction commits, those without are recorded as
    not sent ("no e-mail address") for the case page to show. The same `key` gives the same rows.
    `people` and `existing` (stored key -> Message) spare the queries a caller made already."""
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}")
    if to not in ("owners", "staff"):
        raise ValueError('to must be "owners" or "staff"')
    now = timezone.now()
    recipients = recipients_of(case, to=to, context=context, key=key, people=people)
    keys = {message_key(k): k for k, *_ in recipients}
    if existing is None or not set(keys) <= set(existing):
        existing = {m.key: m for m in Message.objects.filter(key__in=list(keys))}
    out: list[Message] = []
    for long_key, who, name, address, language in recipients:
        stored = message_key(long_key)
        if stored in existing:
            out.append(existing[stored])
            continue
        composed = compose(case, kind, context=context, language=language, recipient_name=name, to=to)
        row = Message(
            case=case,
            jurisdiction=case.jurisdiction,
            kind=kind,
            recipient_name=name[:200],
            address=address,
            subject=composed.subject,
            body=composed.body,
            language=language if to == "owners" else "en",
            created_at=now,
            status=Message.Status.QUEUED if address else Message.Status.NOT_SENT,
            status_reason="" if address else NO_ADDRESS,
            key=stored,
            **who,
        )
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:  # the same message, asked for at the same moment elsewhere
            out.append(Message.objects.get(key=stored))
            continue
        if address:
            transaction.on_commit(lambda pk=row.pk: enqueue_send(pk))
        out.append(row)
    return out

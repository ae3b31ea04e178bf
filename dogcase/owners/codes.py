"""Case access codes: issued per owner per case, printed only on the owner's notice (or shown once to the
staff member who re-issues it), stored as a keyed hash. Every issue and revocation is an audit event of the
case (kind record) naming its actor."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.audit import append_event, case_chain, lock_chain
from dogcase.cases.models import Case, Event, Ownership, Person
from dogcase.owners.models import CaseAccessCode

# No 0/O, 1/I/L: a code read from paper and typed on a phone
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
GROUPS, GROUP_LENGTH = 3, 4
# the staff roles that revoke and re-issue an owner's code from the case page
ISSUERS = frozenset({"animal_control_officer", "city_clerk", "administrator"})


def new_code() -> str:
    groups = ("".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS))
    return "-".join(groups)


def normalize(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())[:64]


def keyed_hash(kind: str, value: str) -> str:
    key = f"dogcase.owners.{kind}:{settings.SECRET_KEY}".encode()
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


def code_hash(code: str) -> str:
    return keyed_hash("code", normalize(code))


def find_live(code: str) -> CaseAccessCode | None:
    normalized = normalize(code)
    if len(normalized) != GROUPS * GROUP_LENGTH:
        return None
    return (
        CaseAccessCode.objects.select_related("case", "person", "case__dog")
        .filter(code_hash=code_hash(normalized), revoked_at__isnull=True)
        .first()
    )


def owners_of(case: Case) -> list[Person]:
    ids = Ownership.objects.filter(dog_id=case.dog_id).values_list("person_id", flat=True)
    return list(Person.objects.filter(pk__in=ids).order_by("full_name", "id"))


def require_issuer(user, case: Case) -> None:
    require_city(user, case.jurisdiction)
    if not staff_roles(user) & ISSUERS:
        raise PermissionDenied(
            "Only the animal control officer or the clerk issues or revokes an owner's code."
        )


def _event(case: Case, *, act: str, summary: str, actor, at: dt.datetime, data: dict) -> Event:
    return append_event(
        at=at,
        jurisdiction=case.jurisdiction,
        case=case,
        actor=actor,
        actor_roles=",".join(sorted(staff_roles(actor))) if actor is not None else "",
        kind=Event.Kind.RECORD,
        act=act,
        summary=summary,
        data=data,
    )


def issue_code(
    case: Case, person: Person, *, actor, at: dt.datetime | None = None
) -> tuple[CaseAccessCode, str]:
    """A new code for `person` on `case` (an owner of its dog), revoking the one before: the row, and the code
    in clear — to print once, never stored. `actor` the staff member (None: the system)."""
    at = at or timezone.now()
    if not Ownership.objects.filter(dog_id=case.dog_id, person_id=person.pk).exists():
        raise PermissionDenied(f"{person} is not an owner of the dog of case {case.number}.")
    code = new_code()
    with transaction.atomic():
        lock_chain(case_chain(case.pk))
        revoked = list(
            CaseAccessCode.objects.select_for_update().filter(
                case=case, person=person, revoked_at__isnull=True
            )
        )
        CaseAccessCode.objects.filter(pk__in=[r.pk for r in revoked]).update(revoked_at=at, revoked_by=actor)
        row = CaseAccessCode.objects.create(
            case=case, person=person, code_hash=code_hash(code), created_at=at, created_by=actor
        )
        _event(
            case,
            act="issue_access_code",
            summary=f"Portal access code issued to {person.full_name}"
            + (" (the earlier code revoked)" if revoked else ""),
            actor=actor,
            at=at,
            data={"person": person.pk, "access_code": row.pk, "revoked": [r.pk for r in revoked]},
        )
    return row, code


def revoke_code(row: CaseAccessCode, *, actor, at: dt.datetime | None = None) -> CaseAccessCode:
    at = at or timezone.now()
    with transaction.atomic():
        lock_chain(case_chain(row.case_id))
        locked = CaseAccessCode.objects.select_for_update().select_related("case", "person").get(pk=row.pk)
        if locked.revoked_at is not None:
            return locked
        locked.revoked_at, locked.revoked_by = at, actor
        locked.save(update_fields=["revoked_at", "revoked_by"])
        _event(
            locked.case,
            act="revoke_access_code",
            summary=f"Portal access code of {locked.person.full_name} revoked",
            actor=actor,
            at=at,
            data={"person": locked.person_id, "access_code": locked.pk},
        )
    return locked

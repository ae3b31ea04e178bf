"""Case access codes: one per owner per case, printed on every notice to that owner (or shown once to the
staff member who re-issues it), stored as a keyed hash. The code is derived from the site's key, the case, the
owner and a generation number, so the next notice prints the code the owner already holds instead of replacing
it; staff make a new generation only on purpose (the old code then tells its owner that it was replaced, and
when). Every issue and revocation is an audit event of the case (kind record) naming its actor."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.acts import is_owner
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


def site_keys() -> list[str]:
    """The site's key, then the keys it replaced (SECRET_KEY_FALLBACKS): a code made under an earlier key keeps
    working, and prints again the same, after the key is rotated."""
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ())]


def derived_code(case_pk: int, person_pk: int, generation: int, *, key: str | None = None) -> str:
    """The code of `generation` for one owner on one case: the same on every notice, unguessable without the
    site's key (12 characters of a 31-letter alphabet, about 59 bits). `key`: the site key it was made under
    (default: the current one)."""
    digest = hmac.new(
        f"dogcase.owners.code-derivation:{key if key is not None else settings.SECRET_KEY}".encode(),
        f"{case_pk}:{person_pk}:{generation}".encode(),
        hashlib.sha256,
    ).digest()
    number = int.from_bytes(digest, "big")
    letters = []
    for _ in range(GROUPS * GROUP_LENGTH):
        number, index = divmod(number, len(ALPHABET))
        letters.append(ALPHABET[index])
    text = "".join(letters)
    return "-".join(text[i : i + GROUP_LENGTH] for i in range(0, len(text), GROUP_LENGTH))


def normalize(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())[:64]


def keyed_hash(kind: str, value: str, *, key: str | None = None) -> str:
    secret = key if key is not None else settings.SECRET_KEY
    return hmac.new(f"dogcase.owners.{kind}:{secret}".encode(), value.encode(), hashlib.sha256).hexdigest()


def code_hash(code: str, *, key: str | None = None) -> str:
    return keyed_hash("code", normalize(code), key=key)


def code_hashes(code: str) -> list[str]:
    """The hashes `code` may be stored under: with the site's key and with each key it replaced."""
    return [code_hash(code, key=k) for k in site_keys()]


def find_live(code: str) -> CaseAccessCode | None:
    normalized = normalize(code)
    if len(normalized) != GROUPS * GROUP_LENGTH:
        return None
    return (
        CaseAccessCode.objects.select_related("case", "person", "case__dog")
        .filter(code_hash__in=code_hashes(normalized), revoked_at__isnull=True)
        .first()
    )


def find_replaced(code: str) -> CaseAccessCode | None:
    """The revoked code `code` names, if any (its owner is told when it was replaced and what to do)."""
    normalized = normalize(code)
    if len(normalized) != GROUPS * GROUP_LENGTH:
        return None
    return (
        CaseAccessCode.objects.select_related("case")
        .filter(code_hash__in=code_hashes(normalized), revoked_at__isnull=False)
        .first()
    )


def owners_of(case: Case) -> list[Person]:
    ids = (
        Ownership.objects.filter(dog_id=case.dog_id)
        .filter(Q(until__isnull=True) | Q(until__gte=timezone.localdate()))
        .values_list("person_id", flat=True)
    )
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
    case: Case, person: Person, *, actor, at: dt.datetime | None = None, reason: str = ""
) -> tuple[CaseAccessCode, str]:
    """A new code for `person` on `case` (an owner of its dog), revoking the one before: the row, and the code
    in clear — to print, never stored. Staff do this on purpose (a lost or disclosed code); a notice prints the
    code the owner holds (`code_for_notice`). `actor` the staff member (None: the system)."""
    at = at or timezone.now()
    if not is_owner(person, case):
        raise PermissionDenied(f"{person} is not an owner of the dog of case {case.number}.")
    with transaction.atomic():
        lock_chain(case_chain(case.pk))
        return _issue_locked(case, person, actor=actor, at=at, reason=reason)


def _issue_locked(
    case: Case, person: Person, *, actor, at: dt.datetime, reason: str
) -> tuple[CaseAccessCode, str]:
    revoked = list(
        CaseAccessCode.objects.select_for_update().filter(case=case, person=person, revoked_at__isnull=True)
    )
    CaseAccessCode.objects.filter(pk__in=[r.pk for r in revoked]).update(revoked_at=at, revoked_by=actor)
    generation = CaseAccessCode.objects.filter(case=case, person=person).count() + 1
    code = derived_code(case.pk, person.pk, generation)
    row = CaseAccessCode.objects.create(
        case=case,
        person=person,
        code_hash=code_hash(code),
        generation=generation,
        created_at=at,
        created_by=actor,
    )
    _event(
        case,
        act="issue_access_code",
        summary=f"Portal access code issued to {person.full_name}"
        + (" (the earlier code revoked)" if revoked else "")
        + (f": {reason}" if reason else ""),
        actor=actor,
        at=at,
        data={
            "person": person.pk,
            "access_code": row.pk,
            "revoked": [r.pk for r in revoked],
            "reason": reason,
        },
    )
    return row, code


def code_for_notice(
    case: Case, person: Person, *, actor, at: dt.datetime | None = None
) -> tuple[CaseAccessCode, str]:
    """The code a notice to `person` prints: the live one the owner already holds, derived again; a new one
    only when the owner has none, or holds one that cannot be printed again (issued before codes were derived,
    or under another site key). Call inside the issuing act's transaction."""
    at = at or timezone.now()
    if not is_owner(person, case):
        raise PermissionDenied(f"{person} is not an owner of the dog of case {case.number}.")
    with transaction.atomic():
        lock_chain(case_chain(case.pk))
        live = (
            CaseAccessCode.objects.select_for_update()
            .filter(case=case, person=person, revoked_at__isnull=True)
            .order_by("-created_at", "-id")
            .first()
        )
        if live is not None and live.generation is not None:
            # derived again under the key it was made with: after a key rotation the owner's code still prints
            for key in site_keys():
                code = derived_code(case.pk, person.pk, live.generation, key=key)
                if code_hash(code, key=key) == live.code_hash:
                    return live, code
        reason = (
            "the code printed before could not be printed again on this notice"
            if live is not None
            else "the first notice to this owner"
        )
        return _issue_locked(case, person, actor=actor, at=at, reason=reason)


def record_printed(row: CaseAccessCode, *, actor, at: dt.datetime | None = None) -> None:
    """Staff printed an owner's live code again on a slip: who, when, for whom (the code itself is not kept)."""
    at = at or timezone.now()
    with transaction.atomic():
        lock_chain(case_chain(row.case_id))
        _event(
            row.case,
            act="print_access_code",
            summary=f"Portal access code of {row.person.full_name} printed again for the owner",
            actor=actor,
            at=at,
            data={"person": row.person_id, "access_code": row.pk},
        )


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

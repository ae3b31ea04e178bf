"""The demo's owner who signs in to the portal: Greta Halvorsen, whose dog Duke was declared dangerous in Battle
Lake and served the notice 8 days ago — her 14 days to ask for a hearing are running. seed_demo prints her code
(the one on her notice when the demo was just loaded; a new one, revoking it, when the demo already existed)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from dogcase.cases.models import Case
from dogcase.owners import codes
from dogcase.owners.models import CaseAccessCode
from dogcase.owners.urls_util import portal_url

DEMO_CITY = "battle-lake-mn"
DEMO_DOG = "Duke"
DEMO_OWNER = "Greta Halvorsen"


def demo_case() -> Case | None:
    return (
        Case.objects.select_related("dog")
        .filter(jurisdiction=DEMO_CITY, dog__name=DEMO_DOG, dog__ownerships__person__full_name=DEMO_OWNER)
        .first()
    )


def portal_sign_in(heard: list) -> dict | None:
    """The demo owner's case, person, code and facts; the code from `heard` (codes printed on the notices just
    issued) when one is hers, else a new one."""
    case = demo_case()
    if case is None:
        return None
    person = next(p for p in codes.owners_of(case) if p.full_name == DEMO_OWNER)
    live = CaseAccessCode.objects.filter(case=case, person=person, revoked_at__isnull=True).first()
    code = next((c for pk, c in heard if live is not None and pk == live.pk), None)
    if code is None:
        officer = get_user_model().objects.filter(username="officer").first()
        _row, code = codes.issue_code(case, person, actor=officer)
    return {
        "case": case.number,
        "owner": person.full_name,
        "code": code,
        "dog": case.dog.name,
        "zip": person.postal_code,
        "url": portal_url(),
    }


def describe(info: dict) -> str:
    return (
        f"Owner's portal: {info['url']} — {info['owner']}, case {info['case']}: "
        f"code {info['code']} with the dog's name {info['dog']} (or ZIP code {info['zip']})\n"
    )

"""The demo's years after the decision: each city's fee schedule (by resolution, within the law's caps), and
what a story does beside the law's steps — a payment with its receipt, an actual cost charged, a statement of
charges, a proof of coverage accepted with the day it ends, the owner's own application from the portal. A story
names them like steps ("pay", "cost", "statement", "coverage", "owner_applies"), on their day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from dogcase.cases import acts
from dogcase.cases.models import Case
from dogcase.law import library
from dogcase.money import charging, payments, schedule
from dogcase.money.models import FeeRate
from dogcase.proofs import conditions, services
from dogcase.proofs.demo import PDF, coverage_data

from . import dates

# Demo rates (fictional resolutions): what each city's council set for the charges its law lets it set.
FEES = {
    "battle-lake-mn": {
        "registration_fee": "75.00",
        "sign_fee": "15.00",
        "tag_fee": "5.00",
        "impounding_fee": "50.00",
        "boarding": "25.00",
    },
    "tracy-mn": {"registration_fee": "100.00", "impounding_fee": "45.00", "boarding": "20.00"},
}
RESOLUTIONS = {"battle-lake-mn": "Res. 2025-04 (demo)", "tracy-mn": "Res. 2025-11 (demo)"}
EXTRA = ("pay", "cost", "statement", "coverage", "owner_applies")


def demo_fees(city: str, admin) -> int:
    """The city's fee schedule, in force from two years ago; nothing where the city has a schedule already."""
    if admin is None or FeeRate.objects.filter(jurisdiction=city).exists():
        return 0
    j = library().get(city)
    start = dates.local(730).date()
    made = 0
    for charge_id, amount in FEES.get(city, {}).items():
        if charge_id in j.charges:
            schedule.set_rate(
                city,
                charge_id,
                amount=amount,
                effective_from=start,
                resolution=RESOLUTIONS[city],
                adopted_on=start - dt.timedelta(days=14),
                actor=admin,
                at=dates.local(744, 15),
            )
            made += 1
    return made


def _owner(case: Case):
    ownership = case.dog.ownerships.filter(until__isnull=True).select_related("person").first()
    return ownership.person if ownership else None


def play_extra(case: Case, kind: str, who, at: dt.datetime, inputs: dict[str, Any], users) -> Case:
    """Do one of the story's non-law steps (`EXTRA`) on the case. The money needs the demo's fee schedule,
    which the city's administrator enters: without an administrator to enter it, the demo has no money."""
    if (
        kind in ("pay", "cost", "statement")
        and not FeeRate.objects.filter(jurisdiction=case.jurisdiction).exists()
    ):
        return case
    if kind == "pay":
        owner = _owner(case)
        payments.record_payment(
            case,
            amount=inputs["amount"],
            method=inputs.get("method", "check"),
            reference=inputs.get("reference", ""),
            paid_by=inputs.get("paid_by") or (owner.full_name if owner else "The owner"),
            actor=who,
            at=at,
        )
    elif kind == "cost":
        (event,) = [o.step_event for o in charging.open_costs(case, at) if o.charge.id == inputs["charge"]][
            -1:
        ]
        charging.enter_cost(
            case, inputs["charge"], event.seq, amount=inputs["amount"], note=inputs["note"], actor=who, at=at
        )
    elif kind == "statement":
        payments.issue_statement(case, actor=who, at=at)
    elif kind == "coverage":
        cond = next(c for c in conditions.conditions(case, at) if c.kind == "coverage")
        proof = services.submit(
            case,
            cond.id,
            data=coverage_data(
                cond,
                policy=inputs.get("policy", "HO-DEMO-1"),
                starts_on=inputs["starts_on"],
                ends_on=inputs["ends_on"],
            ),
            uploads=[SimpleUploadedFile("certificate-of-insurance.pdf", PDF)],
            person=_owner(case),
            at=at,
        )
        services.accept(proof, actor=who, at=at + dt.timedelta(hours=2))
    elif kind == "owner_applies":
        case.refresh_from_db()
        acts.take_owner_step(
            case,
            "apply_for_registration",
            person=_owner(case),
            inputs={"applied_on": at.date().isoformat(), "note": inputs.get("note", "")},
            expected_version=case.version,
            at=at,
        )
    case.refresh_from_db()
    return case

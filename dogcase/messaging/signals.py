"""The acts' messages, sent from the acts' own transactions (so an act refused or rolled back sends nothing):
a document issued to the owner, and a hearing scheduled by a step; and, once a review of a proof has committed
(dogcase.proofs' signal), the proof accepted or not accepted and why."""

from __future__ import annotations

import logging

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from dogcase.cases.models import Event
from dogcase.documents.models import IssuedDocument
from dogcase.messaging.outbox import notify
from dogcase.proofs.signals import proof_reviewed

log = logging.getLogger(__name__)


@receiver(post_save, sender=IssuedDocument, dispatch_uid="messaging_document_issued")
def document_issued(sender, instance: IssuedDocument, created: bool, raw: bool = False, **kwargs) -> None:
    if not created or raw or instance.audience != "owner":
        return
    event = instance.event
    notify(
        instance.case,
        "document_issued",
        to="owners",
        context={
            "title": instance.title,
            "number": instance.number
            if instance.version == 1
            else f"{instance.number}, version {instance.version}",
            "issued_on": timezone.localtime(instance.issued_at).date().isoformat(),
            "citation": event.citation if event is not None else "",
        },
        key=f"document:{instance.pk}",
    )


def _schedules_hearing(event: Event):
    """The step's inputs that record a scheduled event (a hearing's date and time), if any."""
    from dogcase.cases.acts import jurisdiction_of

    try:
        j = jurisdiction_of(event.case)
    except Exception:  # noqa: BLE001 - a city whose pack is not installed schedules nothing here
        return []
    day = timezone.localtime(event.at).date()
    step = next((s for s in j.procedure(day) if s.id == event.act), None)
    if step is None:
        return []
    given = (event.data or {}).get("inputs") or {}
    return [i for i in step.inputs if i.when == "future" and i.kind == "datetime" and given.get(i.id)]


@receiver(post_save, sender=Event, dispatch_uid="messaging_hearing_scheduled")
def hearing_scheduled(sender, instance: Event, created: bool, raw: bool = False, **kwargs) -> None:
    """A step that schedules a hearing, or a correction of the date such a step recorded (the hearing moved):
    the owners and the hearing officer are told the hearing as it now stands."""
    if not created or raw or instance.case_id is None:
        return
    if instance.kind == Event.Kind.STEP:
        step_event = instance
    elif instance.kind == Event.Kind.CORRECTION and instance.corrects_id is not None:
        step_event = instance.corrects
        if step_event.kind != Event.Kind.STEP:
            return
    else:
        return
    if not _schedules_hearing(step_event) or (step_event.data or {}).get("recorded"):
        return  # a hearing scheduled before dogcase (an open case brought in): the city told the owner then
    from dogcase.cases.hearings import scheduled_hearings

    case = instance.case
    for name, hearing in scheduled_hearings(case).items():
        if hearing.scheduled_by.pk != step_event.pk:
            continue
        context = {"label": hearing.label, "when": hearing.at.isoformat(), "place": hearing.place}
        key = f"hearing:{instance.pk}:{name}"
        notify(case, "hearing_scheduled", to="owners", context=context, key=key)
        if hearing.officer is not None:
            notify(
                case,
                "hearing_scheduled",
                to="staff",
                context={**context, "staff_user": hearing.officer.pk},
                key=f"{key}:officer",
            )


@receiver(proof_reviewed, dispatch_uid="messaging_proof_reviewed")
def proof_was_reviewed(sender, proof, accepted: bool, **kwargs) -> None:
    """The owners are told a proof they sent was accepted, or not accepted and why (issue 9, item 4)."""
    from dogcase.proofs.conditions import condition

    cond = condition(proof.case, proof.condition, proof.reviewed_at)
    context = {
        "condition": cond.what if cond is not None else proof.condition.replace("_", " "),
        "citation": cond.citation if cond is not None else "",
    }
    if accepted:
        notify(proof.case, "proof_accepted", to="owners", context=context, key=f"proof:{proof.pk}:accepted")
    else:
        notify(
            proof.case,
            "proof_rejected",
            to="owners",
            context={**context, "reason": proof.reason},
            key=f"proof:{proof.pk}:rejected",
        )

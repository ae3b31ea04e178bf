"""Service of an issued document: the acts that record each attempt and a returned mail piece, and what the law
says each one starts (dogcase.law.service: the packs' `service_of:` steps).

An attempt by a method the law names, that served the document, takes the pack's further-service step through
`dogcase.cases.acts.take_step` (the events it starts are the step's); a return receipt (green card) whose date
the law counts from takes the pack's receipt step. A method the law does not name is recorded and starts
nothing. Every act is audited in the case's chain, under the case lock, in one transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.access import require_city, staff_roles
from dogcase.cases.models import Case, Event
from dogcase.documents.models import IssuedDocument
from dogcase.documents.service_models import ServiceAttempt
from dogcase.law import InputError
from dogcase.law.packschema import SERVICE_METHODS
from dogcase.law.service import ServiceRule, service_rule, service_steps

Outcome = ServiceAttempt.Outcome

# The shared service methods in plain words (the staff pages; a pack's own method shows its pack label).
METHOD_WORDS = {
    "personal": "Personal delivery to the owner",
    "hand_delivery": "Hand delivery to the owner",
    "certified_mail_return_receipt": "Certified mail, return receipt requested",
    "certified_mail": "Certified mail",
    "registered_mail": "Registered mail",
    "mail": "First-class mail",
    "posting_where_dog_kept": "Posted where the dog is kept",
    "posting_on_owner_property": "Posted on the owner's property",
    "delivery_to_resident": "Delivered to a person residing at the dwelling",
    "telephone_if_possible": "Telephoned the owner (in addition to service)",
}
# pieces with an article number and a return receipt: the daily mailing sheet lists them
MAIL_WITH_ARTICLE = ("certified_mail_return_receipt", "certified_mail", "registered_mail")
MAILED = (*MAIL_WITH_ARTICLE, "mail")
# what can come of an attempt, by kind of method
_OUTCOMES_BY_KIND = {
    "mail": (Outcome.SENT,),
    "hand": (Outcome.DELIVERED, Outcome.REFUSED, Outcome.NOT_FOUND),
    "posting": (Outcome.POSTED,),
    "resident": (Outcome.LEFT_WITH_RESIDENT, Outcome.NOT_FOUND),
    "telephone": (Outcome.SPOKE, Outcome.NO_ANSWER),
    "other": (Outcome.SENT, Outcome.DELIVERED),
}
# what a mail piece's return can say
RETURNS = (Outcome.DELIVERED, Outcome.REFUSED, Outcome.UNCLAIMED, Outcome.UNDELIVERABLE)
# outcomes in which the document was served by the method (handed over, posted, left, mailed): dogcase's
# reading (docs/service.md) — a refused hand delivery, a returned letter, nobody found serve nothing
SERVED = (Outcome.SENT, Outcome.DELIVERED, Outcome.POSTED, Outcome.LEFT_WITH_RESIDENT)


def method_kind(method: str) -> str:
    if method in MAILED:
        return "mail"
    if method in ("personal", "hand_delivery"):
        return "hand"
    if method.startswith("posting"):
        return "posting"
    if method == "delivery_to_resident":
        return "resident"
    if method == "telephone_if_possible":
        return "telephone"
    return "other"


def outcomes_for(method: str) -> tuple[Outcome, ...]:
    return _OUTCOMES_BY_KIND[method_kind(method)]


def method_words(j, method: str) -> str:
    if not method:
        return "As recorded when the document was issued"
    return METHOD_WORDS.get(method) or j.service_method_label(method)


def named_words(j, rule: ServiceRule) -> str:
    """The methods the law names, in plain words ("personal delivery to the owner or certified mail")."""
    words = [method_words(j, m["value"]).lower() for m in rule.named_methods]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def methods_for(j) -> list[tuple[str, str]]:
    """Every method staff may record for a city: the shared ones and its pack's own (e-mail where a pack
    declares it), whether or not the law names it for a given notice."""
    out = [(m, method_words(j, m)) for m in SERVICE_METHODS]
    out += [(m, method_words(j, m)) for m in j.service_methods if m not in SERVICE_METHODS]
    return out


@dataclass(frozen=True)
class Recorded:
    attempt: ServiceAttempt
    rule: ServiceRule | None
    step_event: Event | None
    message: str  # what the attempt started, or why nothing, in words with the citation


def _state(case: Case):
    return acts.case_state(case)


def rule_for(document: IssuedDocument, method: str, day: dt.date, state=None) -> ServiceRule | None:
    """What the law says of serving this document by `method` (None: no method, or a document no step
    issued). `state`: the case's state, when the caller has it already (a page of several documents)."""
    if not method or not document.step:
        return None
    j = acts.jurisdiction_of(document)
    return service_rule(j, document.step, state if state is not None else _state(document.case), method, day)


def nothing_started(j, rule: ServiceRule | None) -> str:
    """Why a service starts no time, in words with the citation."""
    if rule is None:
        return "No time is counted from this service."
    if rule.additional:
        return (
            f"Telephoning is in addition to service, never service itself: it starts no time "
            f"({rule.notice_citations})."
        )
    if not rule.named and not rule.named_methods:
        # the law names no way of serving this document (a notice of hearing): nothing counts from its sending
        return "This sending is recorded; no time is counted from it."
    if not rule.named:
        return (
            f"The law does not name this way of serving the notice: it is recorded, and starts no time. The "
            f"notice is served by: {named_words(j, rule)} ({rule.notice_citations})."
        )
    if rule.open and rule.starting_methods:
        starting = " or ".join(method_words(j, m).lower() for m in rule.starting_methods)
        return (
            f"The law requires written notice and names no method ({rule.notice_citations}): this service is "
            f"recorded, but the owner's time runs only from a notice sent by {starting}."
        )
    return f"No time is counted from this service ({rule.notice_citations})."


def _started_words(j, rule: ServiceRule, date: str, day: dt.date) -> str:
    words = sorted({s.words for s in rule.starts_from(date)})
    if not words:
        return ""
    return f"Counted from {day:%-d %B %Y}: {', '.join(words)} ({rule.notice_citations})."


def _check_dates(document: IssuedDocument, sent_on, received_on, today: dt.date) -> None:
    if not isinstance(sent_on, dt.date):
        raise acts.InvalidInput("sent_on", "give the date")
    if sent_on > today:
        raise acts.InvalidInput("sent_on", "may not be in the future")
    issued = timezone.localtime(document.issued_at).date()
    if sent_on < issued:
        raise acts.InvalidInput("sent_on", f"may not be before the document was issued ({issued:%-d %B %Y})")
    if received_on is not None:
        if received_on > today:
            raise acts.InvalidInput("received_on", "may not be in the future")
        if received_on < sent_on:
            raise acts.InvalidInput("received_on", "may not be before the date it was sent")


def _check_writer(actor, document: IssuedDocument) -> None:
    require_city(actor, document.jurisdiction)
    if staff_roles(actor) <= {"auditor"}:
        raise acts.Refused(
            "This act", [{"reason": "The auditor role is read-only.", "citation": "", "code": "read_only"}]
        )


def _lock(document: IssuedDocument) -> Case:
    acts.lock_case(document.case_id)
    return Case.objects.select_for_update().select_related("incident").get(pk=document.case_id)


def _check_version(case: Case, expected_version: int) -> None:
    if case.version != expected_version:
        raise acts.StaleCase(case, expected_version)


def _store_proofs(proofs: Iterable, document: IssuedDocument, actor, at) -> list:
    return [acts.store(upload, "proof", document.jurisdiction, actor, at) for upload in proofs]


def _bump(case: Case, at: dt.datetime) -> None:
    case.refresh_from_db(fields=["version"])
    Case.objects.filter(pk=case.pk).update(version=case.version + 1, updated_at=at)


def serves(j, document: IssuedDocument, day: dt.date) -> bool:
    """Whether the document is served (has service attempts): its issuing step records how it was served, the
    law has a step for its further service, or it goes to the owner."""
    if document.audience == "owner":
        return True
    if not document.step:
        return False
    try:
        step = j.step(document.step, day)
    except InputError:
        return False
    if any(i.kind == "service_method" for i in step.inputs):
        return True
    return any(s.service_of == document.step for s in j.procedure(day))


def _take_receipt(
    case: Case, rule: ServiceRule, *, actor, received_on: dt.date, at
) -> tuple[Event | None, str]:
    """Take the law's receipt step for the owner's receipt on `received_on`. Where the law refuses it now (the
    receipt of a decision that rescinded the declaration starts no time), the return is still recorded and the
    message says why, with the citation."""
    j = acts.jurisdiction_of(case)
    case.refresh_from_db(fields=["version"])
    try:
        result = acts.take_step(
            case,
            rule.receipt_step,
            actor=actor,
            inputs={rule.receipt_input: received_on},
            expected_version=case.version,
            at=at,
        )
    except acts.Refused as exc:
        reasons = "; ".join(
            f"{r['reason']} ({r['citation']})" if r.get("citation") else r["reason"] for r in exc.refusals
        )
        return None, f"The receipt is recorded on the document; the law counts nothing from it now: {reasons}"
    return result.event, _started_words(j, rule, "received", received_on)


def record_issuing_service(
    document: IssuedDocument, *, actor, at: dt.datetime | None = None
) -> ServiceAttempt | None:
    """Attempt 1: the service the issuing step recorded (its method and date, from the step's own record),
    written in the issuing act's transaction, for a document that is served. The step's event stays the
    record of what it started; the attempt points to it."""
    event = document.step_event
    inputs = (event.data or {}).get("inputs", {}) if event else {}
    j = acts.jurisdiction_of(document)
    at = at or document.issued_at
    if not serves(j, document, timezone.localtime(at).date()):
        return None
    step = j.step(document.step, timezone.localtime(at).date()) if document.step else None
    # the events the law's receipt step records: the issuing step's input that records them is the receipt
    _further, receipt = service_steps(j, document.step, timezone.localtime(at).date())
    receipt_events = {e for i in (receipt.inputs if receipt else ()) if i.service_date for e in i.records}
    method = ""
    sent_on = timezone.localtime(at).date()
    received_on = None
    if step is not None:
        for item in step.inputs:
            value = inputs.get(item.id)
            if item.kind == "service_method" and value:
                method = str(value)
            if step.legal_input is not None and item.id == step.legal_input.id and value:
                sent_on = acts.parse_value(value)
                sent_on = sent_on.date() if isinstance(sent_on, dt.datetime) else sent_on
            if item.kind == "date" and value and set(item.all_records) & receipt_events:
                received_on = acts.parse_value(value)
    if method in MAILED:
        outcome = Outcome.DELIVERED if received_on else Outcome.SENT
    else:
        outcome = outcomes_for(method)[0] if method else Outcome.DELIVERED
    return ServiceAttempt.objects.create(
        document=document,
        jurisdiction=document.jurisdiction,
        number=1,
        method=method,
        addressee=document.recipient,
        served_by=actor,
        sent_on=sent_on,
        outcome=outcome,
        received_on=received_on,
        step_event=event,
        recorded_by=actor,
        recorded_at=at,
    )


def record_service_attempt(
    document: IssuedDocument,
    *,
    actor,
    method: str,
    sent_on: dt.date,
    outcome: str,
    expected_version: int,
    article_number: str = "",
    addressee: str = "",
    served_by_name: str = "",
    received_on: dt.date | None = None,
    notes: str = "",
    proofs: Iterable = (),
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Recorded:
    """Record one attempt to serve an issued document. When the law names the method and the attempt served the
    document (handed over, posted, left with a resident, mailed), the pack's further-service step is taken
    with the attempt's dates: it records what the law starts from them. Otherwise the attempt is recorded and
    starts nothing (the message says why, with the citation of the methods the law names)."""
    at = at or acts.now()
    today = timezone.localtime(at).date()
    _check_writer(actor, document)
    j = acts.jurisdiction_of(document)
    if method not in dict(methods_for(j)):
        raise acts.InvalidInput("method", "choose one of the ways of serving listed")
    if outcome not in outcomes_for(method):
        raise acts.InvalidInput("outcome", "choose one of the outcomes listed for this way of serving")
    article_number = (article_number or "").strip()
    if method in MAIL_WITH_ARTICLE and not article_number:
        raise acts.InvalidInput("article_number", "give the article number printed on the mail receipt")
    if article_number and not all(c.isalnum() or c == " " for c in article_number):
        raise acts.InvalidInput("article_number", "letters, digits and spaces only")
    if len(article_number) > 40:
        raise acts.InvalidInput("article_number", "at most 40 characters")
    if len(served_by_name or "") > 200:
        raise acts.InvalidInput("served_by_name", "at most 200 characters")
    _check_dates(document, sent_on, received_on, today)
    if received_on is not None and method_kind(method) == "mail":
        raise acts.InvalidInput("received_on", "record the return receipt when it comes back")
    with transaction.atomic():
        case = _lock(document)
        replay = acts.replayed(idempotency_key, actor=actor, act="record_service_attempt", case=case)
        if replay is not None:  # the same form sent twice: the attempt it recorded
            attempt = ServiceAttempt.objects.get(pk=replay.data["attempt"])
            return Recorded(
                attempt, rule_for(document, attempt.method, attempt.sent_on), attempt.step_event, ""
            )
        _check_version(case, expected_version)
        stored = _store_proofs(proofs, document, actor, at)
        rule = service_rule(j, document.step, _state(case), method, sent_on) if document.step else None
        step_event = None
        if rule is not None and rule.named and rule.further_step and outcome in SERVED:
            inputs: dict[str, Any] = {}
            further = j.step(rule.further_step, sent_on)
            for item in further.inputs:
                if item.kind == "service_method":
                    inputs[item.id] = rule.served_as
                elif item.service_date == "sent":
                    inputs[item.id] = sent_on
                elif item.service_date == "received" and received_on is not None:
                    inputs[item.id] = received_on
                elif item.service_date == "received" and outcome == Outcome.DELIVERED:
                    inputs[item.id] = sent_on
            result = acts.take_step(
                case, rule.further_step, actor=actor, inputs=inputs, expected_version=case.version, at=at
            )
            step_event = result.event
            if outcome == Outcome.DELIVERED and received_on is None:
                received_on = sent_on
            message = " ".join(
                filter(
                    None,
                    [
                        _started_words(j, rule, "sent", sent_on),
                        _started_words(j, rule, "received", received_on) if received_on else "",
                    ],
                )
            ) or nothing_started(j, rule)
        elif rule is not None and rule.named and rule.receipt_step and outcome == Outcome.DELIVERED:
            # no further-service step (a decision delivered by hand): the delivery is the owner's receipt
            received_on = received_on or sent_on
            step_event, message = _take_receipt(case, rule, actor=actor, received_on=received_on, at=at)
        elif rule is not None and rule.named and outcome not in SERVED:
            message = "The document was not served by this attempt: no time starts. Serve it again."
        else:
            message = nothing_started(j, rule)
        number = (document.service_attempts.aggregate(n=models_max("number"))["n"] or 0) + 1
        attempt = ServiceAttempt.objects.create(
            document=document,
            jurisdiction=document.jurisdiction,
            number=number,
            method=method,
            article_number=article_number,
            addressee=(addressee or document.recipient).strip(),
            served_by=actor if not served_by_name else None,
            served_by_name=(served_by_name or "").strip(),
            sent_on=sent_on,
            outcome=outcome,
            received_on=received_on,
            notes=(notes or "").strip(),
            step_event=step_event,
            recorded_by=actor,
            recorded_at=at,
        )
        if stored:
            attempt.proofs.add(*stored)
        acts.record_event(
            actor=actor,
            jurisdiction=document.jurisdiction,
            act="record_service_attempt",
            summary=f"Service of {document.title} ({document.number}), attempt {number}: "
            f"{method_words(j, method)} — {Outcome(outcome).label.lower()}",
            data={
                "document": document.pk,
                "attempt": attempt.pk,
                "number": number,
                "method": method,
                "outcome": outcome,
                "sent_on": sent_on.isoformat(),
                "received_on": received_on.isoformat() if received_on else None,
                "article_number": article_number,
                "step_event": step_event.seq if step_event else None,
                "files": [{"id": f.pk, "sha256": f.sha256} for f in stored],
            },
            at=at,
            case=case,
            key=idempotency_key,
        )
        _bump(case, at)
    return Recorded(attempt, rule, step_event, message)


def record_mail_return(
    attempt: ServiceAttempt,
    *,
    actor,
    outcome: str,
    expected_version: int,
    received_on: dt.date | None = None,
    proofs: Iterable = (),
    notes: str = "",
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> Recorded:
    """Record what came back for a mail piece: the return receipt (green card) signed on `received_on`, or the
    envelope returned refused, unclaimed or undeliverable. A signed return receipt whose date the law counts
    from (the owner's receipt of the notice) takes the pack's receipt step."""
    at = at or acts.now()
    today = timezone.localtime(at).date()
    document = attempt.document
    _check_writer(actor, document)
    if method_kind(attempt.method) != "mail":
        raise acts.InvalidInput("outcome", "only a mail piece comes back")
    if outcome not in RETURNS:
        raise acts.InvalidInput("outcome", "choose what came back")
    if outcome == Outcome.DELIVERED:
        if not isinstance(received_on, dt.date):
            raise acts.InvalidInput("received_on", "give the date the owner signed the return receipt")
        _check_dates(document, attempt.sent_on, received_on, today)
    else:
        received_on = None
    with transaction.atomic():
        case = _lock(document)
        replay = acts.replayed(idempotency_key, actor=actor, act="record_mail_return", case=case)
        if replay is not None:
            attempt.refresh_from_db()
            return Recorded(attempt, None, attempt.receipt_event, "")
        _check_version(case, expected_version)
        attempt = ServiceAttempt.objects.select_for_update().get(pk=attempt.pk)
        if attempt.outcome != Outcome.SENT:
            raise acts.InvalidInput("outcome", "what came back for this mail piece is already recorded")
        stored = _store_proofs(proofs, document, actor, at)
        rule = rule_for(document, attempt.method, attempt.sent_on)
        receipt_event = None
        message = "No receipt is recorded: the owner's time that counts from receipt has not started."
        if outcome == Outcome.DELIVERED:
            message = nothing_started(acts.jurisdiction_of(document), rule)
            if rule is not None and rule.named and rule.starts_from("received") and rule.receipt_step:
                receipt_event, message = _take_receipt(
                    case, rule, actor=actor, received_on=received_on, at=at
                )
            elif rule is not None and rule.named:
                message = f"The return receipt is recorded; no time counts from it ({rule.notice_citations})."
        ServiceAttempt.objects.filter(pk=attempt.pk).update(
            outcome=outcome,
            received_on=received_on,
            receipt_event=receipt_event,
            notes="\n".join(filter(None, [attempt.notes, (notes or "").strip()])),
        )
        attempt.refresh_from_db()
        if stored:
            attempt.proofs.add(*stored)
        acts.record_event(
            actor=actor,
            jurisdiction=document.jurisdiction,
            act="record_mail_return",
            summary=f"Service of {document.title} ({document.number}), attempt {attempt.number}: "
            f"{Outcome(outcome).label.lower()}"
            + (f", return receipt signed {received_on:%-d %B %Y}" if received_on else ""),
            data={
                "document": document.pk,
                "attempt": attempt.pk,
                "outcome": outcome,
                "received_on": received_on.isoformat() if received_on else None,
                "receipt_event": receipt_event.seq if receipt_event else None,
                "files": [{"id": f.pk, "sha256": f.sha256} for f in stored],
            },
            at=at,
            case=case,
            key=idempotency_key,
        )
        _bump(case, at)
    return Recorded(attempt, rule, receipt_event, message)


def record_article_number(
    attempt: ServiceAttempt,
    *,
    actor,
    article_number: str,
    expected_version: int,
    at: dt.datetime | None = None,
) -> ServiceAttempt:
    """The article number of a certified or registered mail piece recorded without one (the service the issuing
    step recorded has none): it puts the piece on the day's mailing sheet. Audited; written once."""
    at = at or acts.now()
    document = attempt.document
    _check_writer(actor, document)
    article_number = (article_number or "").strip()
    if attempt.method not in MAIL_WITH_ARTICLE:
        raise acts.InvalidInput("article_number", "only certified or registered mail has an article number")
    if not article_number:
        raise acts.InvalidInput("article_number", "give the article number printed on the mail receipt")
    if len(article_number) > 40 or not all(c.isalnum() or c == " " for c in article_number):
        raise acts.InvalidInput("article_number", "at most 40 letters, digits and spaces")
    with transaction.atomic():
        case = _lock(document)
        _check_version(case, expected_version)
        attempt = ServiceAttempt.objects.select_for_update().get(pk=attempt.pk)
        if attempt.article_number:
            raise acts.InvalidInput("article_number", "this piece already has its article number")
        ServiceAttempt.objects.filter(pk=attempt.pk).update(article_number=article_number)
        acts.record_event(
            actor=actor,
            jurisdiction=document.jurisdiction,
            act="record_article_number",
            summary=f"Service of {document.title} ({document.number}), attempt {attempt.number}: article number "
            f"{article_number}",
            data={"document": document.pk, "attempt": attempt.pk, "article_number": article_number},
            at=at,
            case=case,
        )
        _bump(case, at)
    attempt.refresh_from_db()
    return attempt


def models_max(field: str):
    from django.db.models import Max

    return Max(field)


def next_action(
    document: IssuedDocument, attempts: list[ServiceAttempt], day: dt.date, state=None, *, probe=False
) -> str:
    """What to do next to serve the document, in words with the citation (`state`: as `rule_for`; `probe`:
    the rule of personal service on `day`, when the caller has it)."""
    j = acts.jurisdiction_of(document)
    served = [
        a
        for a in attempts
        if (a.number == 1 or a.step_event_id)
        and (
            a.outcome in (Outcome.DELIVERED, Outcome.POSTED, Outcome.LEFT_WITH_RESIDENT)
            or (a.outcome == Outcome.SENT and a.method not in MAIL_WITH_ARTICLE)
        )
    ]
    waiting = [a for a in attempts if a.outcome == Outcome.SENT and a.method in MAIL_WITH_ARTICLE]
    returned = [
        a for a in attempts if a.outcome in (Outcome.REFUSED, Outcome.UNCLAIMED, Outcome.UNDELIVERABLE)
    ]
    if probe is False:
        probe = rule_for(document, "personal", day, state)
    how = f"{named_words(j, probe)} ({probe.notice_citations})" if probe and probe.named_methods else ""
    if waiting:
        a = waiting[-1]
        return (
            f"Waiting for the return receipt of attempt {a.number} (article {a.article_number or 'not recorded'}): "
            "record it, or the envelope if it comes back."
        )
    if served:
        last = served[-1]
        text = f"Served on {last.sent_on:%-d %B %Y} ({method_words(j, last.method).lower()})"
        if last.received_on:
            text += f"; received {last.received_on:%-d %B %Y}"
        return text + "."
    if returned:
        last = returned[-1]
        again = f" Serve it again by {how}." if how else " Serve it again."
        return f"Attempt {last.number}: {Outcome(last.outcome).label.lower()}.{again}"
    if how:
        return f"Not served yet. Serve it by {how}."
    return "Not served yet."

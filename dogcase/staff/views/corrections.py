"""Correcting what a legal act recorded, on the case's behalf: a date (`correct_date`) or a value typed in its
form (`correct_value`), each a correction event with its reason (dogcase.cases.acts.corrections)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.act_forms import attempt_act, clean_token, new_form_token
from dogcase.cases.guards import require_writer, staff_required
from dogcase.cases.models import Event
from dogcase.documents import acts as document_acts
from dogcase.law import library
from dogcase.staff import queries
from dogcase.staff.present import event_words
from dogcase.staff.views.cases import case_of_user, timeline, value_words


@staff_required
def correct_date(request, number: str, seq: int):
    user = request.user
    case = case_of_user(user, number)
    require_writer(user)
    j = library().get(case.jurisdiction)
    event = get_object_or_404(Event, case=case, seq=seq, kind=Event.Kind.STEP)
    state = acts.case_state(case)
    current: dict[str, Any] = next(
        (dict(t.events) for t in state.taken if t.step == event.act and t.at == event.at), {}
    )
    if not current:
        raise Http404("This act recorded no date.")
    errors: dict[str, str] = {}
    general: list[str] = []
    refusals: list[dict] = []
    stale = None
    version = case.version
    token = new_form_token()
    values = {"name": next(iter(current)), "value": "", "reason": ""}
    status = 200
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            return HttpResponseBadRequest("The form is missing its case version; reload the page.")
        token = clean_token(request.POST.get("idempotency_key")) or token
        values = {k: (request.POST.get(k) or "").strip() for k in ("name", "value", "reason")}
        name = values["name"]
        status = 400
        if name not in current:
            errors["name"] = "Choose one of the dates this act recorded."
        else:
            value = _parse_correction(values["value"], current[name], j.tz)
            if value is None:
                errors["value"] = (
                    "Give the date and time." if isinstance(current[name], dt.datetime) else "Give the date."
                )
            else:
                tried = attempt_act(
                    lambda: acts.correct_event_date(
                        case,
                        event=event,
                        name=name,
                        value=value,
                        reason=values["reason"],
                        actor=user,
                        expected_version=version,
                        idempotency_key=token,
                    ),
                    fields=("name", "value", "reason"),
                )
                errors.update(tried.errors)
                general.extend(tried.general)
                refusals = tried.refusals
                status = tried.status
                if tried.stale is not None:
                    case = case_of_user(user, number)
                    version = tried.stale.case.version
                    stale = {
                        "message": "Someone else acted on this case while you had the form open. Nothing was "
                        "saved. Check the case as it is now, then submit again.",
                        "recent": timeline(queries.case_events(case), may_correct=False, j=j)[-5:],
                    }
                if tried.done:
                    if tried.result.replayed:
                        messages.info(request, "This correction was already recorded from this form.")
                    else:
                        messages.success(request, "The date was corrected and the deadlines recomputed.")
                    return redirect(
                        reverse("staff:case", args=[case.number]) + f"#e-{tried.result.event.seq}"
                    )
    context = {
        "case": case,
        "event": event,
        "recorded": [
            {
                "name": k,
                "words": event_words(j, k),
                "value": value_words(v),
                "is_instant": isinstance(v, dt.datetime),
            }
            for k, v in current.items()
        ],
        "values": values,
        "errors": errors,
        "general_errors": general,
        "refusals": refusals,
        "stale": stale,
        "version": version,
        "token": token,
        "chosen_is_instant": isinstance(current.get(values.get("name")), dt.datetime),
    }
    return render(request, "staff/correct_form.html", context, status=status)


@staff_required
def correct_value(request, number: str, seq: int):
    """Correct a value an act recorded in its form (a telephone left out, a name misspelt): a correction event
    with the reason (cases.acts.correct_event_input); the act's documents are issued again as new versions,
    filled with the corrected value (documents.acts.correct_document)."""
    from dogcase.documents.models import IssuedDocument

    user = request.user
    case = case_of_user(user, number)
    require_writer(user)
    j = library().get(case.jurisdiction)
    event = get_object_or_404(Event, case=case, seq=seq, kind=Event.Kind.STEP)
    step = next((s for s in j.procedure(timezone.localtime(event.at).date()) if s.id == event.act), None)
    fields = acts.correctable_inputs(step)
    if not fields:
        raise Http404("This act recorded no value that can be corrected.")
    state = acts.case_state(case)
    taken = next((t for t in state.taken if t.step == event.act and t.at == event.at), None)
    current = dict(taken.inputs) if taken is not None else {}
    errors: dict[str, str] = {}
    general: list[str] = []
    refusals: list[dict] = []
    stale = None
    version = case.version
    token = new_form_token()
    values = {"input": fields[0].id, "value": "", "reason": ""}
    status = 200
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            return HttpResponseBadRequest("The form is missing its case version; reload the page.")
        token = clean_token(request.POST.get("idempotency_key")) or token
        values = {k: (request.POST.get(k) or "").strip() for k in ("input", "value", "reason")}
        tried = attempt_act(
            lambda: acts.correct_event_input(
                case,
                event=event,
                input_id=values["input"],
                value=values["value"],
                reason=values["reason"],
                actor=user,
                expected_version=version,
                idempotency_key=token,
            ),
            fields=("input", "value", "reason"),
        )
        errors.update(tried.errors)
        general.extend(tried.general)
        refusals = tried.refusals
        status = tried.status
        if tried.stale is not None:
            case = case_of_user(user, number)
            version = tried.stale.case.version
            stale = {
                "message": "Someone else acted on this case while you had the form open. Nothing was saved. "
                "Check the case as it is now, then submit again.",
                "recent": timeline(queries.case_events(case), may_correct=False, j=j)[-5:],
            }
        if tried.done:
            if tried.result.replayed:
                messages.info(request, "This correction was already recorded from this form.")
                return redirect(reverse("staff:case", args=[case.number]) + f"#e-{tried.result.event.seq}")
            reissued = []
            latest = IssuedDocument.objects.filter(step_event=event, replaced_by__isnull=True)
            for document in latest:
                try:
                    reissued.append(
                        document_acts.correct_document(
                            document,
                            actor=user,
                            reason=f"{tried.result.event.data['label']} corrected (entry "
                            f"#{tried.result.event.seq}): {values['reason']}",
                        )
                    )
                except (acts.InvalidInput, acts.Refused) as problem:
                    messages.warning(
                        request,
                        f"{document.title} {document.number} could not be issued again: {problem}. Correct it "
                        "from its page once the case has what it needs.",
                    )
            messages.success(
                request,
                "The value was corrected"
                + (
                    f" and {len(reissued)} document{'s' * (len(reissued) != 1)} issued again as a new version"
                    if reissued
                    else ""
                )
                + ".",
            )
            return redirect(reverse("staff:case", args=[case.number]) + f"#e-{tried.result.event.seq}")
    chosen = values.get("input")
    context = {
        "case": case,
        "event": event,
        "fields": [
            {"id": i.id, "label": i.label, "value": current.get(i.id) or "", "kind": i.kind} for i in fields
        ],
        "values": values,
        "chosen_kind": next((i.kind for i in fields if i.id == chosen), "text"),
        "errors": errors,
        "general_errors": general,
        "refusals": refusals,
        "stale": stale,
        "version": version,
        "token": token,
    }
    return render(request, "staff/correct_value_form.html", context, status=status)


def _parse_correction(text: str, current, tz):
    try:
        if isinstance(current, dt.datetime):
            moment = dt.datetime.fromisoformat(text)
            return moment.replace(tzinfo=tz) if moment.tzinfo is None else moment
        return dt.date.fromisoformat(text)
    except ValueError:
        return None

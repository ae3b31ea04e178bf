"""The case page, the form of each legal act, date corrections, evidence files and tasks."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from dogcase.cases import acts
from dogcase.cases.access import law_actor
from dogcase.cases.act_forms import (
    LIST_KINDS,
    FormProblem,
    clean_token,
    new_form_token,
    raw_values,
    read_inputs,
    refusal_row,
)
from dogcase.cases.acts import declarations
from dogcase.cases.custody import where_held
from dogcase.cases.files import stored_response
from dogcase.cases.guards import in_cities, is_read_only, require_writer, staff_required
from dogcase.cases.hearings import hearings_by_obligation, scheduled_hearings, was_held
from dogcase.cases.models import FACT_RECORDS, Case, Event, StoredFile, Task
from dogcase.cases.outcomes import event_outcome
from dogcase.cases.pages import (
    city_names,
    installed,
    not_installed,
    now_and_today,
    numbered_urls,
    sentence,
)
from dogcase.cases.roles import ROLES_BY_GROUP
from dogcase.documents import acts as document_acts
from dogcase.documents.views import drafts_context, timeline_documents
from dogcase.law import library
from dogcase.money.charging import owed_before
from dogcase.staff import money_panel, queries
from dogcase.staff.actwords import confirmation, prefill
from dogcase.staff.entered import StepInputs
from dogcase.staff.moved import move_panel
from dogcase.staff.present import (
    STATUS_WORDS,
    WHO_WORDS,
    citations_text,
    countdown,
    designation_label,
    event_words,
    explained_classification,
    humanize,
    layer_words,
)
from dogcase.staff.stepforms import choice_message, document_needs, fields_for, form_needs, missing_on_form


def case_of_user(user, number: str) -> Case:
    return in_cities(
        # what the pages show of the case (who opened it is not shown: not joined)
        Case.objects.select_related("dog", "dog__premises", "dog__premises__landlord", "incident"),
        user,
        number=number,
    )


def _roles_words(text: str) -> str:
    return ", ".join(
        ROLES_BY_GROUP[r].label if r in ROLES_BY_GROUP else humanize(r) for r in text.split(",") if r
    )


def value_words(value: Any) -> str:
    if isinstance(value, str):
        try:
            if "T" in value:
                return timezone.localtime(dt.datetime.fromisoformat(value)).strftime(
                    "%a %-d %b %Y, %-I:%M %p"
                )
            return dt.date.fromisoformat(value).strftime("%a %-d %b %Y")
        except ValueError:
            return value
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).strftime("%a %-d %b %Y, %-I:%M %p")
    if isinstance(value, dt.date):
        return value.strftime("%a %-d %b %Y")
    return str(value)


def timeline(
    events: list[Event], *, may_correct: bool, j=None, entered=None, documents=None
) -> list[dict[str, Any]]:
    """The case's events, oldest first; the dates a step recorded are named in the city's words (`j`); with
    `entered` (a StepInputs), everything the step's form was given; the documents each event issued
    (`documents`: event pk -> issued documents)."""
    corrected_by: dict[int, list[int]] = {}
    for e in events:
        if e.corrects_id:
            corrected_by.setdefault(e.corrects_id, []).append(e.seq)
    seqs = {e.pk: e.seq for e in events}  # the act a correction corrects is the case's own, among `events`
    corrections = Event.corrected_dates(events)
    fixes = Event.corrected_inputs(events)
    case = events[0].case if events else None
    correct_url = numbered_urls("staff:correct", case.number) if may_correct and case is not None else None
    value_url = (
        numbered_urls("staff:correct_value", case.number) if may_correct and case is not None else None
    )
    rows = []
    for e in events:
        recorded = e.data.get("events", {}) if e.kind == Event.Kind.STEP else {}
        rows.append(
            {
                # as text: the page says it three times an event (a number is localized each time it is said)
                "seq": str(e.seq),
                # what the act did, with its date ("The City Council confirmed the designation on 3 December
                # 2026."); None for an event that is not a legal act's step
                "outcome": (
                    event_outcome(e, j, case=case, corrections=corrections)["text"]
                    if e.kind == Event.Kind.STEP
                    else None
                ),
                "at": e.at,
                "actor": e.actor_name,
                "roles": _roles_words(e.actor_roles),
                "kind": e.kind,
                "kind_label": e.get_kind_display(),
                "act": e.act,
                "summary": e.summary,
                # each provision once (an act recorded before citations were deduplicated kept every repeat)
                "citation": "; ".join(dict.fromkeys(c for c in e.citation.split("; ") if c)),
                "layer": layer_words(e.layer),
                "corrects": (seqs.get(e.corrects_id) or e.corrects.seq) if e.corrects_id else None,
                "corrected_by": corrected_by.get(e.pk, []),
                "recorded": [
                    {"name": event_words(j, k), "value": value_words(v)} for k, v in recorded.items()
                ],
                "files": list((e.data.get("files") or {}).values()),
                "entered": _entered(entered, e, fixes),
                "correctable": may_correct and bool(recorded),
                # a value typed in the act's form (a telephone left out) may be corrected too
                "value_correctable": may_correct
                and e.kind == Event.Kind.STEP
                and j is not None
                and bool(acts.correctable_inputs(_step_of(j, e))),
                "reason": e.data.get("reason") if e.kind == Event.Kind.CORRECTION else None,
                # the forms that correct the act (reversed once for the page: `numbered_urls`)
                "correct_url": correct_url(e.seq) if correct_url is not None else "",
                "value_url": value_url(e.seq) if value_url is not None else "",
                "documents": documents.get(e.pk, []) if documents else [],
                "from_records": _from_records(e),
            }
        )
    return rows


def _from_records(e: Event) -> dict | None:
    """For a step taken before dogcase and brought in (dogcase/imports/cases.py): where it was read from and who
    attested what its notice contained (the page shows the file's name as given, in its own span)."""
    recorded = e.data.get("recorded") if e.kind == Event.Kind.STEP else None
    if not recorded:
        return None
    source = recorded.get("import") or {}
    return {
        "source": source.get("source") or "",
        "file": source.get("file") or "",
        "row": source.get("row") or "",
        "attested_by": recorded.get("attested_by") or "",
    }


def _step_of(j, e: Event):
    """The step an act took, as its law stood that day (None for a step no longer known)."""
    day = timezone.localtime(e.at).date()
    return next((s for s in j.procedure(day) if s.id == e.act), None)


def _entered(entered, e: Event, fixes: dict[int, dict]) -> list[dict[str, str]]:
    """What the act's form was given, as corrected since (`fixes`: Event.corrected_inputs)."""
    if entered is None or e.kind != Event.Kind.STEP:
        return []
    return entered.rows(e.act, e.at, e.data.get("designation") or None, e.inputs_as_corrected(fixes))


# an obligation no longer open: met, no longer applying, or the owner's right whose time ended unused (a right
# lapses, it is never overdue)
ENDED = ("met", "withdrawn", "lapsed")


def obligation_rows(case: Case, *, today, now, j=None, scheduled=None) -> tuple[list[dict], list[dict]]:
    """(open, closed) obligations of the case, each with its countdown, citations, consequences and the
    events its time is counted from, in the city's words for them (`j`); `scheduled`: the case's scheduled
    hearings (`scheduled_hearings`), when the caller has them already."""
    open_rows, closed_rows = [], []
    # an obligation met by holding a scheduled hearing says when and where it is
    appointments = {}
    if j is not None:
        if scheduled is None:
            scheduled = scheduled_hearings(case, j)
        appointments = hearings_by_obligation(j, scheduled, today)
    for ob in case.obligations.exclude(kind="act"):  # an act waiting (cases/acts/waiting.py): a step below
        due = ob.due_at or ob.due_date
        hearing = appointments.get(ob.deadline_id) if ob.status not in ENDED else None
        row = {
            "deadline_id": ob.deadline_id,
            "who": WHO_WORDS.get(ob.who, ob.who),
            "what": f"{ob.what} on {hearing.when_words}" if hearing is not None else ob.what,
            "hearing": hearing,
            "due": due,
            "is_instant": ob.due_at is not None,
            "kind": ob.kind,
            "status": ob.status,
            "status_words": STATUS_WORDS.get(ob.status, humanize(ob.status)),
            "late": ob.late,
            "met_by": ob.met_by,
            "countdown": countdown(due, today=today, now=now, kind=ob.kind),
            "citations": ob.citations,
            "citation": citations_text(ob.citations),
            # the engine's names for this obligation, behind the city attorney's fold
            "attorney": [
                ("Deadline", ob.deadline_id or ""),
                ("Provisions", ", ".join(c.get("provision", "") for c in ob.citations)),
            ],
            "consequences": [
                {
                    "what": c.get("what", ""),
                    "citation": (c.get("provision") or {}).get("citation", ""),
                    "act": c.get("act", ""),
                }
                for c in ob.consequences
            ],
            "notes": ob.detail.get("notes", []),
            "rule": ob.detail.get("rule", ""),
            "reason": ob.detail.get("reason", ""),
            "counted_from": [
                j.event_label(e) if j is not None else humanize(e).lower() for e in ob.detail.get("from", ())
            ],
        }
        if ob.status in ENDED:
            closed_rows.append(row)
        else:
            open_rows.append(row)
    open_rows.sort(key=lambda r: (r["due"] is None, _sort_key(r["due"])))
    return open_rows, closed_rows


def _sort_key(due) -> dt.datetime:
    if due is None:
        return dt.datetime.max.replace(tzinfo=dt.UTC)
    if isinstance(due, dt.datetime):
        return due
    return dt.datetime.combine(due, dt.time(23, 59), tzinfo=timezone.get_current_timezone())


def _cites(provisions) -> list[dict[str, Any]]:
    return [dict(p) for p in provisions or ()]


SLUG = re.compile(r"[-a-zA-Z0-9_]+")


def act_urls(case: Case):
    """The url of the act form of each of the case's steps: reversed once for the case, then each step's id put
    in its place (a page lists dozens of steps); an id the url's pattern would not take is reversed as it is
    (and refused there)."""
    marker = "step-id"
    base = reverse("staff:act", args=[case.number, marker])

    def url(step_id: str) -> str:
        if base.endswith(marker) and SLUG.fullmatch(step_id):
            return base[: -len(marker)] + step_id
        return reverse("staff:act", args=[case.number, step_id])

    return url


def step_row(verdict, case: Case, act_url=None) -> dict[str, Any]:
    step = verdict.step
    return {
        "id": step.id,
        "label": step.label,
        "phase": humanize(step.phase or ""),
        "layer": step.layer,
        "layer_words": layer_words(step.layer),
        "allowed": verdict.allowed,
        "refusals": [
            refusal_row(r.reason, (r.provision or {}).get("citation", ""), r.code) for r in verdict.refusals
        ],
        "provisions": _cites(step.provisions),
        "citation": citations_text(step.provisions),
        "reading": getattr(step, "roles_reading", None),
        "impartial": getattr(step, "impartial", False),
        "final": getattr(step, "final", False),
        # what the law says to keep in mind when taking the step, and the engine's notes on this case
        "notes": [
            {"text": n["text"], "citation": (n.get("provision") or {}).get("citation", "")}
            for n in step.notes
        ]
        + [{"text": text, "citation": ""} for text in verdict.notes],
        "url": (act_url or act_urls(case))(step.id),
        "recipients": recipients(step, case.designation),
    }


def recipients(step, designation: str | None) -> list[dict[str, str]]:
    """To whom each notice the step serves goes, for the case's designation, as the law's recipient rule says
    (`Step.recipients`), with its citation; a rule said twice (by two notices) is shown once."""
    out: list[dict[str, str]] = []
    for r in getattr(step, "recipients", ()):
        if r.get("for") and designation not in r["for"]:
            continue
        row = {
            "words": sentence(r["words"].rstrip(".")),
            "citation": (r.get("provision") or {}).get("citation", ""),
        }
        if row not in out:
            out.append(row)
    return out


def _classification(events: list[Event]) -> dict | None:
    for e in events:
        if e.act == "open_case" and e.kind == Event.Kind.RECORD:
            explained = explained_classification(e.data.get("classification"))
            return explained and {**explained, "record_facts": e.data.get("record_facts", [])}
    return None


def next_due(open_rows: list[dict]) -> dict | None:
    """What is due next, for the case page's first screen: the soonest open obligation with a date by which it is
    due (the rows come soonest first), before a time that only opens an act (not before) or one not yet worked
    out; else the first open row."""
    dated = [r for r in open_rows if r["kind"] == "due" and r["status"] != "undetermined" and r["due"]]
    return (dated or open_rows or [None])[0]


@staff_required
def case_detail(request, number: str):
    user = request.user
    case = case_of_user(user, number)
    j = installed(case.jurisdiction)
    now, today = now_and_today()
    # the case's events, oldest first (the act a correction corrects is found among them: no join)
    events = list(case.events.order_by("seq"))
    # the events the law reads: the steps, their corrections and the facts of the records (coverage_ends)
    state = acts.case_state(
        case,
        [
            e
            for e in events
            if e.kind in (Event.Kind.STEP, Event.Kind.CORRECTION)
            or (e.kind == Event.Kind.RECORD and e.act in FACT_RECORDS)
        ],
    )
    read_only = is_read_only(user)
    # the case's documents, read once: by the event that issued each (the timeline), the steps that issued
    # them, and how many are in force (not replaced by a corrected version)
    documents = timeline_documents(case)
    issued = [d for docs in documents.values() for d in docs]
    # each document's links on the timeline (reversed once for the page)
    download, correct = numbered_urls("documents:download"), numbered_urls("documents:correct")
    for d in issued:
        d.download_url, d.correct_url = download(d.pk), correct(d.pk)
    steps = []
    if j is not None:
        verdicts = j.available_steps(state, law_actor(user, case.jurisdiction), now)
        if case.status != Case.Status.OPEN:
            # a closed case: only the steps that concern the owner (the 347.542 ban that follows a conviction)
            verdicts = [v for v in verdicts if v.step.concerns == "person"]
        # a further service or receipt of a notice dogcase issued is recorded on the document (its service
        # panel), which takes the step: one record of each attempt
        served = {d.step for d in issued}
        act_url = act_urls(case)
        steps = [
            step_row(v, case, act_url)
            for v in verdicts
            if not (v.step.service_of and v.step.service_of in served)
        ]
    # the hearings scheduled, read once from the events the page has (the obligations and the first screen)
    users: dict[str, Any] = {}  # the members of staff the acts name, read once for the page
    scheduled = scheduled_hearings(case, j, events, users, state=state) if j is not None else {}
    open_obligations, closed_obligations = obligation_rows(
        case, today=today, now=now, j=j, scheduled=scheduled
    )
    owners = [o.person for o in case.dog.ownerships.select_related("person").order_by("since", "id")]
    entered = StepInputs(j, state, users) if j is not None else None
    tasks = list(case.tasks.filter(done_at__isnull=True).order_by("created_at", "id"))
    context = {
        "case": case,
        "city": city_names([case.jurisdiction])[case.jurisdiction],
        "designation": designation_label(j, case.designation),
        "owners": owners,
        "timeline": timeline(
            events,
            may_correct=not read_only,
            j=j,
            entered=entered,
            documents=documents,
        ),
        # a hearing still to come; one held is in the timeline, with what was decided
        "hearings": sorted(
            (h for name, h in scheduled.items() if not was_held(j, name, h, state.events)),
            key=lambda h: h.at,
        ),
        "open_obligations": open_obligations,
        "closed_obligations": closed_obligations,
        "next_due": next_due(open_obligations),
        "document_count": sum(1 for d in issued if not d.superseded),
        "message_count": case.messages.count(),
        "allowed_steps": [s for s in steps if s["allowed"]],
        "refused_steps": [s for s in steps if not s["allowed"]],
        "classification": _classification(events),
        "tasks": tasks,
        "read_only": read_only,
        "today": today,
        "custody": custody(state.events),
        "not_installed": None if j else not_installed(case.jurisdiction),
        # the case's events and the law's state of the case, for the panels the template includes (the
        # declaration's departure, service, proofs)
        "case_events": events,
        "case_documents": issued,
        "law_state": state,
        "move": move_panel(case, user, events),
    }
    # a heavy fold is fetched when opened (static/dogcase/folds.js); ?full=1 shows the whole page without script
    part = CASE_PARTS.get(request.GET.get("part", ""))
    if part is not None:
        if part == CASE_PARTS["notes"]:
            deadline = request.GET.get("deadline", "")
            context["o"] = next((o for o in open_obligations if o["deadline_id"] == deadline), None)
            if context["o"] is None:
                raise Http404("No such obligation open on this case.")
        return render(request, part, context)
    context["full"] = "full" in request.GET
    context["money"] = money_panel.panel(case, user, j=j, now=now, events=events, documents=issued)
    held = where_held(case, j, events=events) if j is not None else None
    context["custody_record"] = held
    context["custody_days"] = held.days(today) if held else 0
    return render(request, "staff/case_detail.html", context)


# The case page's folds whose content is fetched only when opened (the page a phone can hold: issue 20, item 6).
CASE_PARTS = {
    "refused": "staff/_partials/case_refused.html",
    "classification": "staff/_partials/case_classification.html",
    "notes": "staff/_partials/case_notes.html",
    "closed": "staff/_partials/case_closed.html",
    "access": "staff/_partials/case_access.html",
    # the messages sent about the case (each reminder, notice and receipt): a long list on a case of years
    "messages": "staff/includes/case_messages.html",
}


# Events that take a dog into the city's custody, and those that end it.
_TAKEN = {"seizure": "seized", "impoundment": "impounded"}
_ENDED = ("release", "disposal", "destruction", "transfer", "death")


def custody(events) -> dict[str, Any] | None:
    """Whether the dog is held now (seized or impounded, and not since released, disposed of, destroyed,
    transferred or dead), and since when — read from the case's recorded events."""
    taken = [(events[e], how) for e, how in _TAKEN.items() if e in events]
    if not taken:
        return None
    since, word = max(taken, key=lambda t: _day(t[0]))
    if any(e in events and _day(events[e]) >= _day(since) for e in _ENDED):
        return None
    return {"since": _day(since), "how": word}


def _day(value) -> dt.date:
    return timezone.localtime(value).date() if isinstance(value, dt.datetime) else value


# ------------------------------------------------------------------------------------------- act forms


def _find_step(j, step_id: str, on: dt.date):
    for step in j.procedure(on):
        if step.id == step_id:
            return step
    raise Http404("No such step in this city's procedure.")


def _field_of(exc_field: str, step) -> str:
    """The form field an error names: take_step names the input id, maybe with a prefix."""
    name = exc_field.rsplit(".", 1)[-1].removeprefix("in-")
    return name if any(inp.id == name for inp in step.inputs) else ""


def _input_message(j, step, field: str, rule: str, *, case: Case, at: dt.datetime) -> str:
    """The engine's rule about an input, for the form: a value that is not one of the law's choices is
    answered with the choices in words (the engine's rule names their ids)."""
    if rule.startswith("'"):
        shown = next(
            (f for f in fields_for(j, step, state=acts.case_state(case), at=at) if f["id"] == field), None
        )
        message = choice_message(shown)
        if message:
            return message
    return sentence(rule)


@staff_required
def act_form(request, number: str, step_id: str):
    user = request.user
    case = case_of_user(user, number)
    require_writer(user)
    j = library().get(case.jurisdiction)
    now, today = now_and_today()
    # the form this case runs: on a dog not declared, the state's 347.56 step where the city's names designations
    step = _find_step(j, step_id, today).for_designation(case.designation or None)
    context: dict[str, Any] = {"case": case, "step": step, "errors": {}, "general_errors": [], "refusals": []}
    values: dict[str, Any] = {}
    version = case.version
    token = new_form_token()
    status = 200
    if request.method == "GET" and (key := clean_token(request.GET.get("key"))):
        # the form's own address (formkey.js): Back to a form already sent shows the act it recorded
        done = Event.objects.filter(idempotency_key=key).only("actor_id", "case_id").first()
        if done is None:
            token = key
        elif done.actor_id == user.pk and done.case_id == case.pk:
            messages.info(request, f"“{step.label}” was already recorded from this form; it was saved once.")
            return redirect(reverse("staff:case", args=[case.number]) + "#timeline")
    # "Preview" (without JavaScript) re-shows the form and the documents' drafts with what was typed
    previewing = request.method == "POST" and "preview" in request.POST
    if previewing:
        values = raw_values(step, request.POST)
        version = int(request.POST.get("version") or version)
        token = clean_token(request.POST.get("idempotency_key")) or token
    elif request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            return HttpResponseBadRequest("The form is missing its case version; reload the page.")
        token = clean_token(request.POST.get("idempotency_key")) or token
        values = raw_values(step, request.POST)
        uploads = {
            inp.id: request.FILES[f"in-{inp.id}"]
            for inp in step.inputs
            if inp.kind == "file" and f"in-{inp.id}" in request.FILES
        }
        needs = form_needs(document_needs(j, step, acts.case_state(case), now))
        try:
            inputs = read_inputs(step, request.POST, request.FILES, tz=j.tz, needs=needs)
            # the step and the documents it issues, in one transaction (a step without documents: take_step)
            result = document_acts.take_step(
                case,
                step_id,
                actor=user,
                inputs=inputs,
                uploads=uploads,
                expected_version=version,
                idempotency_key=token,
                # a declaration the recorded facts do not support needs its reason (cases/acts/declarations)
                departure_reason=request.POST.get(declarations.FIELD, ""),
            )
        except FormProblem as problem:
            context["errors"][problem.field] = problem.message
            # every other required field left empty, so that the summary lists them all at once
            for inp in step.inputs:
                if (
                    (inp.required or (inp.id in needs and needs[inp.id][0] is None))
                    and inp.kind not in LIST_KINDS
                    and inp.id not in context["errors"]
                    and not _given(inp, request)
                ):
                    context["errors"][inp.id] = (
                        needs[inp.id][1] if inp.id in needs else _missing_message(inp.kind)
                    )
            status = 400
        except document_acts.MissingElements as exc:
            # what this form could have given goes beside its field; the rest (the case's records) above
            context["errors"].update(missing_on_form(step, exc.missing))
            context["document_missing"] = [m for m in exc.missing if not missing_on_form(step, [m])]
            status = 400
        except acts.InvalidInput as exc:
            field = _field_of(exc.field, step)
            if exc.field == declarations.FIELD:  # beside the reason (_partials/declaration_warning.html)
                context["departure_error"] = sentence(exc.rule)
            elif field:
                context["errors"][field] = _input_message(j, step, field, exc.rule, case=case, at=now)
            else:
                context["general_errors"].append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
            status = 400
        except acts.Refused as exc:
            context["refusals"] = [
                refusal_row(r["reason"], r.get("citation", ""), r.get("code", "")) for r in exc.refusals
            ]
            status = 409
        except acts.StaleCase as exc:
            case = case_of_user(user, number)
            version = exc.case.version
            context["case"] = case
            context["stale"] = {
                "message": "Someone else acted on this case while you had the form open. Nothing you entered "
                "was saved. Here is the case as it is now; check it, then submit again if the step still "
                "applies.",
                "recent": timeline(queries.case_events(case), may_correct=False, j=j)[-5:],
            }
            status = 409
        else:
            if result.replayed:
                messages.info(
                    request, f"“{step.label}” was already recorded from this form; it was saved once."
                )
            else:
                words = designation_label(j, inputs.get("designation")) if inputs.get("designation") else ""
                messages.success(request, confirmation(j, step, case, inputs, designation_words=words))
            return redirect(reverse("staff:case", args=[case.number]) + "#timeline")
    else:
        values, today_ids = prefill(step, case, today=today)
        context["today_ids"] = today_ids
    state = acts.case_state(case)
    verdict = j.check_step(step_id, state, law_actor(user, case.jurisdiction), now)
    # Without inputs the engine leaves out the conditions that depend on the form (proofs, grounds): any
    # refusal here holds whatever the form says, so the form is not offered.
    blocking = verdict.refusals
    context.update(
        {
            "case": case,
            "step_row": step_row(verdict, case),
            "blocked": bool(blocking) and not context["refusals"],
            "fields": _with_anchors(
                fields_for(j, step, state=state, at=now, values=values, errors=context["errors"], case=case),
                context.get("today_ids", set()),
            ),
            "has_file": any(inp.kind == "file" for inp in step.inputs),
            # the fees the step waits for, still owed (the release of a seized dog: "by paying impounding and
            # boarding fees"): said before the form is filled in
            "owed_before": owed_before(case, step.id, now),
            "version": version,
            "token": token,
            "city": city_names([case.jurisdiction])[case.jurisdiction],
            "designation": designation_label(j, case.designation),
            # the drafts filled with what the form shows: what was typed, or on a new form what it starts with
            # (today's date of the notice gives the owner's last day to ask for a hearing at once)
            **drafts_context(
                case,
                j,
                step,
                request.POST if request.method == "POST" else _as_form_data(values),
                at=now,
                actor=user,
            ),
        }
    )
    return render(request, "staff/act_form.html", context, status=status)


TYPED_KINDS = frozenset({"date", "datetime", "text", "file"})


def _as_form_data(values: dict[str, Any]) -> QueryDict:
    """The values a new form starts with, as the form would send them."""
    data = QueryDict(mutable=True)
    for key, value in values.items():
        if isinstance(value, list | tuple):
            data.setlist(f"in-{key}", [str(v) for v in value])
        else:
            data[f"in-{key}"] = str(value)
    return data


def _with_anchors(fields: list[dict], today_ids: set[str]) -> list[dict]:
    """Each field's anchor for the error summary (the input itself, or the group of choices), and whether its
    date was set to today."""
    for f in fields:
        f["anchor"] = f["name"] if f["kind"] in TYPED_KINDS or not f["choices"] else f"{f['name']}-group"
        f["is_today"] = f["id"] in today_ids
    return fields


def _given(inp, request) -> bool:
    name = f"in-{inp.id}"
    if inp.kind == "file":
        return name in request.FILES
    return any((v or "").strip() for v in request.POST.getlist(name))


def _missing_message(kind: str) -> str:
    from dogcase.cases.act_forms import missing_message

    return missing_message(kind)


# ------------------------------------------------------------------------------------------ files, tasks


@staff_required
def download(request, pk: int):
    stored = in_cities(StoredFile.objects.all(), request.user, pk=pk)
    return stored_response(stored.path, content_type=stored.content_type, filename=stored.original_name)


@staff_required
@require_POST
def task_done(request, pk: int):
    require_writer(request.user)
    task = in_cities(Task.objects.select_related("case"), request.user, pk=pk)
    try:
        acts.complete_task(task, actor=request.user)
    except acts.Refused as exc:
        raise PermissionDenied("; ".join(r["reason"] for r in exc.refusals)) from None
    messages.success(request, f"Task marked done: {task.text}")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        target = reverse("staff:case", args=[task.case.number])
    return redirect(target)

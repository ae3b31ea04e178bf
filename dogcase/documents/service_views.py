"""The service pages: record an attempt to serve an issued document, record what came back for a mail piece
(the return receipt, or the envelope), and the daily mailing sheet. Thin: parse, check access, call the act."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse

from dogcase.cases import acts as case_acts
from dogcase.cases.access import cities_of
from dogcase.cases.act_forms import ActAttempt, attempt_act, clean_token, new_form_token
from dogcase.cases.guards import in_cities, may_record, require_writer, staff_required
from dogcase.cases.pages import city_names, now_and_today, sentence
from dogcase.documents import serving
from dogcase.documents.models import IssuedDocument
from dogcase.documents.service_models import ServiceAttempt
from dogcase.law import library

# the mailing sheet shows at most this many pieces a page (a city's day rarely has more; "next" pages on)
SHEET_PAGE = 200
FIELDS = (
    "method",
    "sent_on",
    "outcome",
    "article_number",
    "addressee",
    "served_by_name",
    "received_on",
    "notes",
)


def _document(user, pk: int) -> IssuedDocument:
    return in_cities(IssuedDocument.objects.select_related("case", "case__dog"), user, pk=pk)


def _writer(user) -> None:
    require_writer(user)
    if not may_record(user):
        raise PermissionDenied("Your role does not record the service of documents.")


def _date(value: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat((value or "").strip())
    except ValueError:
        return None


def _uploads(request) -> list:
    return [f for f in request.FILES.getlist("proof") if f is not None]


def panel(
    document: IssuedDocument, today: dt.date, *, attempts=None, state=None, rules=None, attempt_url=None
) -> dict[str, Any]:
    """The service panel of one document: its attempts in words, what each started, and what to do next.
    `attempts` (in their order) and the case's `state`, when the caller read them already (the case page);
    `rules`: the rules of service the page worked out already, by step, method and day (a dict it keeps);
    `attempt_url`: the url of the form of an attempt for a document's pk (`numbered_urls`)."""

    def rule(method: str, day: dt.date):
        if rules is None:
            return serving.rule_for(document, method, day, state)
        key = (document.jurisdiction, document.step, method, day)
        if key not in rules:
            rules[key] = serving.rule_for(document, method, day, state)
        return rules[key]

    j = library().get(document.jurisdiction)
    if attempts is None:
        attempts = list(
            document.service_attempts.select_related("step_event", "receipt_event").order_by("number")
        )
    if state is None and document.step:
        state = case_acts.case_state(document.case)
    rows = []
    for a in attempts:
        said = rule(a.method, a.sent_on)
        if a.number == 1 and a.step_event_id:
            started = "Recorded when the document was issued, with the step that issued it."
        elif a.step_event_id or a.receipt_event_id:
            started = "The dates the law counts from were recorded (see the case's timeline)."
        elif a.outcome in serving.SERVED:
            started = serving.nothing_started(j, said)
        else:
            started = "Not served by this attempt: no time starts."
        rows.append(
            {
                "attempt": a,
                "method": serving.method_words(j, a.method),
                "outcome": ServiceAttempt.Outcome(a.outcome).label,
                "started": started,
                "awaiting_return": a.outcome == ServiceAttempt.Outcome.SENT
                and serving.method_kind(a.method) == "mail",
                "needs_article": a.method in serving.MAIL_WITH_ARTICLE and not a.article_number,
            }
        )
    probe = rule("personal", today)
    return {
        "document": document,
        "rows": rows,
        "next_action": serving.next_action(document, attempts, today, state, probe=probe),
        "named": serving.named_words(j, probe) if probe and probe.named_methods else "",
        "citation": probe.notice_citations if probe else "",
        "case_version": document.case.version,
        "attempt_url": attempt_url(document.pk)
        if attempt_url is not None
        else reverse("documents:service_attempt", args=[document.pk]),
    }


@staff_required
def record_attempt(request, pk: int):
    user = request.user
    document = _document(user, pk)
    case = document.case
    _writer(user)
    j = library().get(document.jurisdiction)
    _now, today = now_and_today()
    errors: dict[str, str] = {}
    refusals: list[dict[str, str]] = []
    values = {k: "" for k in FIELDS}
    values["sent_on"] = today.isoformat()
    token = new_form_token()
    version = case.version
    status = 200
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            return HttpResponseBadRequest("The form is missing its case version; reload the page.")
        token = clean_token(request.POST.get("idempotency_key")) or token
        values = {k: (request.POST.get(k) or "").strip() for k in FIELDS}
        status = 400
        sent_on = _date(values["sent_on"])
        received_on = _date(values["received_on"]) if values["received_on"] else None
        if sent_on is None:
            errors["sent_on"] = "Give the date (YYYY-MM-DD)."
        if values["received_on"] and received_on is None:
            errors["received_on"] = "Give the date (YYYY-MM-DD)."
        if not errors:
            tried = attempt_act(
                lambda: serving.record_service_attempt(
                    document,
                    actor=user,
                    method=values["method"],
                    sent_on=sent_on,
                    outcome=values["outcome"],
                    article_number=values["article_number"],
                    addressee=values["addressee"],
                    served_by_name=values["served_by_name"],
                    received_on=received_on,
                    notes=values["notes"],
                    proofs=_uploads(request),
                    expected_version=version,
                    idempotency_key=token,
                ),
                fields=(*FIELDS, "proof"),
                fallback="method",
            )
            if tried.done:
                done = tried.result
                messages.success(request, f"Attempt {done.attempt.number} recorded. {done.message}".strip())
                return redirect(reverse("staff:case", args=[case.number]) + f"#service-{document.pk}")
            errors.update(tried.errors)
            refusals = tried.refusals
            status, version = _after_refusal(tried, errors, "method", status, version)
    context = {
        "document": document,
        "case": case,
        "methods": serving.methods_for(j),
        "outcomes": [
            {"method": m, "choices": [(o.value, o.label) for o in serving.outcomes_for(m)]}
            for m, _ in serving.methods_for(j)
        ],
        "all_outcomes": [
            (o.value, o.label)
            for o in dict.fromkeys(o for m, _ in serving.methods_for(j) for o in serving.outcomes_for(m))
        ],
        "panel": panel(document, today),
        "case_version": case.version,
        "values": values,
        "errors": errors,
        "refusals": refusals,
        "version": version,
        "token": token,
    }
    return render(request, "documents/service_form.html", context, status=status)


def _after_refusal(tried: ActAttempt, errors: dict[str, str], field: str, status: int, version: int):
    """The form's status and case version after an act refused it; a stale case is told beside `field`."""
    if tried.stale is not None:
        errors[field] = str(tried.stale)
        return tried.status, tried.stale.case.version
    return tried.status, version


@staff_required
def record_return(request, pk: int, number: int):
    user = request.user
    document = _document(user, pk)
    case = document.case
    _writer(user)
    try:
        attempt = document.service_attempts.get(number=number)
    except ServiceAttempt.DoesNotExist:
        raise Http404("No such attempt.") from None
    errors: dict[str, str] = {}
    refusals: list[dict[str, str]] = []
    values = {"outcome": "delivered", "received_on": "", "notes": ""}
    token = new_form_token()
    version = case.version
    status = 200
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            return HttpResponseBadRequest("The form is missing its case version; reload the page.")
        token = clean_token(request.POST.get("idempotency_key")) or token
        values = {k: (request.POST.get(k) or "").strip() for k in values}
        status = 400
        received_on = _date(values["received_on"]) if values["received_on"] else None
        if values["received_on"] and received_on is None:
            errors["received_on"] = "Give the date (YYYY-MM-DD)."
        if not errors:
            tried = attempt_act(
                lambda: serving.record_mail_return(
                    attempt,
                    actor=user,
                    outcome=values["outcome"],
                    received_on=received_on,
                    notes=values["notes"],
                    proofs=_uploads(request),
                    expected_version=version,
                    idempotency_key=token,
                ),
                fields=("outcome", "received_on", "notes", "proof"),
                fallback="outcome",
            )
            if tried.done:
                messages.success(
                    request, f"Recorded for attempt {attempt.number}. {tried.result.message}".strip()
                )
                return redirect(reverse("staff:case", args=[case.number]) + f"#service-{document.pk}")
            errors.update(tried.errors)
            refusals = tried.refusals
            status, version = _after_refusal(tried, errors, "outcome", status, version)
    context = {
        "document": document,
        "case": case,
        "attempt": attempt,
        "method": serving.method_words(library().get(document.jurisdiction), attempt.method),
        "returns": [(o.value, o.label) for o in serving.RETURNS],
        "values": values,
        "errors": errors,
        "refusals": refusals,
        "version": version,
        "token": token,
    }
    return render(request, "documents/mail_return_form.html", context, status=status)


@staff_required
def record_article(request, pk: int, number: int):
    """POST only: the article number of a mail piece recorded without one."""
    user = request.user
    document = _document(user, pk)
    _writer(user)
    if request.method != "POST":
        return redirect(reverse("staff:case", args=[document.case.number]) + f"#service-{document.pk}")
    try:
        attempt = document.service_attempts.get(number=number)
        version = int(request.POST.get("version", ""))
    except (ServiceAttempt.DoesNotExist, ValueError):
        raise Http404("No such attempt.") from None
    try:
        serving.record_article_number(
            attempt,
            actor=user,
            article_number=request.POST.get("article_number", ""),
            expected_version=version,
        )
    except (case_acts.InvalidInput, case_acts.StaleCase) as exc:
        messages.error(request, sentence(f"Article number: {getattr(exc, 'rule', exc)}"))
    else:
        messages.success(request, f"Article number recorded for attempt {attempt.number}.")
    return redirect(reverse("staff:case", args=[document.case.number]) + f"#service-{document.pk}")


@staff_required
def mailing_sheet(request):
    """One city's certified and registered mail of one day, with article numbers: printable."""
    user = request.user
    cities = cities_of(user)
    _now, today = now_and_today()
    city = request.GET.get("city") or (cities[0] if len(cities) == 1 else "")
    day = _date(request.GET.get("day", "")) or today
    if city and city not in cities:
        raise Http404("No such city among yours.")
    try:
        after = int(request.GET.get("after", "0") or 0)
    except ValueError:
        after = 0
    pieces: list[ServiceAttempt] = []
    more = False
    if city:
        query = (
            ServiceAttempt.objects.filter(
                jurisdiction=city, sent_on=day, method__in=serving.MAIL_WITH_ARTICLE, id__gt=after
            )
            .select_related("document", "document__case")
            .order_by("id")
        )
        pieces = list(query[: SHEET_PAGE + 1])
        more = len(pieces) > SHEET_PAGE
        pieces = pieces[:SHEET_PAGE]
    j = library().jurisdictions.get(city) if city else None
    rows = [
        {
            "piece": p,
            "method": serving.method_words(j, p.method) if j else p.method,
            "addressee": p.addressee or p.document.recipient,
        }
        for p in pieces
    ]
    context = {
        "cities": city_names(cities),
        "city": city,
        "city_name": j.name if j else "",
        "day": day,
        "rows": rows,
        "next_after": pieces[-1].pk if more else None,
        "first": after == 0,
    }
    return render(request, "documents/mailing_sheet.html", context)

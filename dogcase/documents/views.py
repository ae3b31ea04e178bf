"""The documents' pages: the draft on the act form (htmx partial), the download of an issued PDF (staff of the
case's city only; 404 otherwise), the correction form, and the public verification page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dogcase.accounts import throttle
from dogcase.accounts.models import LoginThrottle
from dogcase.cases import acts as case_acts
from dogcase.cases.files import stored_response
from dogcase.cases.guards import in_cities, require_writer, staff_required
from dogcase.cases.models import Case
from dogcase.cases.pages import now_and_today, sentence
from dogcase.documents import acts, fill
from dogcase.documents.models import IssuedDocument
from dogcase.law import InputError, library

# ------------------------------------------------------------------------------------------ the draft


def preview_inputs(j, step, state, post, *, at: dt.datetime, tz) -> dict[str, Any]:
    """What was typed so far, cleaned input by input: a value that does not parse yet is left out (the draft
    shows its element as missing), never an error."""
    from dogcase.cases.act_forms import FormProblem, read_inputs

    out: dict[str, Any] = {}
    for inp in step.inputs:
        if inp.kind in ("file", "document"):
            continue
        try:
            raw = read_inputs(_only(step, inp), post, {}, tz=tz)
        except FormProblem:
            continue
        if inp.id not in raw:
            continue
        try:
            out.update(acts.validate_partly(j, step, state, {inp.id: raw[inp.id]}, at))
        except InputError:
            continue
    return out


class _OneInput:
    def __init__(self, step, inp) -> None:
        self.id = step.id
        self.inputs = (inp,)


def _only(step, inp):
    return _OneInput(step, inp)


def drafts_context(case: Case, j, step, post, *, at: dt.datetime, actor) -> dict[str, Any]:
    """The drafts of the documents the step issues, filled with the case and the values typed so far."""
    state = case_acts.case_state(case)
    try:
        inputs = preview_inputs(j, step, state, post, at=at, tz=j.tz) if post is not None else {}
    except InputError:
        inputs = {}
    drafts = fill.draft_documents(case, j, step, state=state, inputs=inputs, at=at, actor=actor)
    return {
        "drafts": drafts,
        "draft_missing": [m for d in drafts for m in d.missing],
        "draft_url": reverse("documents:draft", args=[case.number, step.id]),
    }


@staff_required
def draft(request, number: str, step_id: str):
    """The htmx partial: the drafts, re-filled with the form's values as typed."""
    user = request.user
    case = in_cities(Case.objects.select_related("dog", "dog__premises", "incident"), user, number=number)
    require_writer(user)
    j = library().get(case.jurisdiction)
    now, today = now_and_today()
    try:
        step = j.case_step(step_id, case_acts.case_state(case), now)
    except InputError:
        raise Http404("No such step in this city's procedure.") from None
    post = request.POST if request.method == "POST" else None
    context = drafts_context(case, j, step, post, at=now, actor=user)
    return render(request, "documents/_drafts.html", context)


def timeline_documents(case: Case) -> dict[int, list[IssuedDocument]]:
    """The case's issued documents by the event that issued them (shown on that event in the timeline)."""
    out: dict[int, list[IssuedDocument]] = {}
    docs = list(IssuedDocument.objects.filter(case=case).order_by("issued_at", "id"))
    replaced = {d.replaces_id for d in docs if d.replaces_id}
    for doc in docs:
        doc.superseded = doc.pk in replaced
        out.setdefault(doc.event_id, []).append(doc)
    return out


# ------------------------------------------------------------------------------------------ download


@staff_required
def download(request, pk: int):
    """The issued PDF, for staff of the case's city (404 for anyone else: the number does not reveal it)."""
    return pdf_response(in_cities(IssuedDocument.objects.all(), request.user, pk=pk))


def pdf_response(doc: IssuedDocument) -> FileResponse:
    """An issued document's PDF as a download nothing may cache or run (staff's and the owner's portal's)."""
    return stored_response(
        doc.blob,
        content_type="application/pdf",
        filename=doc.filename,
        missing="The stored document is missing.",
    )


# ------------------------------------------------------------------------------------------ corrections


@staff_required
def correct(request, pk: int):
    user = request.user
    doc = in_cities(IssuedDocument.objects.select_related("case"), user, pk=pk)
    require_writer(user)
    errors: dict[str, str] = {}
    missing: list = []
    refusals: list = []
    reason = ""
    status = 200
    if request.method == "POST":
        reason = (request.POST.get("reason") or "").strip()
        try:
            new = acts.correct_document(doc, actor=user, reason=reason)
        except acts.MissingElements as exc:
            missing = exc.missing
            status = 400
        except case_acts.InvalidInput as exc:
            errors[exc.field if exc.field == "reason" else "general"] = sentence(exc.rule)
            status = 400
        except case_acts.Refused as exc:
            refusals = exc.refusals
            status = 409
        else:
            messages.success(request, f"Issued version {new.version} of document No. {new.number}.")
            return redirect(reverse("staff:case", args=[doc.case.number]) + f"#e-{new.event.seq}")
    context = {
        "doc": doc,
        "case": doc.case,
        "reason": reason,
        "errors": errors,
        "missing": missing,
        "refusals": refusals,
        "latest": not IssuedDocument.objects.filter(replaces=doc).exists(),
    }
    return render(request, "documents/correct.html", context, status=status)


# ------------------------------------------------------------------------------------------ verification

# Unknown codes one client may try in the lockout window before the page refuses it for a while: a reader
# types a code or two; enumerating 32^10 codes is refused long before it could find one.
VERIFY_MISSES = 20


@never_cache
@require_GET
def verify(request, code: str):
    """Public: what a code names — title, number, version, date, city, SHA-256, superseded or not; no names,
    no addresses. A client that tries many codes that do not exist is refused for a while."""
    key = f"verify:{throttle.client_address(request)}"
    now = timezone.now()
    if _locked(key, now):
        return render(request, "documents/verify.html", {"code": "", "locked": True}, status=429)
    code = code.strip().upper()
    doc = (
        IssuedDocument.objects.filter(verification_code=code).first()
        if len(code) == acts.CODE_LENGTH
        else None
    )
    if doc is None:
        _record_miss(key, now)
        return render(request, "documents/verify.html", {"code": code[:20], "unknown": True}, status=404)
    newer = (
        IssuedDocument.objects.filter(number=doc.number, version__gt=doc.version).order_by("-version").first()
    )
    j = library().jurisdictions.get(doc.jurisdiction)
    context = {
        "code": code,
        "doc": doc,
        "city": j.name if j else doc.jurisdiction,
        "superseded_by": newer.version if newer else None,
    }
    return render(request, "documents/verify.html", context)


def _window() -> dt.timedelta:
    return dt.timedelta(seconds=settings.DOGCASE_LOGIN_LOCKOUT_SECONDS)


def _locked(key: str, now: dt.datetime) -> bool:
    return LoginThrottle.objects.filter(key=key, locked_until__gt=now).exists()


def _record_miss(key: str, now: dt.datetime) -> None:
    """Count an unknown code against the client (the login throttle's table, its own key)."""
    with transaction.atomic():
        row, created = LoginThrottle.objects.select_for_update().get_or_create(
            key=key, defaults={"failures": 0, "first_failure_at": now}
        )
        if not created and row.first_failure_at <= now - _window():
            row.failures, row.first_failure_at, row.locked_until = 0, now, None
        row.failures += 1
        if row.failures >= VERIFY_MISSES:
            row.locked_until = now + _window()
        row.save()

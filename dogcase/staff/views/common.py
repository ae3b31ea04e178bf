"""Small helpers the staff views share."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import SuspiciousFileOperation
from django.http import FileResponse, Http404
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases import files as file_store
from dogcase.law import library
from dogcase.staff.guards import not_installed
from dogcase.staff.present import humanize


def now_and_today() -> tuple[dt.datetime, dt.date]:
    """Read "now" once per request; "today" is the Minnesota date (settings.TIME_ZONE)."""
    now = timezone.now()
    return now, timezone.localdate(now)


def new_form_token() -> str:
    return str(uuid.uuid4())


def clean_token(value: str | None) -> str | None:
    """A form's idempotency key as sent back, if it is a well-formed uuid (else a fresh one is not made up)."""
    try:
        return str(uuid.UUID(str(value)))
    except (ValueError, TypeError):
        return None


def jurisdiction(jurisdiction_id: str):
    return library().get(jurisdiction_id)


def installed(jurisdiction_id: str):
    """The jurisdiction, or None when its law pack is no longer in the library (removed or renamed): its
    records are still shown, with `not_installed(...)` in place of what only the law could say."""
    return library().jurisdictions.get(jurisdiction_id)


def city_names(cities) -> dict[str, str]:
    out = {}
    for c in cities:
        j = installed(c)
        if j is None:  # a city access row, or records, for a pack no longer shipped
            out[c] = f"{c} ({not_installed(c)})"
            continue
        out[c] = j.name.removeprefix("City of ").removesuffix(", Minnesota")
    return out


def sentence(text: str) -> str:
    """A rule from the law engine or an act ("must be a date ...") as a sentence shown on a form."""
    text = str(text).strip()
    return text[:1].upper() + text[1:]


def refusal_row(reason: str, citation: str, code: str = "") -> dict[str, str]:
    """A refusal; its citation is left out where the reason already quotes it."""
    return {"reason": reason, "citation": "" if citation and citation in reason else citation, "code": code}


@dataclass
class ActAttempt:
    """What a form's call of an act function came to: its result, or the problems to show on the form again
    (each field's error, errors that name no field of the form, the law's refusals) and, when someone else acted
    on the case first, the case's version now. `status` is the HTTP status to answer the form with."""

    result: Any = None
    errors: dict[str, str] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)
    refusals: list[dict[str, str]] = field(default_factory=list)
    stale: Any = None
    status: int = 200

    @property
    def done(self) -> bool:
        return self.status == 200


def attempt_act(call: Callable[[], Any], *, fields: Iterable[str], fallback: str | None = None) -> ActAttempt:
    """Call an act (`acts.take_step`, `serving.record_service_attempt`, ...) for a form and sort what it
    refuses: bad input goes beside the form's field it names (or `fallback`, or the form's general errors, when
    it names none of `fields`), the law's refusals with their citations, a stale case with its current version.
    Nothing the act refused was saved, so the form is shown again with what was typed."""
    fields = tuple(fields)
    try:
        return ActAttempt(result=call())
    except acts.InvalidInput as exc:
        out = ActAttempt(status=400)
        target = exc.field if exc.field in fields else fallback
        if target:
            out.errors[target] = sentence(exc.rule)
        else:
            out.general.append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
        return out
    except acts.Refused as exc:
        return ActAttempt(
            refusals=[
                refusal_row(r["reason"], r.get("citation", ""), r.get("code", "")) for r in exc.refusals
            ],
            status=409,
        )
    except acts.StaleCase as exc:
        return ActAttempt(stale=exc, status=409)


def stored_response(
    path: str, *, content_type: str, filename: str, missing: str = "The stored file is missing."
):
    """A stored file (evidence, proof, an issued document) as a response that nothing may cache or run: an image
    is shown, anything else downloaded. 404 when the stored bytes are gone."""
    try:
        handle = file_store.open_blob(path)  # FileResponse closes it
    except (OSError, SuspiciousFileOperation):
        raise Http404(missing) from None
    inline = content_type.startswith("image/")
    response = FileResponse(handle, content_type=content_type, as_attachment=not inline, filename=filename)
    response["X-Content-Type-Options"] = "nosniff"
    # Served files never run anything, even if a browser were to treat one as a page.
    response["Content-Security-Policy"] = "default-src 'none'; img-src 'self'; sandbox"
    response["Cache-Control"] = "private, no-store"
    return response

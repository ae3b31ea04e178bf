"""The portal's session: separate from staff authentication (its own session keys; a staff login never opens
the portal, and a portal sign-in never logs anyone in as staff), short (DOGCASE_OWNER_SESSION_IDLE_SECONDS idle,
DOGCASE_OWNER_SESSION_MAX_SECONDS in all), ended by signing out or by revoking the code it was opened with.

`owner_case_view` guards every owner page of a case: 404 unless the session's person owns the case's dog and
the code was not revoked (contract 2 of the issue's spec)."""

from __future__ import annotations

import time
from functools import wraps

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect
from django.utils import translation

from dogcase.cases.acts import is_owner
from dogcase.cases.models import Case, Person
from dogcase.owners.models import CaseAccessCode

SESSION_KEY = "dogcase_owner_portal"
WRITE_EVERY_SECONDS = 60


def start(request, code: CaseAccessCode) -> None:
    """Open the portal for the code's owner. A new session key (no fixation); a staff member's login in the
    same browser is left as it is, and grants nothing here."""
    request.session.cycle_key()
    now = int(time.time())
    request.session[SESSION_KEY] = {"code": code.pk, "person": code.person_id, "since": now, "seen": now}
    if not request.user.is_authenticated:
        request.session.set_expiry(settings.DOGCASE_OWNER_SESSION_MAX_SECONDS)


def end(request) -> None:
    request.session.pop(SESSION_KEY, None)
    if not request.user.is_authenticated:
        request.session.flush()


def current(request) -> tuple[CaseAccessCode, Person] | None:
    """The live portal sign-in of this request, or None (and the stale one is forgotten)."""
    data = request.session.get(SESSION_KEY)
    if not isinstance(data, dict):
        return None
    now = int(time.time())
    if (
        now - int(data.get("since", 0)) > settings.DOGCASE_OWNER_SESSION_MAX_SECONDS
        or now - int(data.get("seen", 0)) > settings.DOGCASE_OWNER_SESSION_IDLE_SECONDS
    ):
        request.session.pop(SESSION_KEY, None)
        return None
    code = (
        CaseAccessCode.objects.select_related("person", "case")
        .filter(pk=data.get("code"), person_id=data.get("person"), revoked_at__isnull=True)
        .first()
    )
    if code is None:
        request.session.pop(SESSION_KEY, None)
        return None
    if now - int(data.get("seen", 0)) >= WRITE_EVERY_SECONDS:
        request.session[SESSION_KEY] = {**data, "seen": now}
    return code, code.person


def language_of(person: Person) -> str:
    return person.preferred_language if person.preferred_language in ("en", "es") else "en"


def owner_required(view):
    """A page of the portal for whoever is signed in (not tied to a case): the sign-in page otherwise."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        signed_in = current(request)
        if signed_in is None:
            return redirect("owners:sign_in")
        code, person = signed_in
        with translation.override(language_of(person)):
            request.LANGUAGE_CODE = language_of(person)
            return view(request, code, person, *args, **kwargs)

    return wrapped


def owner_case_view(view):
    """For `view(request, case, person, *args, **kwargs)` at a URL with `<str:number>`: the signed-in owner's
    case, in the owner's language; the sign-in page when nobody is signed in; 404 for a case whose dog the
    person does not own (another owner's case looks like no case at all)."""

    @wraps(view)
    def wrapped(request, number: str, *args, **kwargs):
        signed_in = current(request)
        if signed_in is None:
            return redirect("owners:sign_in")
        _code, person = signed_in
        case = (
            Case.objects.select_related("dog", "incident")
            .filter(number=number, jurisdiction=person.jurisdiction)
            .first()
        )
        # an owner whose ownership has ended (the dog transferred) no longer reads the case: it holds the new
        # owner's name, address and documents
        if case is None or not is_owner(person, case):
            raise Http404("No such case.")
        with translation.override(language_of(person)):
            request.LANGUAGE_CODE = language_of(person)
            return view(request, case, person, *args, **kwargs)

    return wrapped

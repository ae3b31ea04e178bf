"""The one-time key of every form that creates a record.

A create form is opened at an address that carries its key (`?key=…`: a form opened without one is sent on to
one), and the form sends the key back. Creating the record claims the key in the database, in the same
transaction as the create (`claim` … `recorded`): the key is unique, so two submissions of one form — a double
click, Back and submit again, two submissions at once — create one record. The second is shown the record the
first created ("This was already recorded: …"), and so is a Back to the form's address after it was used.

    key, response = onetime.opened(request)          # GET: None, or the redirect to give
    …
    done = onetime.used(key)                          # POST, before anything is checked
    if done is not None: return onetime.show(request, done, user)
    with transaction.atomic():
        onetime.claim(key, user=user, form="incident")  # raises AlreadyRecorded
        … create …
        onetime.recorded(key, label=…, url=…)
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponseRedirect, QueryDict
from django.shortcuts import redirect
from django.utils import timezone

from dogcase.cases.act_forms import clean_token, new_form_token
from dogcase.staff.models import FormKey

PARAM = "key"
FIELD = "idempotency_key"


class AlreadyRecorded(Exception):
    """The form's key was claimed by an earlier submission (committed): nothing of this one is kept."""

    def __init__(self, claim: FormKey) -> None:
        super().__init__(f"form key {claim.key} already used")
        self.claim = claim


def key_of(request) -> str | None:
    """The form's key as sent back (the hidden field), or as its address carries it."""
    return clean_token(request.POST.get(FIELD)) or clean_token(request.GET.get(PARAM))


def used(key: str | None) -> FormKey | None:
    """The claim of a key already used (its record created), if any."""
    if not key:
        return None
    return FormKey.objects.filter(key=key).first()


def opened(request, user) -> tuple[str, HttpResponseRedirect | None]:
    """A create form opened (GET): its key, and the response to give instead of the form — on to the same
    address with a new key when it has none, or to the record already created when its key was used."""
    key = clean_token(request.GET.get(PARAM))
    if key is None:
        return "", redirect(with_key(request, new_form_token()))
    done = used(key)
    if done is not None:
        if done.user_id == user.pk:
            return key, show(request, done, user)
        return "", redirect(with_key(request, new_form_token()))  # someone else's key: a fresh form
    return key, None


def with_key(request, key: str) -> str:
    params = QueryDict(mutable=True)
    params.update(request.GET)
    params[PARAM] = key
    return f"{request.path}?{params.urlencode()}"


def claim(key: str | None, *, user, form: str) -> None:
    """Claim the form's key: called first inside the create's transaction. A key claimed already — by a
    submission committed before, or by one committing while this one waited on the key — raises
    AlreadyRecorded, and the create's transaction is rolled back."""
    if not key:
        return
    try:
        with transaction.atomic():  # a savepoint: the unique key refused leaves the transaction usable
            FormKey.objects.create(key=key, form=form, user=user, claimed_at=timezone.now())
    except IntegrityError:
        found = FormKey.objects.filter(key=key).first()
        if found is None:  # pragma: no cover - an integrity error of another kind
            raise
        raise AlreadyRecorded(found) from None


def recorded(key: str | None, *, label: str, url: str) -> None:
    """What the form created and where it is shown: in the same transaction as the claim."""
    if key:
        FormKey.objects.filter(key=key).update(label=label[:300], url=url[:300])


def show(request, done: FormKey, user) -> HttpResponseRedirect:
    """The answer to a form whose key was used: the record created, with a message saying so. Someone else's
    key says nothing of what it created."""
    if done.user_id != user.pk or not done.url:
        messages.error(request, "This form was already used; nothing was recorded from it. Open a new form.")
        return redirect(request.path)
    messages.info(request, f"This was already recorded: {done.label}. Nothing was recorded a second time.")
    return redirect(done.url)

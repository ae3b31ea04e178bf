"""Corrections and updates of the records: a dog's details, its premises, a person's details, and who owns
the dog. Each is audited (dogcase.cases.updates): the old and new values, the person and the reason.

A form carries, in hidden `seen-<field>` inputs, the values it showed. Only the fields the user changed are
sent, with what the form showed for them; when someone else saved one of them in between, nothing is saved
and the form is answered 409 with the record as it is now.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from dogcase.cases import acts, geocoder, guards, updates
from dogcase.cases.act_forms import new_form_token
from dogcase.cases.geo import PointSource
from dogcase.cases.guards import may_record, require_writer, staff_required
from dogcase.cases.models import Dog, Incident, Ownership, Person, Premises, PriorHistoryEntry
from dogcase.cases.pages import city_names, now_and_today, sentence
from dogcase.cases.record_facts import prior_designations
from dogcase.law import clock, library
from dogcase.staff import onetime, queries, searching
from dogcase.staff.present import field_value_words, humanize


def require_record_writer(user) -> None:
    """The auditor is read-only; of the others, only the roles that keep the records may change them."""
    require_writer(user)
    if not may_record(user):
        raise PermissionDenied("Your role may not change people, dogs or premises.")


class FieldError(Exception):
    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: str = "text"  # text, email, tel, year, state, choice, yesno
    choices: tuple[tuple[str, str], ...] = ()
    hint: str = ""
    autocomplete: str = ""
    required: bool = False


YES_NO = (("yes", "Yes"), ("no", "No"), ("unknown", "Not known"))

DOG_FORM = (
    Field("name", "Name", required=True, hint="Write “unknown” if nobody knows it."),
    Field("breed", "Breed"),
    Field("colour", "Colour"),
    Field("sex", "Sex", "choice", tuple(Dog.Sex.choices)),
    Field("sterilized", "Sterilized (spayed or neutered)", "yesno", YES_NO),
    Field("birth_year", "Birth year", "year", hint="For example 2021. Leave blank if not known."),
    Field("microchip_manufacturer", "Microchip manufacturer"),
    Field("microchip_number", "Microchip number"),
    Field("licence_number", "City licence number"),
)

PERSON_FORM = (
    Field("full_name", "Full name", required=True, autocomplete="off"),
    Field("phone", "Phone", "tel", autocomplete="off"),
    Field("email", "E-mail", "email", autocomplete="off"),
    Field("street", "Street address", autocomplete="off"),
    Field("city_name", "City", autocomplete="off"),
    Field("state", "State", "state", hint="Two letters, e.g. MN.", autocomplete="off"),
    Field("postal_code", "ZIP code", autocomplete="off"),
    Field(
        "preferred_language",
        "Language for letters",
        "choice",
        tuple(Person.Language.choices),
        hint="The legal text of every letter stays in English; in Spanish, a Spanish explanation is printed "
        "beside it.",
    ),
)

PREMISES_FORM = (
    Field("street", "Street address", required=True, autocomplete="off"),
    Field("unit", "Unit or apartment", autocomplete="off"),
    Field("city_name", "City", required=True, autocomplete="off"),
    Field("postal_code", "ZIP code", autocomplete="off"),
    Field("tenure", "Owned or rented", "choice", tuple(Premises.Tenure.choices)),
)

# The fields a new owner is recorded with (acts.record_person), named `new-<field>` in the form.
NEW_PERSON_FORM = tuple(f for f in PERSON_FORM if f.name != "state")


def shown(field: Field, value: Any) -> str:
    """A recorded value as the form shows it."""
    if field.kind == "yesno":
        return {True: "yes", False: "no"}.get(value, "unknown")
    return "" if value is None else str(value)


def parse(field: Field, text: str) -> Any:
    """What the form says, as the record keeps it; FieldError when it cannot be."""
    text = (text or "").strip()
    if field.kind == "yesno":
        if text not in ("yes", "no", "unknown"):
            raise FieldError(field.name, "Choose yes, no or not known.")
        return {"yes": True, "no": False}.get(text)
    if field.kind == "choice" and text not in {v for v, _ in field.choices}:
        raise FieldError(field.name, f"Choose one of: {', '.join(label for _, label in field.choices)}.")
    if field.required and not text:
        raise FieldError(field.name, f"{field.label} is required.")
    if field.kind == "year":
        if not text:
            return None
        if not text.isdecimal():
            raise FieldError(field.name, "Give a year, for example 2021.")
        return int(text)
    if field.kind == "state":
        return text.upper()
    if field.kind == "email" and text:
        try:
            validate_email(text)
        except ValidationError:
            raise FieldError(field.name, "Give an e-mail address such as name@example.com.") from None
    return text


def _seen_value(field: Field, text: str) -> Any:
    try:
        return parse(field, text)
    except FieldError:
        return text  # a tampered value: it differs from the record, so the change is refused as stale


def _edit_record(request, *, record, form, update, template: str, context: dict, done_url: str, noun: str):
    """The shared GET/POST of a record's correction form."""
    user = request.user
    require_record_writer(user)
    current = {f.name: shown(f, getattr(record, f.name)) for f in form}
    values, seen, reason = dict(current), dict(current), ""
    errors: dict[str, str] = {}
    general: list[str] = []
    stale = None
    status = 200
    if request.method == "POST":
        seen = {f.name: request.POST.get(f"seen-{f.name}", current[f.name]) for f in form}
        # A field the form did not send (e.g. an unanswered choice) is left as the form showed it.
        values = {f.name: (request.POST.get(f.name, seen[f.name]) or "").strip() for f in form}
        reason = (request.POST.get("reason") or "").strip()
        changes: dict[str, Any] = {}
        for f in form:
            try:
                value = parse(f, values[f.name])
            except FieldError as exc:
                errors[exc.field] = exc.message
                continue
            before = _seen_value(f, seen[f.name])
            if value != before:
                changes[f.name] = value
        status = 400
        if not errors:
            try:
                update(
                    record,
                    actor=user,
                    changes=changes,
                    reason=reason,
                    # what the form showed, as the record keeps it: the stored value itself when the form
                    # showed it unchanged (a stored " Ann" shows as "Ann" and must still match)
                    seen={
                        name: getattr(record, name)
                        if seen[name] == current[name]
                        else _seen_value(next(f for f in form if f.name == name), seen[name])
                        for name in changes
                    },
                )
            except updates.StaleRecord as exc:
                record = exc.record
                now_shown = {f.name: shown(f, getattr(record, f.name)) for f in form}
                labels = {f.name: f for f in form}
                stale = {
                    "message": exc.args[0] if exc.args else "",
                    "fields": [
                        {
                            "label": labels[name].label,
                            "now": field_value_words(name, getattr(record, name)),
                            "yours": field_value_words(name, changes[name]),
                        }
                        for name in exc.fields
                        if name in labels
                    ],
                }
                # The fields the user did not change show the record as it is now; their own changes stay.
                values = {name: values[name] if name in changes else now_shown[name] for name in now_shown}
                seen = now_shown
                status = 409
            except acts.InvalidInput as exc:
                if exc.field == "reason" or exc.field in values:
                    errors[exc.field] = sentence(exc.rule)
                elif exc.field == "changes":
                    general.append("Nothing was changed: edit at least one detail, or go back.")
                else:
                    general.append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
            else:
                messages.success(request, f"The {noun} was updated. The old values are kept in its history.")
                return redirect(done_url + "#history")
    rows = [
        {
            "field": f,
            "value": values.get(f.name, ""),
            "seen": seen.get(f.name, ""),
            "error": errors.get(f.name, ""),
        }
        for f in form
    ]
    context = {
        **context,
        "rows": rows,
        "reason": reason,
        "errors": errors,
        "general_errors": general,
        "stale": stale,
    }
    return render(request, template, context, status=status)


# ------------------------------------------------------------------------------------------------- dog


def _dog(user, pk: int) -> Dog:
    return guards.in_cities(Dog.objects.select_related("premises"), user, pk=pk)


@staff_required
def edit_dog(request, pk: int):
    dog = _dog(request.user, pk)
    return _edit_record(
        request,
        record=dog,
        form=DOG_FORM,
        update=updates.update_dog,
        template="staff/record_edit.html",
        context={
            "title": f"Correct or update {dog.name}'s details",
            "back_url": reverse("staff:dog", args=[dog.pk]),
            "back_words": f"{dog.name}",
            "city": city_names([dog.jurisdiction])[dog.jurisdiction],
            "intro": "Change only what is wrong or out of date. The old values are kept in the dog's history, "
            "with your name and reason. To record that the dog moved, was transferred or died, use the "
            "steps of its case.",
        },
        done_url=reverse("staff:dog", args=[dog.pk]),
        noun="dog's record",
    )


@staff_required
def edit_premises(request, pk: int):
    premises = guards.in_cities(Premises.objects.all(), request.user, pk=pk)
    dog = _back_dog(request, premises)
    done = reverse("staff:dog", args=[dog.pk]) if dog else reverse("staff:dogs")

    def update_and_locate(record, *, actor, changes, reason, seen):
        saved = updates.update_premises(record, actor=actor, changes=changes, reason=reason, seen=seen)
        if geocoder.configured() and set(changes) & {"street", "city_name", "postal_code"}:
            _geocode_new_address(request, saved, actor)
        return saved

    return _edit_record(
        request,
        record=premises,
        form=PREMISES_FORM,
        update=update_and_locate,
        template="staff/record_edit.html",
        context={
            "title": f"Correct or update the premises at {premises}",
            "back_url": done,
            "back_words": dog.name if dog else "Dogs",
            "city": city_names([premises.jurisdiction])[premises.jurisdiction],
            "intro": "Where the dog is kept, and whether the premises are owned or rented. The old values "
            "are kept in the history, with your name and reason.",
            "dogs_kept": list(premises.dogs.order_by("name", "id")),
            "location_url": reverse("staff:map_place", args=["premises", premises.pk])
            + (f"?dog={dog.pk}" if dog else ""),
            "location_words": f"{premises.latitude}, {premises.longitude} ({premises.get_located_by_display().lower()})"
            if premises.latitude is not None
            else "no location yet",
            "has_point": premises.latitude is not None,
            "geocoder": geocoder.configured(),
        },
        done_url=done,
        noun="premises record",
    )


def _geocode_new_address(request, premises: Premises, actor) -> None:
    """The premises' new address on the map, when the site has a geocoder. The address is saved already: a
    geocoder that fails says so and leaves the old point (or none) for the user to place by hand."""
    try:
        found = geocoder.geocode(geocoder.premises_address(premises))
        acts.set_location(
            premises,
            actor=actor,
            latitude=found.latitude,
            longitude=found.longitude,
            source=PointSource.GEOCODED,
            reason="The address changed",
            detail=found.name,
        )
    except (geocoder.GeocoderError, acts.InvalidInput) as exc:
        words = str(exc) if isinstance(exc, geocoder.GeocoderError) else sentence(exc.rule)
        messages.warning(request, f"The new address is saved, but it was not placed on the map: {words}")


def _back_dog(request, premises: Premises) -> Dog | None:
    """The dog page the premises form returns to: the one it was opened from, else a dog kept there."""
    dogs = premises.dogs.order_by("name", "id")
    wanted = request.GET.get("dog") or request.POST.get("dog")
    if wanted and str(wanted).isdecimal():
        dog = dogs.filter(pk=int(wanted)).first()
        if dog is not None:
            return dog
    return dogs.first()


# ---------------------------------------------------------------------------------------------- people


@staff_required
def edit_person(request, pk: int):
    person = guards.in_cities(Person.objects.all(), request.user, pk=pk)
    return _edit_record(
        request,
        record=person,
        form=PERSON_FORM,
        update=updates.update_person,
        template="staff/record_edit.html",
        context={
            "title": f"Correct or update {person.full_name}'s details",
            "back_url": reverse("staff:person", args=[person.pk]),
            "back_words": person.full_name,
            "city": city_names([person.jurisdiction])[person.jurisdiction],
            "intro": "Change only what is wrong or out of date. Notices and letters use these details. The old "
            "values are kept in the person's history, with your name and reason.",
        },
        done_url=reverse("staff:person", args=[person.pk]),
        noun="person's record",
    )


# ---------------------------------------------------------------------------------------------- owners


def _parse_date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat((text or "").strip())
    except ValueError:
        return None


@staff_required
def add_owner(request, pk: int):
    user = request.user
    dog = _dog(user, pk)
    require_record_writer(user)
    _, today = now_and_today()
    current_owner_ids = set(dog.ownerships.filter(until__isnull=True).values_list("person_id", flat=True))
    query = (request.GET.get("q") or request.POST.get("q") or "").strip()
    values: dict[str, Any] = {"person": "", "since": today.isoformat(), "reason": ""}
    new_person = {f.name: "" for f in NEW_PERSON_FORM} | {"preferred_language": Person.Language.ENGLISH}
    errors: dict[str, str] = {}
    general: list[str] = []
    status = 200
    if request.method != "POST":
        token, answer = onetime.opened(request, user)
        if answer is not None:
            return answer
    else:
        token = onetime.key_of(request) or new_form_token()
        done = onetime.used(token)
        if done is not None:
            return onetime.show(request, done, user)
        values = {k: (request.POST.get(k) or "").strip() for k in ("person", "since", "reason")}
        new_person = {f.name: (request.POST.get(f"new-{f.name}") or "").strip() for f in NEW_PERSON_FORM}
        new_person["preferred_language"] = new_person["preferred_language"] or Person.Language.ENGLISH
        status = 400
        person = None
        since = _parse_date(values["since"])
        if since is None:
            errors["since"] = (
                sentence(clock.missing_day(values["since"]) or "")
                or "Give the date this person became an owner (YYYY-MM-DD)."
            )
        if len(values["reason"]) < 5:
            errors["reason"] = "Say why this person is added as an owner (at least 5 characters)."
        if values["person"] == "new":
            for f in NEW_PERSON_FORM:
                try:
                    new_person[f.name] = parse(f, new_person[f.name])
                except FieldError as exc:
                    errors[f"new-{exc.field}"] = exc.message
        elif values["person"].isdecimal():
            person = Person.objects.filter(jurisdiction=dog.jurisdiction, pk=int(values["person"])).first()
            if person is None:
                errors["person"] = "Choose a person of this city from the list, or record a new one."
        else:
            errors["person"] = "Choose a person from the list, or choose to record a new one."
        if not errors:
            try:
                with transaction.atomic():
                    onetime.claim(token, user=user, form="owner")
                    if person is None:
                        person = acts.record_person(
                            jurisdiction=dog.jurisdiction,
                            actor=user,
                            idempotency_key=token,
                            **{k: v for k, v in new_person.items() if v},
                        )
                    updates.add_owner(dog, person=person, actor=user, since=since, reason=values["reason"])
                    onetime.recorded(
                        token,
                        label=f"{person.full_name} as an owner of {dog.name}",
                        url=reverse("staff:dog", args=[dog.pk]) + "#history",
                    )
            except onetime.AlreadyRecorded as exc:
                return onetime.show(request, exc.claim, user)
            except acts.InvalidInput as exc:
                field = exc.field.rsplit(".", 1)[-1]
                if field in ("since", "reason", "person"):
                    errors[field] = sentence(exc.rule)
                elif field in new_person:
                    errors[f"new-{field}"] = sentence(exc.rule)
                else:
                    general.append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
            else:
                messages.success(request, f"{person.full_name} is recorded as an owner of {dog.name}.")
                return redirect(reverse("staff:dog", args=[dog.pk]) + "#history")
    found = searching.people_named(dog.jurisdiction, query, exclude=current_owner_ids)
    if values["person"].isdecimal() and all(str(p.pk) != values["person"] for p in found):
        chosen = Person.objects.filter(jurisdiction=dog.jurisdiction, pk=int(values["person"])).first()
        if chosen is not None:
            found.insert(0, chosen)
    context = {
        "dog": dog,
        "city": city_names([dog.jurisdiction])[dog.jurisdiction],
        "q": query,
        "searched": len(" ".join(query.split())) >= 2,
        "found": found,
        "values": values,
        "new_rows": [
            {
                "name": f"new-{f.name}",
                "label": f.label,
                "value": new_person.get(f.name, ""),
                "error": errors.get(f"new-{f.name}", ""),
                "type": {"email": "email", "tel": "tel"}.get(f.kind, "text"),
                "choices": f.choices,
                "hint": f.hint,
            }
            for f in NEW_PERSON_FORM
        ],
        "errors": errors,
        "general_errors": general,
        "token": token,
        "today": today,
    }
    return render(request, "staff/owner_add.html", context, status=status)


@staff_required
def end_ownership(request, pk: int, ownership_id: int):
    user = request.user
    dog = _dog(user, pk)
    ownership = _ownership(dog, ownership_id)
    require_record_writer(user)
    _, today = now_and_today()
    values = {"until": today.isoformat(), "reason": ""}
    errors: dict[str, str] = {}
    general: list[str] = []
    stale = None
    status = 200
    if request.method == "POST":
        values = {k: (request.POST.get(k) or "").strip() for k in ("until", "reason")}
        status = 400
        until = _parse_date(values["until"])
        if ownership.until is not None:
            stale = _ended_already(ownership)
            status = 409
        elif until is None:
            errors["until"] = "Give the date from which this person no longer owns the dog."
        else:
            try:
                updates.end_ownership(ownership, actor=user, until=until, reason=values["reason"])
            except acts.InvalidInput as exc:
                ownership.refresh_from_db()
                if ownership.until is not None:
                    stale = _ended_already(ownership)
                    status = 409
                elif exc.field in ("until", "reason"):
                    errors[exc.field] = sentence(exc.rule)
                else:
                    general.append(sentence(f"{humanize(exc.field)}: {exc.rule}"))
            else:
                messages.success(request, f"{ownership.person.full_name} is no longer recorded as an owner.")
                return redirect(reverse("staff:dog", args=[dog.pk]) + "#history")
    context = {
        "dog": dog,
        "ownership": ownership,
        "ended": ownership.until is not None,
        "owners": queries.ownerships_of(dog),
        "city": city_names([dog.jurisdiction])[dog.jurisdiction],
        "values": values,
        "errors": errors,
        "general_errors": general,
        "stale": stale,
    }
    return render(request, "staff/owner_end.html", context, status=status)


def _ownership(dog: Dog, ownership_id: int) -> Ownership:
    ownership = dog.ownerships.select_related("person").filter(pk=ownership_id).first()
    if ownership is None:
        raise Http404("No such owner of this dog.")
    return ownership


def _ended_already(ownership: Ownership) -> dict[str, str]:
    return {
        "message": f"Someone already recorded that {ownership.person.full_name} is no longer an owner, from "
        f"{ownership.until:%-d %b %Y}. Nothing you entered was saved. Here are the dog's owners as they are now."
    }


@staff_required
def add_to_incident(request, number: str):
    """Evidence or a witness found after the intake: added to the incident, with its audit event."""
    incident = guards.in_cities(Incident.objects.all(), request.user, number=number)
    require_record_writer(request.user)
    values = {"description": "", "witness_name": "", "witness_contact": "", "witness_statement": ""}
    errors: dict[str, str] = {}
    status = 200
    if request.method != "POST":
        token, answer = onetime.opened(request, request.user)
        if answer is not None:
            return answer
    else:
        values = {k: (request.POST.get(k) or "").strip() for k in values}
        token = onetime.key_of(request) or new_form_token()
        done = onetime.used(token)
        if done is not None:
            return onetime.show(request, done, request.user)
        upload = request.FILES.get("file")
        witnesses = []
        if values["witness_name"] or values["witness_contact"] or values["witness_statement"]:
            witnesses.append(
                {
                    "name": values["witness_name"],
                    "contact": values["witness_contact"],
                    "statement": values["witness_statement"],
                }
            )
        try:
            with transaction.atomic():
                onetime.claim(token, user=request.user, form="incident_add")
                acts.add_to_incident(
                    incident,
                    actor=request.user,
                    evidence=[(upload, values["description"])] if upload is not None else [],
                    witnesses=witnesses,
                    idempotency_key=token,
                )
                added = " and ".join(
                    w
                    for w, given in (("the evidence", upload is not None), ("the witness", bool(witnesses)))
                    if given
                )
                onetime.recorded(
                    token,
                    label=f"{added or 'the addition'} added to incident {incident.number}",
                    url=reverse("staff:incident", args=[incident.number]) + "#i-evidence",
                )
        except onetime.AlreadyRecorded as exc:
            return onetime.show(request, exc.claim, request.user)
        except acts.InvalidInput as exc:
            field = {"evidence[0]": "file", "evidence": "file", "evidence[0].description": "description"}.get(
                exc.field
            )
            if field is None and exc.field.startswith("witnesses[0]."):
                field = "witness_" + exc.field.removeprefix("witnesses[0].")
            # this form adds files and witnesses (a victim found later is added through the act): say what it takes
            rule = (
                "add a file or a witness"
                if exc.field == "evidence" and not upload and not witnesses
                else exc.rule
            )
            errors[field or "file"] = sentence(rule)
            status = 400
        else:
            messages.success(request, "Added to the incident.")
            return redirect(reverse("staff:incident", args=[incident.number]) + "#i-evidence")
    return render(
        request,
        "staff/incident_add.html",
        {"incident": incident, "values": values, "errors": errors, "token": token},
        status=status,
    )


# --------------------------------------------------------------------------------------- prior history


@staff_required
def add_prior_history(request, pk: int):
    """Record what happened to the dog before dogcase (a bite on a person, a designation, a notice), with
    where it is recorded: the facts from the dog's record read it."""
    user = request.user
    dog = _dog(user, pk)
    require_record_writer(user)
    vocabulary = library().get(dog.jurisdiction).facts
    fields = ("on", "what", "designation", "by_whom", "source", "note")
    values: dict[str, str] = dict.fromkeys(fields, "")
    errors: dict[str, str] = {}
    status = 200
    if request.method != "POST":
        token, answer = onetime.opened(request, user)
        if answer is not None:
            return answer
    else:
        token = onetime.key_of(request) or new_form_token()
        done = onetime.used(token)
        if done is not None:
            return onetime.show(request, done, user)
        values = {k: (request.POST.get(k) or "").strip() for k in fields}
        status = 400
        on = _parse_date(values["on"])
        if on is None:
            errors["on"] = "Give the date it happened."
        else:
            try:
                with transaction.atomic():
                    onetime.claim(token, user=user, form="prior_history")
                    updates.record_prior_history(
                        dog,
                        actor=user,
                        on=on,
                        what=values["what"],
                        designation=values["designation"]
                        if values["what"] != PriorHistoryEntry.What.BITE
                        else "",
                        by_whom=values["by_whom"],
                        source=values["source"],
                        note=values["note"],
                        idempotency_key=token,
                    )
                    onetime.recorded(
                        token,
                        label=f"prior history of {dog.name} on {on:%-d %B %Y}",
                        url=reverse("staff:dog", args=[dog.pk]) + "#prior-history",
                    )
            except onetime.AlreadyRecorded as exc:
                return onetime.show(request, exc.claim, user)
            except acts.InvalidInput as exc:
                errors[exc.field if exc.field in fields else "what"] = sentence(exc.rule)
            else:
                messages.success(request, f"Prior history of {dog.name} recorded.")
                return redirect(reverse("staff:dog", args=[dog.pk]) + "#prior-history")
    context = {
        "dog": dog,
        "city": city_names([dog.jurisdiction])[dog.jurisdiction],
        "values": values,
        "errors": errors,
        "token": token,
        "whats": PriorHistoryEntry.What.choices,
        "designations": prior_designations(vocabulary),
    }
    return render(request, "staff/prior_history_add.html", context, status=status)

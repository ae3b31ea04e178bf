"""Incident intake: what happened, the dogs and their owners, victims, witnesses, evidence, and the law facts
— with a live view of the designations the facts support. Submitting records everything through the acts and
opens one case per dog."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from dogcase.cases import acts
from dogcase.cases.access import cities_of, require_record_keeper
from dogcase.cases.act_forms import new_form_token
from dogcase.cases.guards import may_record, staff_required
from dogcase.cases.models import Dog, Incident, Person, Premises
from dogcase.cases.pages import city_names, installed, now_and_today, sentence
from dogcase.cases.vocabulary import INJURY, PLACE_TYPE, VICTIM_KIND
from dogcase.law import InputError, LawError, library
from dogcase.staff import intake, on_record, onetime, queries
from dogcase.staff.present import explained_classification

ROW_KINDS = ("dog", "victim", "witness")


def _intake_cities(user) -> tuple[str, ...]:
    """The user's cities whose law pack is installed: an incident is recorded under a city's law."""
    return tuple(c for c in cities_of(user) if installed(c) is not None)


def _require_intake(user) -> tuple[str, ...]:
    """The cities the user may record incidents in; 403 when none."""
    cities = _intake_cities(user)
    if not may_record(user) or not cities:
        raise PermissionDenied("Your role may not record incidents.")
    return cities


def _vocabulary(cities) -> intake.FormVocabulary:
    """What the form asks and offers: the facts of every city the user records for (each value and question
    a city lacks is marked with the cities that have it)."""
    lib = library()
    return intake.FormVocabulary({c: lib.get(c).facts for c in cities}, city_names(cities))


def _choices(user, cities) -> dict[str, Any]:
    names = city_names(cities)
    dogs = list(
        Dog.objects.filter(jurisdiction__in=cities)
        .prefetch_related("owners")
        .order_by("jurisdiction", "name", "id")[:500]
    )
    people = list(
        Person.objects.filter(jurisdiction__in=cities).order_by("jurisdiction", "full_name", "id")[:500]
    )
    return {
        "existing_dogs": [
            {
                "pk": d.pk,
                "label": f"{d.description} — owner {', '.join(p.full_name for p in d.owners.all()) or 'not known'}"
                f" ({names.get(d.jurisdiction, d.jurisdiction)})",
            }
            for d in dogs
        ],
        "existing_people": [
            {
                "pk": p.pk,
                "label": f"{p.full_name}{', ' + p.address if p.address else ''} ({names.get(p.jurisdiction)})",
            }
            for p in people
        ],
    }


def _form_context(request, data: intake.IntakeData, *, token: str, classification=None) -> dict[str, Any]:
    user = request.user
    cities = _intake_cities(user)
    vocabulary = _vocabulary(cities)
    conduct = vocabulary.facts.get("victim_conduct")
    dogs = data.dogs or [intake.DogRow(index=0)]
    intake.attach_row_errors(data, [*dogs, *data.victims, *data.witnesses])
    return {
        "data": data,
        "errors": data.errors,
        "dog_rows": dogs,
        "victim_rows": data.victims,
        "witness_rows": data.witnesses,
        "next_index": {
            "dog": max((r.index for r in dogs), default=-1) + 1,
            "victim": max((r.index for r in data.victims), default=-1) + 1,
            "witness": max((r.index for r in data.witnesses), default=-1) + 1,
        },
        "cities": city_names(cities),
        "questions": intake.questions(vocabulary, data.raw_answers, data.errors),
        "kinds": Incident.Kind.choices,
        "place_types": vocabulary.choices(PLACE_TYPE),
        "sexes": Dog.Sex.choices,
        "tenures": Premises.Tenure.choices,
        "languages": Person.Language.choices,
        "victim_kinds": vocabulary.choices(VICTIM_KIND),
        "injuries": vocabulary.choices(INJURY),
        "conduct_choices": [
            {"value": v, "label": vocabulary.choice_label(conduct.id, v)} for v in conduct.ordered_values
        ]
        if conduct
        else [],
        "token": token,
        "classification": classification,
        **_choices(user, cities),
    }


def _classify(data: intake.IntakeData, user) -> dict[str, Any]:
    """What the facts entered so far support, under the law in force on the incident date."""
    cities = _intake_cities(user)
    jurisdiction = data.jurisdiction if data.jurisdiction in cities else cities[0]
    j = library().get(jurisdiction)
    facts, lines = intake.derive_facts(data, j.facts)
    _, today = now_and_today()
    on = data.occurred_at.astimezone(j.tz).date() if data.occurred_at else today
    existing = {
        row.index: int(row.existing) for row in data.dogs if row.existing and row.existing.isdecimal()
    }
    found = Dog.objects.filter(pk__in=existing.values(), jurisdiction=jurisdiction).in_bulk()
    dogs = {index: found[pk] for index, pk in existing.items() if pk in found}
    # with no incident date yet, the record as it stands: everything recorded up to today
    record_day = on if data.occurred_at else today + dt.timedelta(days=1)
    per_dog, from_record = intake.record_lines(data, j.facts, dogs=dogs, facts=facts, day=record_day)
    out: dict[str, Any] = {
        # a dog entered as new that the city already holds (a dog that moved here with its case): the city's
        # own, which the form's "A dog already on record?" offers
        "on_record": on_record.matches(data.dogs, (jurisdiction,)),
        "lines": lines,
        "record": per_dog,
        "on": on,
        "dated_today": data.occurred_at is None,
        "city": j.name,
    }
    try:
        result = j.classify({**j.facts.parse(facts), **from_record}, on).as_dict()
    except (InputError, LawError) as exc:
        out["error"] = str(exc)
        return out
    out.update(explained_classification(result))
    return out


@staff_required
def new_incident(request):
    user = request.user
    cities = _require_intake(user)
    now, _ = now_and_today()
    if request.method != "POST":
        token, answer = onetime.opened(request, user)
        if answer is not None:
            return answer
        data = intake.IntakeData(jurisdiction=cities[0] if len(cities) == 1 else "")
        dog_pk = request.GET.get("dog", "")
        if dog_pk.isdecimal() and Dog.objects.filter(pk=dog_pk, jurisdiction__in=cities).exists():
            dog = Dog.objects.get(pk=dog_pk)
            data.jurisdiction = dog.jurisdiction
            data.dogs = [intake.DogRow(index=0, existing=str(dog.pk))]
        classification = _classify(data, user) if data.dogs else None  # the chosen dog's record, at once
        return render(
            request,
            "staff/incident_new.html",
            _form_context(request, data, token=token, classification=classification),
        )

    jurisdiction = (request.POST.get("jurisdiction") or "").strip()
    if jurisdiction in cities:
        require_record_keeper(user, jurisdiction)
    j = library().get(jurisdiction if jurisdiction in cities else cities[0])
    data = intake.parse(request.POST, vocabulary=j.facts, tz=j.tz, now=now)
    intake.check(data, cities=cities, vocabulary=j.facts)
    token = onetime.key_of(request) or new_form_token()
    done = onetime.used(token)
    if done is not None and done.user_id == user.pk:
        return onetime.show(request, done, user)  # Back and submit again: the incident already recorded
    already = queries.replayed_event(f"{token}:incident")
    if done is not None or (
        already is not None and (already.actor_id != user.pk or already.jurisdiction not in cities)
    ):
        # Someone else's form token (as acts.replayed refuses it): say nothing of what it recorded.
        data.errors["general"] = "This form was already used by someone else; nothing was recorded from it."
        context = _form_context(request, data, token=new_form_token(), classification=_classify(data, user))
        return render(request, "staff/incident_new.html", context, status=400)
    if already is not None:  # a key used before keys were claimed (the acts' own replay of the form)
        incident = Incident.objects.get(pk=already.data["id"])
        words = _intake_words(incident)
        messages.info(request, f"This was already recorded: {words}. Nothing was recorded a second time.")
        return _after_intake(incident)
    facts, _ = intake.derive_facts(data, j.facts)
    if not data.errors:
        try:
            incident = _record(request, data, facts, token)
        except onetime.AlreadyRecorded as exc:  # a submission of this form committed while this one waited
            return onetime.show(request, exc.claim, user)
        except acts.InvalidInput as exc:
            data.errors[_intake_field(exc.field)] = sentence(exc.rule)
        except acts.Refused as exc:
            data.errors["general"] = "; ".join(r["reason"] for r in exc.refusals)
        else:
            messages.success(request, f"Incident {incident.number} recorded.")
            return _after_intake(incident)
    context = _form_context(request, data, token=token, classification=_classify(data, user))
    return render(request, "staff/incident_new.html", context, status=400)


def _after_intake(incident: Incident):
    return redirect(_intake_url(incident))


def _intake_url(incident: Incident) -> str:
    """Where an incident just recorded is shown: its case, or the incident when it opened several."""
    cases = list(incident.cases.order_by("number"))
    if len(cases) == 1:
        return reverse("staff:case", args=[cases[0].number])
    return reverse("staff:incident", args=[incident.number])


def _intake_words(incident: Incident) -> str:
    numbers = list(incident.cases.order_by("number").values_list("number", flat=True))
    cases = f"case {numbers[0]}" if len(numbers) == 1 else "cases " + ", ".join(numbers)
    return f"incident {incident.number}" + (f" ({cases})" if numbers else "")


def _intake_field(field: str) -> str:
    """The form field an act's error names (acts name their own arguments)."""
    if field.startswith("facts."):
        return "fact-" + field.split(".", 1)[1]
    if field.startswith(("victims[", "witnesses[", "evidence[")):
        kind, rest = field.split("[", 1)
        index, _, attr = rest.partition("].")
        if kind == "evidence":
            return "evidence"
        return f"{kind.removesuffix('s')}-{index}-{attr}"
    return field


def _record(request, data: intake.IntakeData, facts: dict, token: str) -> Incident:
    """Every record of the intake in one transaction: nothing is kept if any part is refused."""
    user = request.user
    jurisdiction = data.jurisdiction
    with transaction.atomic():
        onetime.claim(token, user=user, form="incident")  # first: a second submission of this form waits here
        dogs: list[Dog] = []
        for n, row in enumerate(data.dogs):
            p = f"dog-{row.index}-"
            if row.existing:
                dog = Dog.objects.filter(pk=row.existing if row.existing.isdecimal() else 0).first()
                if dog is None or dog.jurisdiction != jurisdiction:
                    raise acts.InvalidInput(p + "existing", "choose a dog recorded in this city")
                dogs.append(dog)
                continue
            owner = _owner(row, jurisdiction, user, f"{token}:owner:{n}")
            premises = _premises(row, jurisdiction, user, f"{token}:premises:{n}")
            try:
                dog = acts.record_dog(
                    jurisdiction=jurisdiction,
                    actor=user,
                    owners=[owner],
                    premises=premises,
                    idempotency_key=f"{token}:dog:{n}",
                    name=row.get("name"),
                    breed=row.get("breed"),
                    colour=row.get("colour"),
                    sex=row.sex,
                    birth_year=int(row.birth_year) if row.birth_year else None,
                    microchip_manufacturer=row.get("microchip_manufacturer"),
                    microchip_number=row.get("microchip_number"),
                    licence_number=row.get("licence_number"),
                )
            except acts.InvalidInput as exc:
                raise acts.InvalidInput(p + exc.field, exc.rule) from None
            dogs.append(dog)
        uploads = request.FILES.getlist("evidence")
        incident = acts.record_incident(
            jurisdiction=jurisdiction,
            actor=user,
            occurred_at=data.occurred_at,
            place=data.place,
            place_type=data.place_type,
            kind=data.kind,
            dogs=dogs,
            facts=facts,
            narrative=data.narrative,
            victims=[
                {
                    "kind": v.kind,
                    "name": v.name,
                    "injury": v.injury,
                    "conduct": _conduct_words(v, library().get(jurisdiction).facts),
                }
                for v in data.victims
            ],
            witnesses=[
                {"name": w.name, "contact": w.contact, "statement": w.statement} for w in data.witnesses
            ],
            # a file's name stands for a description not given (the name itself is kept whole with the file)
            evidence=[(u, data.evidence_description or (u.name or "")[:200]) for u in uploads],
            idempotency_key=f"{token}:incident",
        )
        if data.latitude or data.longitude:
            acts.set_location(
                incident,
                actor=user,
                latitude=data.latitude,
                longitude=data.longitude,
                source=data.location_source,
                detail="at intake",
            )
        for n, dog in enumerate(dogs):
            acts.open_case(incident=incident, dog=dog, actor=user, idempotency_key=f"{token}:case:{n}")
        onetime.recorded(token, label=_intake_words(incident), url=_intake_url(incident))
    return incident


def _conduct_words(v: intake.VictimRow, vocabulary) -> str:
    if v.conduct_none:
        words = "None of these"
    else:
        words = ", ".join(intake.label_of(vocabulary, "victim_conduct", c) for c in v.conduct)
    if v.conduct_note:
        words = f"{words}. {v.conduct_note}" if words else v.conduct_note
    return words  # record_incident holds it to its column, with a message on the field


def _owner(row: intake.DogRow, jurisdiction: str, user, key: str) -> Person:
    p = f"dog-{row.index}-"
    if row.owner_existing:
        person = Person.objects.filter(pk=row.owner_existing if row.owner_existing.isdecimal() else 0).first()
        if person is None or person.jurisdiction != jurisdiction:
            raise acts.InvalidInput(p + "owner_existing", "choose an owner recorded in this city")
        return person
    try:
        return acts.record_person(
            jurisdiction=jurisdiction,
            actor=user,
            idempotency_key=key,
            full_name=row.get("owner_name"),
            phone=row.get("owner_phone"),
            email=row.get("owner_email"),
            street=row.get("owner_street"),
            city_name=row.get("owner_city"),
            postal_code=row.get("owner_zip"),
            preferred_language=row.owner_language,
        )
    except acts.InvalidInput as exc:
        field = {"full_name": "owner_name", "email": "owner_email"}.get(exc.field, f"owner_{exc.field}")
        raise acts.InvalidInput(p + field, exc.rule) from None


def _premises(row: intake.DogRow, jurisdiction: str, user, key: str) -> Premises | None:
    p = f"dog-{row.index}-"
    if not row.get("premises_street"):
        return None
    landlord = None
    if row.tenure == Premises.Tenure.RENTED and row.get("landlord_name"):
        try:
            landlord = acts.record_person(
                jurisdiction=jurisdiction,
                actor=user,
                full_name=row.get("landlord_name"),
                phone=row.get("landlord_phone"),
                street=row.get("landlord_street"),
                city_name=row.get("landlord_city"),
                postal_code=row.get("landlord_zip"),
                idempotency_key=f"{key}:landlord",
            )
        except acts.InvalidInput as exc:
            raise acts.InvalidInput(p + "landlord_name", exc.rule) from None
    try:
        return acts.record_premises(
            jurisdiction=jurisdiction,
            actor=user,
            street=row.get("premises_street"),
            unit=row.get("premises_unit"),
            city_name=row.get("premises_city"),
            postal_code=row.get("premises_zip"),
            tenure=row.tenure,
            landlord=landlord,
            idempotency_key=key,
        )
    except acts.InvalidInput as exc:
        raise acts.InvalidInput(p + f"premises_{exc.field}", exc.rule) from None


@staff_required
@require_POST
def classify_partial(request):
    """The htmx partial: which designations the facts entered so far support, and why."""
    user = request.user
    cities = _require_intake(user)
    jurisdiction = (request.POST.get("jurisdiction") or "").strip()
    j = library().get(jurisdiction if jurisdiction in cities else cities[0])
    now, _ = now_and_today()
    data = intake.parse(request.POST, vocabulary=j.facts, tz=j.tz, now=now)
    # the panel, and the one-line summary a phone keeps in view (out of band)
    return render(request, "staff/_partials/classification_live.html", {"c": _classify(data, user)})


@staff_required
def intake_row(request, kind: str):
    """One more dog, victim or witness block for the intake form (htmx), numbered after the last one."""
    if kind not in ROW_KINDS:
        raise Http404("No such part of the form.")
    _require_intake(request.user)
    try:
        index = int(request.GET.get("index", "0"))
    except ValueError:
        return HttpResponseBadRequest("index must be a number")
    if not 0 <= index < 50:
        return HttpResponseBadRequest("too many rows")
    context = _form_context(request, intake.IntakeData(), token="")
    row = {
        "dog": intake.DogRow(index=index),
        "victim": intake.VictimRow(index=index),
        "witness": intake.WitnessRow(index=index),
    }[kind]
    context.update({"row": row, "next": index + 1, "oob": True})
    return render(request, f"staff/_partials/{kind}_row.html", context)

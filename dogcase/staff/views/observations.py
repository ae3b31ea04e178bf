"""The rabies observations a bite to a person starts: the list of a user's cities, and one observation's page,
where the staff who keep them record where the dog is held, the veterinarian, the vaccination (and its record,
a file) and the outcome. Each change is an act (dogcase.cases.acts.record_observation), audited with its
actor; the page shows the history of those events.

The observation is the city's procedure, never a provision: the page says so, with the defect the city's
pack records (its text is silent), and cites no section for it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse

from dogcase.cases import acts, guards
from dogcase.cases.access import cities_of
from dogcase.cases.act_forms import clean_token, new_form_token
from dogcase.cases.guards import is_read_only, staff_required
from dogcase.cases.models import Case, Event
from dogcase.cases.observations import RabiesObservation
from dogcase.cases.pages import city_names, now_and_today, sentence
from dogcase.law import library

FORM_FIELDS = (
    "held_at",
    "held_place",
    "veterinarian",
    "veterinarian_contact",
    "vaccination",
    "vaccinated_on",
    "outcome",
    "outcome_on",
    "outcome_note",
)
# an act's field name -> the form's (the same here; the file and the reason are the form's own)
FILE_FIELD = "vaccination_record"


def _words(obs: RabiesObservation, today) -> str:
    if obs.status == RabiesObservation.Status.ENDED:
        return f"Ended: {obs.get_outcome_display().lower()}"
    left = (obs.ends_on - today).days
    if left < 0:
        return f"Overdue: the observation ended on {obs.ends_on:%-d %B %Y} and no outcome is recorded"
    if left == 0:
        return "Under way: its last day is today"
    return f"Under way: {left} day{'s' if left != 1 else ''} left, to {obs.ends_on:%-d %B %Y}"


@staff_required
def observation_list(request):
    _, today = now_and_today()
    cities = cities_of(request.user)
    rows = (
        RabiesObservation.objects.filter(jurisdiction__in=cities)
        .select_related("dog", "incident")
        .order_by("-status", "ends_on", "pk")[:200]
    )
    names = city_names(cities)
    return render(
        request,
        "staff/observations.html",
        {
            "rows": [
                {"obs": o, "words": _words(o, today), "city": names.get(o.jurisdiction, o.jurisdiction)}
                for o in rows
            ],
            "show_city": len(cities) > 1,
        },
    )


def _history(obs: RabiesObservation) -> list[Event]:
    acts_of = ("start_rabies_observation", "record_rabies_observation")
    events = Event.objects.filter(jurisdiction=obs.jurisdiction, act__in=acts_of, data__id=obs.pk)
    return list(events.select_related("actor").order_by("seq"))


@staff_required
def observation_detail(request, pk: int):
    obs = guards.in_cities(RabiesObservation.objects.select_related("dog", "incident"), request.user, pk=pk)
    _, today = now_and_today()
    rule = acts.observation_rule(obs.jurisdiction)
    j = library().get(obs.jurisdiction)
    defect = next((d for d in j.defects if rule and f"{d.pack}:{d.id}" == rule.as_dict()["defect"]), None)
    may_keep = not is_read_only(request.user) and acts.may_keep_observation(request.user, obs)
    values = {name: _shown(obs, name) for name in FORM_FIELDS}
    values["reason"] = ""
    errors: dict[str, str] = {}
    status = 200
    token = new_form_token()
    if request.method == "POST":
        if not may_keep:
            guards.require_writer(request.user)
            raise PermissionDenied("Your role may not record rabies observations in this city.")
        token = clean_token(request.POST.get("idempotency_key")) or token
        sent = {name: (request.POST.get(name) or "").strip() for name in FORM_FIELDS}
        changed = {name: v for name, v in sent.items() if v != values[name]}
        values.update(sent)
        values["reason"] = (request.POST.get("reason") or "").strip()
        upload = request.FILES.get(FILE_FIELD)
        version = request.POST.get("version", "")
        try:
            if not changed and upload is None:
                raise acts.InvalidInput("held_at", "nothing changed: give a new value or attach the record")
            acts.record_observation(
                obs,
                actor=request.user,
                values=changed,
                vaccination_record=upload,
                reason=values["reason"],
                expected_version=int(version) if version.isdecimal() else None,
                idempotency_key=token,
            )
        except acts.InvalidInput as exc:
            errors[exc.field if exc.field in (*FORM_FIELDS, FILE_FIELD, "reason") else "held_at"] = sentence(
                exc.rule
            )
            status = 400
        except acts.StaleObservation as exc:
            errors["held_at"] = str(exc)
            obs.refresh_from_db()
            values = {name: _shown(obs, name) for name in FORM_FIELDS} | {"reason": ""}
            status = 409
        else:
            messages.success(request, "Recorded. The change is in the observation's history below.")
            return redirect(reverse("staff:observation", args=[obs.pk]))
    cases = Case.objects.filter(incident=obs.incident, dog=obs.dog).order_by("pk")
    return render(
        request,
        "staff/observation.html",
        {
            "obs": obs,
            "words": _words(obs, today),
            "rule": rule,
            "defect": defect,
            "held_label": rule.held_at_label(obs.held_at) if rule else "",
            "held_choices": [(h.id, h.label) for h in rule.held_at] if rule else [],
            "vaccination_choices": RabiesObservation.Vaccination.choices,
            "outcome_choices": RabiesObservation.Outcome.choices,
            "cases": cases,
            "history": _history(obs),
            "may_keep": may_keep,
            "values": values,
            "errors": errors,
            "token": token,
            "today": today.isoformat(),
        },
        status=status,
    )


def _shown(obs: RabiesObservation, name: str) -> str:
    value = getattr(obs, name)
    if value is None:
        return ""
    return value.isoformat() if hasattr(value, "isoformat") else str(value)

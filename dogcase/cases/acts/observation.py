"""The rabies observation of a dog that bit a person: started when the bite is recorded, kept by staff (where
the dog is held, the veterinarian, the vaccination record), ended by its outcome.

The city's pack sets it (`rabies_observation:`, law/observation.py) as the city's procedure: no text in the
packs says anything of rabies observation, so nothing here cites a section of an ordinance. Every change is an
audited event with its actor; a change after the outcome is a correction (a new event) and needs a reason. The observation's
obligation (the veterinarian's report and the outcome, due on the last day) is a row among the case's
obligations, so that the dashboards and the reminders carry it; the law engine never computes it, and
`recompute_obligations` leaves it to `keep_observation_row`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from dogcase.cases.access import require_city, staff_roles, staff_roles_for_pack_roles
from dogcase.cases.acts.core import (
    REASON_LIMIT,
    STATEMENT_LIMIT,
    ActError,
    InvalidInput,
    check_lengths,
    check_text,
    lock_city,
    now,
    record_event,
    replayed,
    store,
)
from dogcase.cases.audit import jsonable
from dogcase.cases.models import Case, Incident, Obligation, Task, jurisdiction_of
from dogcase.cases.observations import OBSERVATION_DEADLINE, RabiesObservation
from dogcase.cases.record_facts import PERSON, bites_on_a_person
from dogcase.law import library

# what staff may set on an observation (the form's fields), in the order the event lists them
FIELDS = (
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


class StaleObservation(ActError):
    """Someone else changed the observation since the form was opened."""

    def __init__(self, observation: RabiesObservation, expected: int) -> None:
        self.expected = expected
        super().__init__(
            f"The rabies observation of {observation.dog.name} changed since you opened it. Nothing was "
            "saved; review it as it is now and try again.",
        )


def observation_rule(jurisdiction: str):
    """The city's rabies observation (law/observation.py), or None when its pack sets none."""
    return library().get(jurisdiction).rabies_observation


def observation_roles(jurisdiction: str) -> frozenset[str]:
    """The staff roles that keep the city's observations (the pack's roles), and the administrator."""
    rule = observation_rule(jurisdiction)
    if rule is None:
        return frozenset()
    return staff_roles_for_pack_roles(jurisdiction, rule.roles) | {"administrator"}


def may_keep_observation(user, observation: RabiesObservation) -> bool:
    return bool(staff_roles(user) & observation_roles(observation.jurisdiction))


def _roles_text(jurisdiction: str) -> str:
    roles = sorted(observation_roles(jurisdiction) - {"administrator"})
    return "," + ",".join(roles) + "," if roles else ""


def _people_bitten(victims) -> list[str]:
    return [v.name for v in victims if v.kind == PERSON and v.injury != "none"] or [
        v.name for v in victims if v.kind == PERSON
    ]


def start_observations(incident: Incident, *, actor, at: dt.datetime) -> list[RabiesObservation]:
    """Start the observation of each dog of the incident when the incident records a bite to a person and the
    city's pack sets an observation; a dog already under observation for this incident is left as it is.
    Runs inside the act that recorded the bite (its transaction, its city lock)."""
    rule = observation_rule(incident.jurisdiction)
    victims = list(incident.victims.all())
    if rule is None or not bites_on_a_person(incident.facts, victims):
        return []
    bite_on = timezone.localtime(incident.occurred_at, jurisdiction_of(incident).tz).date()
    bitten = ", ".join(_people_bitten(victims))[:500]
    started = []
    for dog in incident.dogs.order_by("pk"):
        if RabiesObservation.objects.filter(incident=incident, dog=dog).exists():
            continue
        observation = RabiesObservation.objects.create(
            jurisdiction=incident.jurisdiction,
            dog=dog,
            incident=incident,
            bitten=bitten,
            bite_on=bite_on,
            period_days=rule.period_days,
            ends_on=rule.ends_on(bite_on),
            started_at=at,
            started_by=actor,
            updated_at=at,
        )
        record_event(
            actor=actor,
            jurisdiction=incident.jurisdiction,
            act="start_rabies_observation",
            summary=(
                f"Rabies observation of {dog.name} started: {rule.period_days} days from the bite on "
                f"{bite_on:%-d %B %Y}, to {observation.ends_on:%-d %B %Y} ({rule.citation})"
            )[:500],
            data={
                "id": observation.pk,
                "incident": incident.pk,
                "dog": dog.pk,
                "bitten": bitten,
                "bite_on": bite_on,
                "period_days": rule.period_days,
                "ends_on": observation.ends_on,
                "rule": rule.as_dict(),
            },
            at=at,
        )
        for case in Case.objects.filter(incident=incident, dog=dog, status=Case.Status.OPEN):
            observation_obligation(observation, case, at=at)
        started.append(observation)
    return started


def _midnight_after(jurisdiction: str, day: dt.date) -> dt.datetime:
    tz = library().get(jurisdiction).tz
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=tz)


def observation_obligation(observation: RabiesObservation, case: Case, *, at: dt.datetime) -> Obligation:
    """The observation's obligation among the case's: the veterinarian's report and the outcome, due on the
    last day of the observation, for the staff who keep observations."""
    rule = observation_rule(observation.jurisdiction)
    citation = rule.citation if rule else ""
    row, _ = Obligation.objects.get_or_create(
        case=case,
        deadline_id=observation.deadline_id,
        defaults={
            "jurisdiction": case.jurisdiction,
            "who": Obligation.Who.CITY,
            "kind": "due",
            "what": (
                f"record the end of {observation.dog.name}'s rabies observation: the veterinarian's "
                "examination and its outcome"
            ),
            "status": "open",
            "due_date": observation.ends_on,
            "staff_roles": _roles_text(observation.jurisdiction),
            "detail": {
                "citations": [{"citation": citation}] if citation else [],
                "consequences": [],
                "rule": "",
                "notes": [rule.note] if rule and rule.note else [],
                "reason": "",
                "from": ["the day of the bite"],
            },
            "updated_at": at,
        },
    )
    keep_observation_row(row, at)
    return row


def keep_observation_row(row: Obligation, at: dt.datetime) -> dict | None:
    """The observation's row as its own clock and record say (recompute_obligations hands it here, the law
    engine never computes it): met once the outcome is recorded; withdrawn with its case closed; overdue
    after its last day, else open. An overdue row keeps a `sweep_at` until the sweep has raised its task."""
    pk = row.deadline_id.removeprefix(OBSERVATION_DEADLINE)
    observation = RabiesObservation.objects.filter(pk=int(pk)).first() if pk.isdecimal() else None
    if observation is None:
        status, sweep_at = "withdrawn", None
    elif observation.status == RabiesObservation.Status.ENDED:
        status, sweep_at = "met", None
    elif row.case.status == Case.Status.CLOSED:
        # the case's obligations end with it; the observation's own page still says it is under way
        status, sweep_at = "withdrawn", None
    elif timezone.localtime(at, jurisdiction_of(row).tz).date() > observation.ends_on:
        status = "overdue"
        sweep_at = row.sweep_at if row.status == "overdue" else at
    else:
        status, sweep_at = "open", _midnight_after(row.jurisdiction, observation.ends_on)
    due = observation.ends_on if observation is not None else row.due_date
    change = None
    if (row.status, row.due_date) != (status, due):
        change = {
            "deadline": row.deadline_id,
            "old_due": row.due_date.isoformat() if row.due_date else None,
            "new_due": due.isoformat() if due else None,
            "old_status": row.status,
            "status": status,
        }
    if (row.status, row.sweep_at, row.due_date) != (status, sweep_at, due):
        row.status, row.sweep_at, row.due_date = status, sweep_at, due
        row.met_by = "record_rabies_observation" if status == "met" else ""
        row.updated_at = at
        row.save()
    return change


def _clean(observation: RabiesObservation, values: Mapping[str, Any], today: dt.date) -> dict[str, Any]:
    """The values given, checked: an error names its field."""
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "unknown field")
    out: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, str):
            value = value.strip()
        out[name] = value
    rule = observation_rule(observation.jurisdiction)
    held = out.get("held_at")
    if held and (rule is None or not rule.held_at_label(held)):
        offered = "; ".join(h.label for h in rule.held_at) if rule else "none"
        raise InvalidInput("held_at", f"choose one of the places the city's procedure allows: {offered}")
    if out.get("vaccination") and out["vaccination"] not in RabiesObservation.Vaccination.values:
        raise InvalidInput("vaccination", "choose one of the answers offered")
    if out.get("outcome") and out["outcome"] not in RabiesObservation.Outcome.values:
        raise InvalidInput("outcome", "choose one of the outcomes offered")
    for name in ("vaccinated_on", "outcome_on"):
        if name not in out:
            continue
        day = out[name]
        if day in ("", None):
            out[name] = None
            continue
        if isinstance(day, str):
            try:
                day = dt.date.fromisoformat(day)
            except ValueError:
                raise InvalidInput(name, "give a date as YYYY-MM-DD") from None
        if day > today:
            raise InvalidInput(name, "cannot be in the future")
        out[name] = day
    if out.get("outcome_on") and out["outcome_on"] < observation.bite_on:
        raise InvalidInput("outcome_on", "cannot be before the day of the bite")
    check_lengths(RabiesObservation, {k: v for k, v in out.items() if isinstance(v, str)})
    check_text("outcome_note", out.get("outcome_note") or "", STATEMENT_LIMIT)
    return out


def record_observation(
    observation: RabiesObservation,
    *,
    actor,
    values: Mapping[str, Any],
    vaccination_record=None,
    reason: str = "",
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    at: dt.datetime | None = None,
) -> RabiesObservation:
    """Record where the dog is held, its veterinarian, its vaccination (and the record, a file), or the
    outcome, which ends the observation and meets its obligation. Only the values that change are written, in
    one audited event with the old and new values. After the outcome, a change is a correction: it needs a
    reason, and the earlier events stay as they were."""
    require_city(actor, observation.jurisdiction)
    if not may_keep_observation(actor, observation):
        raise PermissionDenied("Your role may not record rabies observations in this city.")
    at = at or now()
    today = timezone.localtime(at, jurisdiction_of(observation).tz).date()
    cleaned = _clean(observation, values, today)
    reason = (reason or "").strip()
    check_text("reason", reason, REASON_LIMIT)
    with transaction.atomic():
        lock_city(observation.jurisdiction)
        replay = replayed(idempotency_key, actor=actor, act="record_rabies_observation")
        if replay is not None:
            return RabiesObservation.objects.get(pk=replay.data["id"])
        observation = RabiesObservation.objects.select_for_update().get(pk=observation.pk)
        if expected_version is not None and observation.version != expected_version:
            raise StaleObservation(observation, expected_version)
        changes = {
            name: {"old": getattr(observation, name), "new": value}
            for name, value in cleaned.items()
            if (getattr(observation, name) or None) != (value or None)
        }
        stored = None
        if vaccination_record is not None:
            stored = store(vaccination_record, "vaccination_record", observation.jurisdiction, actor, at)
            changes["vaccination_record"] = {
                "old": observation.vaccination_record_id,
                "new": {"id": stored.pk, "sha256": stored.sha256, "name": stored.original_name},
            }
        if not changes:
            raise InvalidInput(next(iter(cleaned), "held_at"), "nothing changed: give a new value")
        outcome = cleaned.get("outcome", observation.outcome)
        if outcome and not cleaned.get("outcome_on", observation.outcome_on):
            raise InvalidInput("outcome_on", "give the date of the outcome")
        if cleaned.get("outcome_on") and not outcome:
            raise InvalidInput("outcome", "choose the outcome the date is for")
        correcting = observation.status == RabiesObservation.Status.ENDED
        if correcting and not reason:
            raise InvalidInput("reason", "the outcome is recorded: say why this is corrected")
        for name, change in changes.items():
            if name != "vaccination_record":
                setattr(observation, name, change["new"])
        if stored is not None:
            observation.vaccination_record = stored
        ending = bool(outcome) and observation.status == RabiesObservation.Status.UNDER_WAY
        if ending:
            observation.status = RabiesObservation.Status.ENDED
        elif not outcome:
            observation.status = RabiesObservation.Status.UNDER_WAY
        observation.version += 1
        observation.updated_at = at
        observation.save()
        words = ", ".join(_change_words(observation, name) for name in changes)
        record_event(
            actor=actor,
            jurisdiction=observation.jurisdiction,
            act="record_rabies_observation",
            summary=(
                f"Rabies observation of {observation.dog.name}"
                + (" corrected" if correcting else (" ended" if ending else " recorded"))
                + f": {words}"
                + (f" — reason: {reason}" if reason else "")
            )[:500],
            data=jsonable(
                {"id": observation.pk, "changes": changes, "correction": correcting, "reason": reason}
            ),
            at=at,
            key=idempotency_key,
        )
        for row in Obligation.objects.filter(deadline_id=observation.deadline_id):
            keep_observation_row(row, at)
            if row.status == "met":
                Task.objects.filter(obligation=row, done_at__isnull=True).update(done_at=at, done_by=actor)
    return observation


def _change_words(observation: RabiesObservation, name: str) -> str:
    if name == "vaccination_record":
        return "vaccination record attached"
    if name == "held_at":
        rule = observation_rule(observation.jurisdiction)
        return f"held: {rule.held_at_label(observation.held_at) if rule else observation.held_at}".lower()
    label = RabiesObservation._meta.get_field(name).verbose_name
    value = getattr(observation, f"get_{name}_display", lambda: getattr(observation, name))()
    if isinstance(value, dt.date):
        value = f"{value:%-d %B %Y}"
    return f"{label}: {value or 'cleared'}"


def rebuild_observation_rows(at: dt.datetime, jurisdictions) -> int:
    """The row of each observation whose open case has none (deleted behind the application's back), written
    again: `dogcase sweep --full`, as the law's rows are. How many were written."""
    written = 0
    for obs in RabiesObservation.objects.filter(jurisdiction__in=list(jurisdictions)).select_related("dog"):
        cases = Case.objects.filter(incident_id=obs.incident_id, dog_id=obs.dog_id, status=Case.Status.OPEN)
        for case in cases.exclude(obligations__deadline_id=obs.deadline_id):
            with transaction.atomic():
                observation_obligation(obs, case, at=at)
            written += 1
    return written

"""Open cases brought in at the stage they have reached (a file of kind "cases", one row a case).

A city that adopts dogcase has cases under way: declared, the notice served, a hearing asked for, held or
decided. A row names the case's incident and dog (brought in earlier) and the dates of what was done. Each of
those steps is recorded as the city's procedure has it (the step of the city's law pack that does that act),
taken on its real date through the cases' act for steps taken before dogcase
(`documents.acts.record_step_taken_before`): the law engine checks each as it would have then (the order of the
steps, their dates, what each needs, the hearing officer's impartiality), and the obligations are computed from
those dates as if the case had been run in dogcase. Then they are brought up to the moment of the import: a
deadline already missed is overdue at once, and the case page says so.

The notices those steps issued were issued outside dogcase: nothing is rendered, and what they contained is
what the law requires, as the person who brings the file in attests (service.confirm); every recorded step keeps
the file, the row, and who attested. The check (a dry run) records each case and takes it back, so it reports
every refusal the real import would meet, by row and column.

Stages beyond the decision (registration, seizure, review) are recorded by hand once the case is here."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.acts.declarations import FIELD as REASON_INPUT
from dogcase.cases.hearings import booked_words, designatable_staff, hearing_length, place_key
from dogcase.cases.models import Case, Dog, Incident, Ownership
from dogcase.documents.acts import record_step_taken_before
from dogcase.imports import fields as F
from dogcase.law.procedure.model import Actor

# The walk of a file (dogcase.imports.walk.Walk) calls this module for each row; naming its class here would make
# the two modules import each other.
Walk = Any


@dataclass(frozen=True)
class Stage:
    """A stage of a case's main line: the step of the city's procedure that does `act`, dated by `date_field`."""

    name: str
    date_field: str
    words: str  # what was done, in words ("the notice served")

    def fits(self, step) -> bool:
        if self.name == "declare":
            return bool(step.opens_case)
        if step.repeatable or getattr(step, "service_of", None):
            return False
        if self.name == "serve":
            return step.act == "serve_notice" and not step.administrative and bool(step.documents)
        return step.act == ACT_OF[self.name]


ACT_OF = {
    "request": "receive_hearing_request",
    "schedule": "schedule_hearing",
    "hold": "hold_hearing",
    "decide": "decide_appeal",
}
STAGES = (
    Stage("declare", "declared_on", "the declaration"),
    Stage("serve", "notice_served_on", "the notice served"),
    Stage("request", "hearing_requested_on", "the hearing requested"),
    Stage("schedule", "hearing_scheduled_on", "the hearing scheduled"),
    Stage("hold", "held_on", "the hearing held"),
    Stage("decide", "decided_on", "the decision"),
)
# a row's dates, in the order they must keep
DATES = ("opened_on", "declared_on", "notice_served_on", "notice_received_on", "hearing_requested_on",
         "hearing_scheduled_on", "held_on", "decided_on", "decision_received_on")  # fmt: skip
WORDS = {
    "opened_on": "the case opened",
    "notice_received_on": "the notice received",
    "decision_received_on": "the decision received",
} | {s.date_field: s.words for s in STAGES}
# an optional date of a step's form, filled from the row: (stage, input) -> our field
OPTIONAL_DATES = {
    ("declare", "declared_on"): "declared_on",
    ("serve", "received_on"): "notice_received_on",
    ("schedule", "mailed_on"): "hearing_scheduled_on",
    ("decide", "decided_on"): "decided_on",
    # the owner's receipt of the decision (their time to comply counts from it): only as the row gives it
    ("decide", "delivered_on"): "decision_received_on",
    ("decide", "notified_on"): "decision_received_on",
}
# a text a step's form requires, from the row: (stage, input kind) -> our field
TEXTS = {"declare": "basis", "serve": "served_to", "schedule": "hearing_place", "decide": "reasons"}
NOON = dt.time(12, 0)


def _loose(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(text).lower())


class Refusal(Exception):
    """A stage of the row could not be recorded: (our field, what is wrong)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field
        self.problem = problem


class _TakeBack(Exception):
    """The dry run: the case was recorded only to see that it could be; it is taken back."""


def case_row(walk: Walk, number: int, row: list[str]) -> None:
    """One row of a file of open cases: checked, then its case recorded stage by stage (or, in the check, recorded
    and taken back); each problem goes to `walk.row_problems` under our field."""
    try:
        _case_row(walk, number, row)
    except Refusal as exc:
        walk.row_problems.append((exc.field, exc.problem))


def _case_row(walk: Walk, number: int, row: list[str]) -> None:
    ref = walk.ref_of(row)
    if ref and ref in walk.seen_refs:
        raise Refusal("ref", f"the same id as row {walk.seen_refs[ref]}")
    if ref:
        walk.seen_refs[ref] = number
        if (pk := walk.by_ref("case", ref)) is not None:
            walk.remember(number, "case", ref, pk, False)
            return
    incident = _incident(walk, row)
    dog = _dog(walk, row, incident)
    days = {name: walk.read(row, name, F.date_of) for name in DATES}
    hearing_at = walk.read(row, "hearing_at", F.datetime_of)
    designation = _designation(walk, row) if walk.cell(row, "designation") else None
    if walk.row_problems:
        return
    _check_dates(walk, days, incident, designation)
    _check_hearing(walk, days, hearing_at)
    if (earlier := walk.case_rows.get((incident.pk, dog.pk))) is not None:
        raise Refusal("incident_ref", f"row {earlier} is the case of the same incident and dog")
    walk.case_rows[(incident.pk, dog.pk)] = number
    already = Case.objects.filter(incident=incident, dog=dog).values_list("number", flat=True).first()
    if already is not None:
        # a case already here keeps its own record: a row never re-dates it (a file brought in again finds its
        # cases by their ids, above)
        raise Refusal(
            "incident_ref", f"this incident's case for this dog is already in dogcase (case {already})"
        )
    room = _room(walk, row, hearing_at)
    try:
        with transaction.atomic():
            case = _record(walk, number, row, incident, dog, days, hearing_at, designation)
            if not walk.commit:
                raise _TakeBack
    except _TakeBack:
        case = None
    if room is not None:
        walk.rooms.append((*room, number))
    walk.remember(number, "case", ref, case.pk if case is not None else None, True)


# ------------------------------------------------------------------------------------------- the cells


def _incident(walk: Walk, row: list[str]) -> Incident:
    ref = walk.ref_of(row, "incident_ref")
    if not ref:
        raise Refusal("incident_ref", "name the case's incident (the source's id for it, or its number here)")
    pk = walk.by_ref("incident", ref)
    query = Incident.objects.filter(jurisdiction=walk.city)
    found = query.filter(pk=pk).first() if isinstance(pk, int) else query.filter(number=ref).first()
    if found is None:
        raise Refusal(
            "incident_ref",
            f"no incident of the city has the id or number “{ref}”: bring in the incidents first",
        )
    return found


def _dog(walk: Walk, row: list[str], incident: Incident) -> Dog:
    named = list(incident.dogs.all())
    ref = walk.ref_of(row, "dog_ref")
    if not ref:
        if len(named) == 1:
            return named[0]
        raise Refusal("dog_ref", "the incident names several dogs: say which dog the case is about")
    pk = walk.by_ref("dog", ref)
    dog = next((d for d in named if d.pk == pk or _loose(d.microchip_number) == _loose(ref)), None)
    if dog is None:
        raise Refusal("dog_ref", f"the incident names no dog with the id or microchip “{ref}”")
    return dog


def _designation(walk: Walk, row: list[str]) -> str | None:
    text = walk.cell(row, "designation")
    known = {_loose(key): key for key in walk.j.designations} | {
        _loose(d.label): key for key, d in walk.j.designations.items()
    }
    if _loose(text) in known:
        return known[_loose(text)]
    words = " or ".join(f"“{d.label}”" for d in walk.j.designations.values())
    walk.row_problems.append(("designation", f"not a designation of this city's law: write {words}"))
    return None


def _check_dates(walk: Walk, days: dict, incident: Incident, designation: str | None) -> None:
    """What a row's dates must be before anything is recorded: none in the future, none before the incident,
    and each stage after the declaration given only with the declaration."""
    incident_day = timezone.localtime(incident.occurred_at).date()
    for name, day in days.items():
        if day is None:
            continue
        if day > walk.today:
            raise Refusal(name, "a date of what was done cannot be in the future")
        if day < incident_day:
            raise Refusal(name, f"before the incident ({incident_day:%Y-%m-%d})")
    earlier: tuple[str, dt.date] | None = None
    for name in DATES:
        if days[name] is None:
            continue
        if earlier is not None and days[name] < earlier[1]:
            raise Refusal(
                name, f"before {WORDS[earlier[0]]} ({earlier[1]:%Y-%m-%d}): the dates are out of order"
            )
        earlier = (name, days[name])
    if days["declared_on"] is None:
        later = next((s for s in STAGES[1:] if days[s.date_field] is not None), None)
        if later is not None:
            raise Refusal("declared_on", f"{later.words} needs the date of the declaration")
        if designation:
            raise Refusal("declared_on", "a designation needs the date it was declared")
    elif not designation:
        raise Refusal("designation", "a case declared says what the dog was declared")


def _check_hearing(walk: Walk, days: dict, hearing_at: dt.datetime | None) -> None:
    """A hearing's date and time come with the day it was scheduled, where the city's procedure schedules
    hearings: the notice of the hearing is dated from that day (mailed to the owner then), so it is never
    guessed from another date."""
    if hearing_at is None or days["hearing_scheduled_on"] is not None or not _schedules_hearings(walk):
        return
    raise Refusal(
        "hearing_scheduled_on",
        "give the day the hearing was scheduled (its notice mailed to the owner): the notice of the hearing "
        "is dated from it, and dogcase does not guess it from another date",
    )


def _schedules_hearings(walk: Walk) -> bool:
    return any(step.act == ACT_OF["schedule"] for step in walk.j.procedure(walk.today))


def _room(walk: Walk, row, hearing_at: dt.datetime | None) -> tuple[str, dt.datetime] | None:
    """The room a hearing still to come books, (place, start), where the city's procedure schedules hearings;
    a room an earlier row of the file booked then is the row's problem (the check takes each case back, so
    the file's own bookings are kept here; a hearing already in dogcase is the act's to refuse). A hearing
    already past books none."""
    place = walk.cell(row, "hearing_place")
    if hearing_at is None or hearing_at <= walk.at or not place_key(place) or not _schedules_hearings(walk):
        return None
    length = hearing_length(walk.j)
    for booked, start, number in walk.rooms:
        if booked == place_key(place) and start < hearing_at + length and hearing_at < start + length:
            raise Refusal("hearing_at", booked_words(place, f"row {number} of this file", start, length))
    return place_key(place), hearing_at


# ------------------------------------------------------------------------------------------ recording


def _record(walk: Walk, number: int, row, incident, dog, days, hearing_at, designation) -> Case:
    """Open the case and record each stage the row dates, in order, on its day; then the obligations as of now."""
    record = {
        "import": {"run": walk.run.pk, "row": number, "source": walk.run.source, "file": walk.run.file_name},
        "attested_by": attested_by(walk.run) or ("(the check)" if not walk.commit else ""),
        "notices": "issued outside dogcase",
    }
    opened_day = days["opened_on"] or days["declared_on"] or timezone.localtime(incident.occurred_at).date()
    opened = max(_on(walk, opened_day, 0), incident.occurred_at + dt.timedelta(minutes=1))
    try:
        case = acts.open_case(incident=incident, dog=dog, actor=walk.actor, at=opened)
    except acts.ActError as exc:
        raise Refusal("incident_ref", _words(exc)) from None
    officer = _hearing_officer(walk, row, case, designation, days)
    for index, stage in enumerate(STAGES, start=1):
        day = days[stage.date_field]
        if stage.name == "schedule" and hearing_at is None:
            continue
        if day is None:
            continue
        # a notice (or a decision) received after the day it was served is recorded once both are known (the
        # receipt's day):
        # the clocks count from the dates the step gives, not from the day it was written down
        receipt = {"serve": "notice_received_on", "decide": "decision_received_on"}.get(stage.name)
        recorded_day = max(day, days[receipt] or day) if receipt else day
        at = max(_on(walk, recorded_day, index), opened + dt.timedelta(minutes=index))
        step = _step_for(walk, case, stage, at, designation)
        if step is None:
            if stage.name == "schedule":
                continue  # the city's procedure has no step that schedules a hearing (Tracy's)
            raise Refusal(stage.date_field, f"this city's procedure has no step for {stage.words}")
        given = _inputs(walk, row, case, step, stage, days, day, hearing_at, designation, officer)
        taken_by = officer if officer and stage.name in ("hold", "decide") else f"recorded:{stage.name}"
        try:
            case = record_step_taken_before(
                case,
                step.id,
                recorder=walk.actor,
                inputs=given,
                at=at,
                taken_by=taken_by,
                record=record,
                # a declaration the recorded facts do not support needs its reason, as on the staff's form
                departure_reason=walk.cell(row, "departure_reason"),
            ).case
        except acts.InvalidInput as exc:
            raise Refusal(_field_of(stage, step, exc.field), f"{step.label}: {exc.rule}") from None
        except acts.ActError as exc:
            raise Refusal(stage.date_field, _words(exc)) from None
    case = Case.objects.get(pk=case.pk)
    acts.recompute_obligations(case, at=walk.at)  # as of now: what is overdue is overdue on import
    return case


def attested_by(run) -> str:
    """Who attested, when the file was brought in, what the notices of its cases contained (service.confirm)."""
    return str(((run.summary or {}).get("attested") or {}).get("by") or "")


def _on(walk: Walk, day: dt.date, minutes: int) -> dt.datetime:
    """Noon of `day` in the city's time (and a minute more for each later step of the same day); a step of
    today before noon is recorded a little before the import instead, never later than now."""
    noon = dt.datetime.combine(day, NOON, tzinfo=walk.j.tz)
    latest = walk.at - dt.timedelta(minutes=len(STAGES) + 2)
    return min(noon, max(latest, dt.datetime.combine(day, dt.time(0, 0), tzinfo=walk.j.tz))) + dt.timedelta(
        minutes=minutes
    )


def _step_for(walk: Walk, case: Case, stage: Stage, at: dt.datetime, designation: str | None):
    """The step of the city's procedure that does this stage for the case as it stands: the first allowed, else
    the first that fits (its refusal then says why). A declaration is the step that declares this designation
    (Tracy classifies a dog vicious under its own § 8.31; the state's 347.50 declares the others)."""
    state = acts.case_state(case)
    everyone = Actor(id="import", roles=frozenset(walk.j.roles))
    fitting = [v for v in walk.j.available_steps(state, everyone, at) if stage.fits(v.step)]
    if stage.name == "declare":
        fitting = [
            v
            for v in fitting
            if designation
            in {c["value"] for c in walk.j.input_choices(v.step.id, state, at).get("designation", [])}
        ] or fitting
    allowed = [v for v in fitting if v.allowed]
    chosen = (allowed or fitting or [None])[0]
    return chosen.step if chosen is not None else None


def _inputs(
    walk: Walk, row, case, step, stage, days, day, hearing_at, designation, officer
) -> dict[str, Any]:
    """The step's form filled from the row: its dates, designation, method of service, texts, hearing officer
    and outcome; a field the law requires that the row cannot fill is the row's problem."""
    state = acts.case_state(case)
    choices = walk.j.input_choices(step.id, state, _on(walk, day, 0))
    out: dict[str, Any] = {}
    for inp in step.inputs:
        value: Any = None
        if inp.kind == "designation":
            value = designation
        elif inp.kind == "date":
            mapped = OPTIONAL_DATES.get((stage.name, inp.id))
            if mapped:
                value = days[mapped]
            elif inp.required:
                value = day
        elif inp.kind == "datetime":
            value = hearing_at if stage.name == "schedule" else None
        elif inp.kind == "service_method" and stage.name == "serve":
            value = _choice(walk, row, "served_how", choices.get(inp.id, []), inp.required)
        elif inp.kind == "bool":
            if inp.id == "certified_mail":
                value = "certified" in walk.cell(row, "served_how").lower()
        elif inp.kind == "text":
            field = TEXTS.get(stage.name) if inp.required or stage.name == "decide" else None
            value = walk.cell(row, field) if field else None
            if not value and field == "served_to":
                value = _owner_name(case)
        elif inp.kind == "staff_member":
            value = officer
        elif inp.kind == "outcome":
            value = _choice(walk, row, "decision", choices.get(inp.id, []), inp.required)
        elif inp.kind in ("file", "document", "proofs"):
            continue
        if value in (None, ""):
            if inp.required:
                field = _field_of(stage, step, inp.id)
                raise Refusal(
                    field, f"{step.label}: the law needs “{inp.label}”, which the row does not give"
                )
            continue
        out[inp.id] = value.isoformat() if isinstance(value, dt.date | dt.datetime) else value
    return out


def _choice(walk: Walk, row, field: str, choices: list[dict], required: bool) -> str | None:
    text = walk.cell(row, field)
    if not text:
        return None
    key = _loose(text)
    for c in choices:
        if key in (_loose(c["value"]), _loose(c.get("label", ""))):
            return c["value"]
    for c in choices:  # "personal" for "personal service": the words of one choice alone
        value, label = _loose(c["value"]), _loose(c.get("label", ""))
        if key and (key in value or key in label or (value and value in key)):
            return c["value"]
    words = "; ".join(f"“{c.get('label') or c['value']}”" for c in choices)
    raise Refusal(field, f"not one of this city's choices here: {words}")


def _owner_name(case: Case) -> str:
    owner = (
        Ownership.objects.filter(dog_id=case.dog_id, until__isnull=True)
        .select_related("person")
        .order_by("since", "pk")
        .first()
    )
    return owner.person.full_name if owner else ""


def _hearing_officer(walk: Walk, row, case: Case, designation, days) -> str | None:
    """The hearing officer named in the row, as one of the city's users the law lets hold the hearing."""
    name = walk.cell(row, "hearing_officer")
    if not name:
        return None
    day = days["hearing_scheduled_on"] or days["hearing_requested_on"] or walk.today
    people = designatable_staff(walk.j, "hold_hearing", designation, day)
    key = _loose(name)
    for user in people:
        if key in {_loose(user.get_full_name()), _loose(user.get_username()), _loose(user.email)}:
            return str(user.pk)
    names = ", ".join(u.get_full_name() or u.get_username() for u in people) or "nobody yet"
    raise Refusal("hearing_officer", f"not one of the people who may hold the hearing in this city: {names}")


def _field_of(stage: Stage, step, input_id: str) -> str:
    """Our field for one of a step's inputs (its problem goes to that column), else the stage's date."""
    kind = next((i.kind for i in step.inputs if i.id == input_id), "")
    if input_id == REASON_INPUT:
        return "departure_reason"
    if (stage.name, input_id) in OPTIONAL_DATES:
        return OPTIONAL_DATES[(stage.name, input_id)]
    return {
        "designation": "designation",
        "service_method": "served_how",
        "staff_member": "hearing_officer",
        "outcome": "decision",
        "datetime": "hearing_at",
        "text": TEXTS.get(stage.name, stage.date_field),
    }.get(kind, stage.date_field)


def _words(exc: Exception) -> str:
    return str(exc).replace("\n", " ")

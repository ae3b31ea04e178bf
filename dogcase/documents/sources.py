"""The values of a document's `{source}` placeholders for one case (Sources): from the case's records, its
taken steps and the inputs of the step being taken, and what the city supplied for its offices."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model

from dogcase.cases.acts.moves import destination_words
from dogcase.cases.models import Case, staff_member
from dogcase.cases.roles import ROLES_BY_GROUP
from dogcase.documents.offices import offices_of
from dogcase.documents.words import date_words, humanize, parse, time_words, words
from dogcase.law import CaseState, InputError, TakenStep, library
from dogcase.law.clock import add_months, add_years
from dogcase.law.departures import requirement_amounts


class Sources:
    """The values of the source vocabulary for one case, one step being taken with these inputs, at `at`."""

    def __init__(
        self,
        case: Case,
        j,
        *,
        state: CaseState,
        step=None,
        inputs: Mapping[str, Any] | None = None,
        at: dt.datetime,
        actor=None,
    ) -> None:
        self.case = case
        self.j = j
        self.tz = j.tz
        self.at = at
        self.day = at.astimezone(self.tz).date()
        self.step = step
        self.inputs = dict(inputs or {})
        self.actor = actor
        self.state = state
        taken = list(state.taken)
        if step is not None:
            try:
                events = j.events_of(step.id, at, self.inputs, state)
            except (InputError, KeyError, TypeError, ValueError):
                events = {}
            taken.append(
                TakenStep(
                    step=step.id,
                    at=at,
                    actor=str(getattr(actor, "pk", "")),
                    outcome=self.inputs.get("outcome"),
                    events=events,
                    inputs=self.inputs,
                )
            )
        self.taken = taken
        # the city's choices (City settings) and the facts of the records go with it
        self.future = dataclasses.replace(state, taken=tuple(taken))
        self._obligations = None
        self._owners = None
        self._city_offices: dict[str, dict[str, str]] = {}
        self._acts = {}
        for t in taken:
            for key in {self._act_of(t.step), t.step}:
                self._acts.setdefault(key, []).append(t)

    # -- helpers

    def _act_of(self, step_id: str) -> str:
        try:
            return self.j.step(step_id, self.day).act or step_id
        except (InputError, KeyError):
            return step_id

    def last(self, *acts: str) -> TakenStep | None:
        found = [t for a in acts for t in self._acts.get(a, ())]
        return max(found, key=lambda t: t.at) if found else None

    def input_of(self, acts: tuple[str, ...], *ids: str) -> Any:
        t = self.last(*acts)
        if t is None:
            return None
        for i in ids:
            v = (t.inputs or {}).get(i)
            if v not in (None, "", []):
                return v
        return None

    def _hearing_officer(self) -> str | None:
        """The hearing officer designated when the hearing was scheduled: a member of staff (by name), or, on
        an act recorded before the officer was chosen among the city's users, the name as written."""
        value = self.input_of(("schedule_hearing", "schedule_destruction_hearing"), "hearing_officer")
        if value is None:
            return None
        return staff_member(value)[1] or None

    def event(self, *names: str) -> Any:
        for t in sorted(self.taken, key=lambda t: t.at, reverse=True):
            for n in names:
                if n in (t.events or {}):
                    return t.events[n]
        return None

    def owners(self):
        if self._owners is None:
            self._owners = [
                o.person
                for o in self.case.dog.ownerships.select_related("person").order_by("since", "id")
                if o.until is None or o.until >= self.day
            ]
        return self._owners

    def obligations(self):
        if self._obligations is None:
            try:
                self._obligations = {
                    (ob.deadline_id or f"requirement:{ob.requirement}"): ob
                    for ob in self.j.obligations(self.future, self.at)
                }
            except Exception:  # noqa: BLE001 — a draft never fails on the clock; the deadline shows as missing
                self._obligations = {}
        return self._obligations

    def designation_words(self) -> str | None:
        d = self.state.designation or self.inputs.get("designation")
        if not d:
            return None
        known = self.j.designations.get(d)
        return (known.label if known else humanize(d)).lower()

    # -- the vocabulary

    def value(self, name: str) -> str | None:
        try:
            return self._value(name)
        except (AttributeError, KeyError, LookupError, TypeError, ValueError):
            return None

    def _value(self, name: str) -> str | None:
        case, dog, incident = self.case, self.case.dog, self.case.incident
        head, _, rest = name.partition(".")
        if name == "city.name" or head == "office":
            pack_source = getattr(self.j, "pack_source", None)
            value = words(pack_source(name)) if pack_source is not None else None
            if value is None and head == "office":
                office_id, _, part = rest.rpartition(".")
                if office_id not in self._city_offices:
                    self._city_offices[office_id] = city_office(self.j.id, office_id)
                value = words(self._city_offices[office_id].get(part))
            return value
        if head == "input":
            return words(self.inputs.get(rest), self.tz)
        if head == "deadline":
            deadline_id, _, part = (
                rest.rpartition(".citation") if rest.endswith(".citation") else (rest, "", "")
            )
            ob = self.obligations().get(deadline_id)
            if ob is None:
                return None
            if part or name.endswith(".citation"):
                return "; ".join(c.get("citation", "") for c in ob.citations if c.get("citation")) or None
            return self._deadline_words(ob)
        simple: dict[str, Callable[[], Any]] = {
            "city.name": lambda: self.j.name,
            "today": lambda: date_words(self.day),
            "case.number": lambda: case.number,
            "case.designation": self.designation_words,
            "case.declared_on": lambda: self.event("declaration", "classification"),
            "dog.name": lambda: dog.name,
            "dog.description": lambda: _dog_description(dog),
            "dog.kept_at": lambda: str(dog.premises) if dog.premises_id else None,
            "owner.name": lambda: self.owners()[0].full_name if self.owners() else None,
            "owner.address": lambda: (
                self.owners()[0].address if self.owners() and self.owners()[0].street else None
            ),
            "owner.names": lambda: " and ".join(p.full_name for p in self.owners()) or None,
            "portal.address": self._portal_address,
            "portal.code": self._portal_code,
            "incident.number": lambda: incident.number,
            "incident.date": lambda: date_words(incident.occurred_at, self.tz),
            "incident.time": lambda: time_words(incident.occurred_at, self.tz),
            "incident.place": lambda: incident.place,
            "incident.circumstances": lambda: incident.narrative,
            "declaration.date": lambda: self.event("declaration", "classification"),
            "declarant.name": self._declarant_name,
            "declarant.office": self._declarant_office,
            "issuer.name": self._issuer_name,
            "issuer.office": self._issuer_office,
            "hearing.officer": self._hearing_officer,
            "hearing.subject": self._hearing_subject,
            "decision.outcome": lambda: _outcome(self.input_of(DECISION_ACTS, "outcome")),
            "decision.date": lambda: self._date_of(self.last(*DECISION_ACTS)),
            "recommendation.outcome": lambda: _outcome(self.input_of(("recommend",), "outcome")),
            "council.outcome": lambda: _outcome(_input(self._council(), "outcome")),
            "council.resolution": lambda: (
                _input(self._council(), "resolution") or self.input_of(("order_impoundment",), "resolution")
            ),
            "council.date": lambda: self._date_of(self._council()),
            "requirements.list": self._requirements,
            "registration.conditions": self._conditions,
            "certificate.issued_on": lambda: self.event("registration_issued"),
            "certificate.expires_on": self._certificate_expires,
            "seizure.date": lambda: self.event("seizure", "impoundment"),
            "seizure.ground": lambda: self._ground(),
            "reclaim.requirements": self._reclaim,
            "move.destination": lambda: destination_words(self._move_inputs(), self._move_step()),
            "move.authority": self._move_authority,
        }
        getter = simple.get(name)
        if getter is None:
            if name in INPUT_SOURCES:
                acts, ids = INPUT_SOURCES[name]
                return words(self.input_of(acts, *ids), self.tz)
            return None
        return words(getter(), self.tz)

    def _portal_address(self) -> str:
        from dogcase.owners.urls_util import portal_url

        return portal_url()

    def _portal_code(self) -> str | None:
        from dogcase.owners.notice import code_for

        owners = self.owners()
        return code_for(owners[0]) if owners else "(no owner is on record)"

    def _deadline_words(self, ob) -> str | None:
        """The due date in words; while a later date cannot be computed yet (the date of receipt of a notice
        not yet known), the date known so far and, in words, the later one the owner keeps."""
        if ob.due is not None:
            return date_words(ob.due, self.tz)
        answer = getattr(ob, "answer", None) or {}
        bound = (answer.get("bound") or {}).get("at_least")
        later = []
        for e in answer.get("entries", ()):
            period = e.get("period") or {}
            if e.get("status") != "undetermined" or not period.get("amount") or not e.get("trigger"):
                continue
            unit = "business days" if "business" in str(period.get("unit", "")) else "days"
            cite = (e.get("provision") or {}).get("citation", "")
            event = (
                self.j.event_label(e["trigger"]) if hasattr(self.j, "event_label") else humanize(e["trigger"])
            )
            later.append(f"{period['amount']} {unit} after {event}{f' ({cite})' if cite else ''}")
        if not bound:
            # counted from an event not yet known (the date the owner receives the notice): the rule in words
            return " or ".join(later) or None
        words = date_words(dt.date.fromisoformat(str(bound)[:10]))
        return f"{words}, or, if that is later, {' or '.join(later)}" if later else words

    def _date_of(self, t: TakenStep | None) -> Any:
        """The date a step recorded for itself (its event), else the day it was taken."""
        if t is None:
            return None
        for value in (t.events or {}).values():
            return value
        return t.at.astimezone(self.tz).date()

    def _council(self) -> TakenStep | None:
        """The City Council's last decision: its confirm-or-rescind act, or a step the pack gives the Council
        to take (Tracy's Council decides the appeals itself)."""
        for t in sorted(self.taken, key=lambda t: t.at, reverse=True):
            try:
                step = self.j.step(t.step, self.day)
            except (InputError, KeyError):
                continue
            if step.act == "confirm_or_rescind" or any("council" in r for r in step.roles):
                return t
        return None

    def _offices(self) -> dict:
        return getattr(self.j, "offices", None) or {}

    def _declaration(self) -> TakenStep | None:
        return self.last("declare", "classify")

    def _declarant(self):
        """Who declared the dog; on a case never declared (a 347.56 destruction), the person giving notice."""

        t = self._declaration()
        if t is None:
            return self.actor if self.actor is not None and self.actor.is_authenticated else None
        if not t.actor:
            return None
        return get_user_model().objects.filter(pk=t.actor).first()

    def _declarant_name(self) -> str | None:
        user = self._declarant()
        if user is None:
            return None
        return user.get_full_name() or user.get_username()

    def _declarant_office(self) -> str | None:
        """The office the law names for the declaration (classification) that the person who made it acts in, in
        the pack's words: "City Animal Control Officer", "Tracy City Administrator" — never the staff role of
        their account ("City clerk"). On a case never declared (a 347.56 destruction), the office of the person
        giving notice, for the step taken now."""
        from dogcase.cases.models import Event

        t = self._declaration()
        if t is None:
            return self._issuer_office()
        event = Event.objects.filter(case=self.case, act=t.step, at=t.at).first()
        staff = (event.actor_roles if event else "").split(",")
        designation = (t.inputs or {}).get("designation") or self.state.designation
        return self.office_of(t.step, staff, designation, t.at.astimezone(self.tz).date())

    def _issuer(self) -> tuple[Any, Any]:
        """(the person who takes the step that issues the document, their staff roles): the person taking it now,
        or — the step already recorded, a correction filling its document again — the person who took it, with
        the roles recorded on its event (the corrected version is still the act of the person who took it)."""
        from dogcase.cases.access import staff_roles
        from dogcase.cases.models import Event

        if self.step is not None:
            event = (
                Event.objects.filter(case=self.case, act=self.step.id, at=self.at)
                .select_related("actor")
                .first()
            )
            if event is not None and event.actor is not None:
                return event.actor, event.actor_roles.split(",")
        actor = self.actor
        if actor is None or not getattr(actor, "is_authenticated", False):
            return None, ()
        return actor, staff_roles(actor)

    def _issuer_name(self) -> str | None:
        user, _ = self._issuer()
        return (user.get_full_name() or user.get_username()) if user is not None else None

    def _issuer_office(self) -> str | None:
        user, roles = self._issuer()
        if self.step is None or user is None:
            return None
        designation = self.state.designation or self.inputs.get("designation")
        return self.office_of(self.step.id, roles, designation, self.day)

    def office_of(self, step_id: str, staff, designation: str | None, day: dt.date) -> str | None:
        """The office (a role of the pack, in its words) the law names for the step — its authority's roles for
        the designation, or the roles its reading names — that a person with these staff roles acts as."""
        try:
            step = self.j.step(step_id, day)
            held = self.j.pack_roles_for({r for r in staff if r in ROLES_BY_GROUP})
        except (InputError, KeyError, ValueError):
            return None
        allowed = (step.roles_by_designation.get(designation) if designation else None) or step.roles
        offices = [rid for rid in self.j.roles if rid in allowed and rid in held]
        # a person whose staff role bears the name of one of those offices holds that one (an animal control
        # officer is the "animal control officer", not also the "animal control authority" the agency is)
        named = [rid for rid in offices if rid in staff]
        labels = [self.j.roles[rid].label for rid in named or offices]
        return " and ".join(dict.fromkeys(labels)) or None

    def _hearing_subject(self) -> str | None:
        """What the hearing is about ((I)(2)): the appeal of the declaration, or — a hearing scheduled on the
        appeal of an intended destruction ((K)) — of the intended destruction."""
        scheduled = self.last("schedule_hearing")
        dog, number = self.case.dog.name, self.case.number
        if scheduled is not None and "destruction_hearing_scheduled" in (scheduled.events or {}):
            notice = self.event("destruction_notice_date")
            given = (
                f", of which notice was given on {date_words(parse(notice) if isinstance(notice, str) else notice, self.tz)}"
                if notice
                else ""
            )
            return f"the owner's appeal of the intended destruction of {dog}{given} (case {number})"
        d = self.designation_words()
        if not d:
            return None
        return f"the owner's appeal of the declaration of {dog} as a {d} (case {number})"

    def _requirements(self) -> str | None:
        """Every requirement of the law in force that reaches the designation, city and state, one a line with
        every provision that states it (a requirement stated by both layers once, the city's words, and the amount
        the law sets — the higher of the layers, 347.51 subd. 2 being a floor — where the words do not give it)."""
        designation = self.state.designation or self.inputs.get("designation")
        if not designation:
            return None
        by_id: dict[str, dict[str, Any]] = {}
        for v in self.j.versions_on(self.day):
            if v.effect_kind != "requirement":
                continue
            reach = v.effect.get("for")
            if reach and designation not in reach:
                continue
            rid = v.effect.get("id") or v.key
            row = by_id.setdefault(rid, {"what": "", "cites": [], "city": False})
            if v.effect.get("what") and (not row["what"] or (v.layer == "city" and not row["city"])):
                row["what"], row["city"] = v.effect["what"], v.layer == "city"
            if v.citation not in row["cites"]:
                row["cites"].append(v.citation)
        amounts = self.requirement_amounts(designation)
        lines = [
            f"{_with_amount(_sentence(r['what']), amounts.get(rid))} ({'; '.join(r['cites'])})"
            for rid, r in by_id.items()
            if r["what"]
        ]
        return "\n".join(lines) or None

    def requirement_amounts(self, designation: str | None) -> dict[str, list[tuple[float, str | None]]]:
        """requirement id -> its amounts in force for the designation, each the highest any layer sets (the
        state's amount is a floor: 347.53; the higher applies), with what each is ("per person")."""
        best: dict[str, dict[str | None, tuple[float, str | None]]] = {}
        for v in self.j.versions_on(self.day):
            if v.effect_kind != "requirement":
                continue
            reach = v.effect.get("for")
            if designation and reach and designation not in reach:
                continue
            rid = v.effect.get("id") or v.key
            for amount_id, usd, what in requirement_amounts(v.effect):
                known = best.setdefault(rid, {}).get(amount_id)
                if known is None or usd > known[0]:
                    best[rid][amount_id] = (usd, what)
        return {rid: list(found.values()) for rid, found in best.items()}

    def _conditions(self) -> str | None:
        """The conditions of registration ((C)(5), 347.51 subd. 2: the requirements a provision makes a condition
        of the certificate — not the owner's continuing duties; the step is refused until each is proven), one a
        line, in the order of the text, each with every provision that states it and the amount the law sets."""
        for step_id in ("issue_certificate",):
            try:
                choices = self.j.input_choices(step_id, self.future, self.at)
            except (InputError, KeyError):
                continue
            amounts = self.requirement_amounts(self.state.designation)
            rows = []
            for values in choices.values():
                for c in values:
                    if not c.get("condition_of_registration"):
                        continue
                    provisions = c.get("provisions") or [c.get("provision") or {}]
                    city = [p.get("citation", "") for p in provisions if p.get("layer") == "city"]
                    state = [p.get("citation", "") for p in provisions if p.get("layer") != "city"]
                    cites = "; ".join(x for x in dict.fromkeys([*city, *state]) if x)
                    what = _with_amount(
                        _sentence(str(c.get("label") or c.get("value"))), amounts.get(c.get("value"))
                    )
                    rows.append(
                        ((0, city[0]) if city else (1, cites), f"{what}{f' ({cites})' if cites else ''}")
                    )
            rows.sort(key=lambda r: r[0])
            return "\n".join(line for _, line in rows) or None
        return None

    def _certificate_expires(self) -> Any:
        """The last day of the certificate's term: the period the law gives it (an annual certificate: one year)
        from the day it is issued, by the calendar, 645.15's first day excluded. Not moved past a weekend or
        holiday: 645.15 moves the last day of a time to do an act (to renew, by the renewal's due date), not the
        end of the term a certificate is granted for."""
        issued = self.event("registration_issued")
        if isinstance(issued, str):
            issued = parse(issued)
        if isinstance(issued, dt.datetime):
            issued = issued.astimezone(self.tz).date()
        if not isinstance(issued, dt.date):
            return None
        designation = self.state.designation
        ends = []
        for v in self.j.versions_on(self.day):
            e = v.effect or {}
            if v.effect_kind != "deadline" or e.get("trigger") != "registration_issued":
                continue
            if designation and e.get("for") and designation not in e["for"]:
                continue
            period = e.get("period") or {}
            amount, unit = period.get("amount"), period.get("unit")
            if not isinstance(amount, int):
                continue
            if unit == "years":
                ends.append(add_years(issued, amount).value)
            elif unit == "months":
                ends.append(add_months(issued, amount).value)
            elif unit in ("calendar_days", "weeks"):
                ends.append(issued + dt.timedelta(days=amount * (7 if unit == "weeks" else 1)))
        return max(ends) if ends else None

    def _ground(self) -> str | None:
        """The ground in the law's words, with its citation."""
        grounded = [
            t
            for a in ("seize", "impound", "order_impoundment")
            for t in self._acts.get(a, ())
            if _input(t, "ground")
        ]
        if not grounded:
            return None
        t = max(grounded, key=lambda x: x.at)
        ground = _input(t, "ground")
        try:
            state = dataclasses.replace(self.state, taken=tuple(x for x in self.taken if x.at < t.at))
            choices = self.j.input_choices(t.step, state, t.at).get("ground", [])
        except (InputError, KeyError):
            choices = []
        for c in choices:
            if c.get("value") == ground:
                cite = (c.get("provision") or {}).get("citation", "")
                return f"{_sentence(str(c.get('label') or ground))}{f' ({cite})' if cite else ''}"
        return humanize(ground)

    def _move_step(self):
        t = self.last(MOVE_STEP)
        return self.j.step(t.step, t.at.astimezone(self.tz).date()) if t is not None else None

    def _move_inputs(self) -> Mapping[str, Any]:
        t = self.last(MOVE_STEP)
        return (t.inputs or {}) if t is not None else {}

    def _move_authority(self) -> str | None:
        """To whom the letter on a move goes: the animal control authority of the city or county served here,
        with the address its settings give, or of the place named on the move, at the address recorded."""
        inputs, step = self._move_inputs(), self._move_step()
        place = destination_words(inputs, step)
        if place is None:
            return None
        destination = str(inputs.get("destination") or "")
        if destination in library().jurisdictions:
            office = next((row for row in offices_of(destination) if row.office == AUTHORITY_OFFICE), None)
            address = office.address if office is not None else ""
            name = office.name if office is not None else "Animal control authority"
        else:
            address = str(inputs.get("authority_address") or "").strip()
            name = "Animal control authority"
        return f"{name}, {place}" + (f"\n{address}" if address else "")

    def _reclaim(self) -> str | None:
        for step_id in ("release", "release_impounded_dog"):
            try:
                choices = self.j.input_choices(step_id, self.future, self.at)
            except (InputError, KeyError):
                continue
            lines = []
            for values in choices.values():
                for c in values:
                    cite = (c.get("provision") or {}).get("citation", "")
                    lines.append(
                        f"{_sentence(str(c.get('label') or c.get('value')))}{f' ({cite})' if cite else ''}"
                    )
            if lines:
                return "\n".join(lines)
        return None


DECISION_ACTS = ("decide_appeal", "order_destruction")
# the step that records a dog's move to another city or county, and the office its letter goes to there
MOVE_STEP = "record_move"
AUTHORITY_OFFICE = "animal_control_authority"

# The sources that are a value typed in a step's form: name -> (the acts (or step ids) whose latest taking gives
# it, the inputs read, the first one given wins). The act form reads them too: an input a document cannot be
# issued without is not "optional" there (fill.inputs_documents_need).
INPUT_SOURCES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "declaration.basis": (("declare", "classify"), ("basis", "reasonable_cause")),
    "declarant.telephone": (("declare", "classify"), ("declarant_telephone",)),
    "hearing.at": (("schedule_hearing",), ("hearing_at",)),
    "hearing.place": (("schedule_hearing",), ("place",)),
    "hearing.held_on": (("hold_hearing",), ("closed_on", "held_on")),
    "decision.reasons": (DECISION_ACTS, ("reasons", "conditions")),
    "certificate.number": (("issue_certificate",), ("number",)),
    "seizure.place": (("seize", "impound"), ("place",)),
    "seizure.contact": (("seize", "impound"), ("contact",)),
    "seizure.telephone": (("seize", "impound"), ("telephone",)),
    "citation.number": (("issue_citation",), ("number",)),
    "citation.violated": (("issue_citation",), ("violated",)),
    "citation.violation": (("issue_citation",), ("violation",)),
    "citation.date": (("issue_citation",), ("cited_on",)),
    "citation.court": (("issue_citation",), ("court",)),
    "citation.court_at": (("issue_citation",), ("court_at",)),
    "move.date": (("record_move",), ("moved_on",)),
    "move.new_address": (("record_move",), ("new_address",)),
    "council.resolution": (("confirm_or_rescind", "order_impoundment"), ("resolution",)),
}


def _input(t: TakenStep | None, key: str) -> Any:
    return (t.inputs or {}).get(key) if t is not None else None


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text[:1].upper() + text[1:]


def _with_amount(what: str, amounts: list[tuple[float, str | None]] | None) -> str:
    """A requirement's words with the amount the law sets, where the words do not already give it:
    "A surety bond … authorized in Minnesota, of at least $300,000"."""
    missing = [(usd, each) for usd, each in amounts or () if _usd(usd) not in what]
    if not missing:
        return what
    said = " and ".join(f"{_usd(usd)}{f' {each}' if each else ''}" for usd, each in missing)
    return f"{what.rstrip('.')}, of at least {said}"


def _usd(amount: float) -> str:
    return f"${amount:,.0f}" if float(amount).is_integer() else f"${amount:,.2f}"


def _outcome(value: Any) -> str | None:
    return humanize(value) if value else None


def _dog_description(dog) -> str:
    """Name, breed, sex, colour, markings and microchip, where known."""
    bits = [dog.name]
    looks = [dog.colour, dog.breed]
    if dog.sex != "unknown":
        looks.append(dog.get_sex_display().lower())
    looks = [b for b in looks if b]
    if looks:
        bits.append(", ".join(looks))
    if dog.birth_year:
        bits.append(f"born {dog.birth_year}")
    if dog.microchip_number:
        maker = f" ({dog.microchip_manufacturer})" if dog.microchip_manufacturer else ""
        bits.append(f"microchip {dog.microchip_number}{maker}")
    if dog.licence_number:
        bits.append(f"city licence {dog.licence_number}")
    return "; ".join(bits)


def city_office(jurisdiction: str, office: str) -> dict[str, str]:
    """What the city supplied for an office (or the letterhead) beside its law pack (documents.CityOffice)."""
    from dogcase.documents.models import CityOffice

    row = CityOffice.objects.filter(jurisdiction=jurisdiction, office=office).first()
    if row is None:
        return {}
    return {k: v for k, v in (("address", row.address), ("telephone", row.telephone)) if v}

"""Filling a document from the case: every `{source}` of a document type's sections (the engine's vocabulary,
`Jurisdiction.document_sources`) resolved from the case's records, its taken steps and the values typed in the
step's form; a source without a value leaves its element unfilled, with what is missing and where staff supply
it (DOCSPEC.md, "Sources").

Nothing here writes: `draft_documents` is what the act form shows and what `documents.acts` issues.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from dogcase.cases.hearings import staff_member
from dogcase.cases.models import Case
from dogcase.law import CaseState, InputError, TakenStep

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


# ------------------------------------------------------------------------------------------------ words


def date_words(value: dt.date | dt.datetime | None, tz=None) -> str:
    """A date as the documents write it: "Monday, 14 December 2026"."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        value = (value.astimezone(tz) if tz else timezone.localtime(value)).date()
    return f"{value:%A}, {value.day} {value:%B %Y}"


def time_words(value: dt.datetime, tz=None) -> str:
    local = value.astimezone(tz) if tz else timezone.localtime(value)
    hour = local.hour % 12 or 12
    half = "a.m." if local.hour < 12 else "p.m."
    return f"{hour}:{local.minute:02d} {half}"


def instant_words(value: dt.datetime, tz=None) -> str:
    """ "Monday, 14 December 2026 at 10:00 a.m."."""
    return f"{date_words(value, tz)} at {time_words(value, tz)}"


def _words(value: Any, tz=None) -> str | None:
    """Any recorded value as text; None when there is none."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return instant_words(value, tz)
    if isinstance(value, dt.date):
        return date_words(value)
    if isinstance(value, str):
        parsed = _parse(value)
        if parsed is not value:
            return _words(parsed, tz)
        return value.strip() or None
    if isinstance(value, list | tuple):
        parts = [w for w in (_words(v, tz) for v in value) if w]
        return "; ".join(parts) or None
    return str(value)


def _parse(value: str) -> Any:
    try:
        if len(value) == 10 and value[4] == "-" and value[7] == "-":
            return dt.date.fromisoformat(value)
        if "T" in value and value[:4].isdigit():
            return dt.datetime.fromisoformat(value)
    except ValueError:
        pass
    return value


def _humanize(value: str) -> str:
    return str(value).replace("_", " ")


# ------------------------------------------------------------------------------------------------ drafts


@dataclass
class Missing:
    """An element (or a free section) that cannot be filled: the source without a value, and where to supply
    it."""

    element: str | None
    element_text: str
    citation: str
    source: str
    what: str
    where: str
    url: str = ""
    document: str = ""

    def sentence(self) -> str:
        named = self.element_text or self.what
        cite = f" ({self.citation})" if self.citation else ""
        return f"{self.document + ': ' if self.document else ''}{named}{cite} — {self.what} has no value; {self.where}."


@dataclass
class FilledSection:
    element: str | None
    element_text: str
    citation: str
    heading: str
    layer: str
    parts: list[tuple[str, str]]  # (text, "" | "value" (from the case) | "missing" (what has no value))
    missing: list[Missing]
    elements: tuple[str, ...] = ()  # every element value the statement carries

    @property
    def text(self) -> str:
        return "".join(t for t, _ in self.parts)

    @property
    def filled(self) -> bool:
        return not self.missing


@dataclass
class Draft:
    doc_type: Any
    id: str
    title: str
    audience: str
    provisions: list[str]
    recipient: str
    sections: list[FilledSection]
    attachments: list[Draft] = field(default_factory=list)
    letterhead: dict[str, str] = field(default_factory=dict)
    city: str = ""
    today: str = ""
    # an owner-facing document (dogcase.documents.owner): the owner's language, the "what happens next" box and,
    # in a language other than English, the explanation beside the English text (HTML); a notice issued by a
    # step that schedules a date (a hearing) carries that date's calendar file (.ics text)
    language: str = "en"
    owner_box: str = ""
    owner_explanation: str = ""
    calendar: str = ""
    # the QR code (SVG) of the owner's portal link with the case access code, when the document prints the code
    portal_qr: str = ""

    @property
    def missing(self) -> list[Missing]:
        out = [m for s in self.sections for m in s.missing]
        for a in self.attachments:
            out.extend(a.missing)
        return out

    @property
    def elements(self) -> dict[str, str]:
        """element value -> the text that fills it (the list the engine's document check reads)."""
        out = {e: s.text for s in self.sections if s.filled for e in s.elements}
        for a in self.attachments:
            for k, v in a.elements.items():
                out.setdefault(k, v)
        return out


# ------------------------------------------------------------------------------------------------ sources


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
        self.future = CaseState(
            designation=state.designation, incident_date=state.incident_date, taken=tuple(taken)
        )
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
        return (known.label if known else _humanize(d)).lower()

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
            value = _words(pack_source(name)) if pack_source is not None else None
            if value is None and head == "office":
                office_id, _, part = rest.rpartition(".")
                if office_id not in self._city_offices:
                    self._city_offices[office_id] = city_office(self.j.id, office_id)
                value = _words(self._city_offices[office_id].get(part))
            return value
        if head == "input":
            return _words(self.inputs.get(rest), self.tz)
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
            "declaration.basis": lambda: self.input_of(("declare", "classify"), "basis", "reasonable_cause"),
            "declaration.date": lambda: self.event("declaration", "classification"),
            "declarant.name": self._declarant_name,
            "declarant.role": self._declarant_role,
            "declarant.telephone": lambda: self.input_of(("declare", "classify"), "declarant_telephone"),
            "hearing.at": lambda: self.input_of(("schedule_hearing",), "hearing_at"),
            "hearing.place": lambda: self.input_of(("schedule_hearing",), "place"),
            "hearing.officer": self._hearing_officer,
            "hearing.subject": self._hearing_subject,
            "hearing.held_on": lambda: self.input_of(("hold_hearing",), "closed_on", "held_on"),
            "decision.outcome": lambda: _outcome(self.input_of(DECISION_ACTS, "outcome")),
            "decision.reasons": lambda: self.input_of(DECISION_ACTS, "reasons", "conditions"),
            "decision.date": lambda: self._date_of(self.last(*DECISION_ACTS)),
            "recommendation.outcome": lambda: _outcome(self.input_of(("recommend",), "outcome")),
            "council.outcome": lambda: _outcome(_input(self._council(), "outcome")),
            "council.resolution": lambda: (
                _input(self._council(), "resolution") or self.input_of(("order_impoundment",), "resolution")
            ),
            "council.date": lambda: self._date_of(self._council()),
            "requirements.list": self._requirements,
            "registration.conditions": self._conditions,
            "certificate.number": lambda: self.input_of(("issue_certificate",), "number"),
            "certificate.issued_on": lambda: self.event("registration_issued"),
            "certificate.expires_on": self._certificate_expires,
            "seizure.date": lambda: self.event("seizure", "impoundment"),
            "seizure.ground": lambda: self._ground(),
            "seizure.place": lambda: self.input_of(("seize", "impound"), "place"),
            "reclaim.requirements": self._reclaim,
        }
        getter = simple.get(name)
        if getter is None:
            return None
        return _words(getter(), self.tz)

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
                self.j.event_label(e["trigger"])
                if hasattr(self.j, "event_label")
                else _humanize(e["trigger"])
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

    def _declarant_role(self) -> str | None:
        from dogcase.cases.models import Event

        t = self._declaration()
        if t is None:
            from dogcase.cases.access import staff_roles

            roles = sorted(staff_roles(self.actor)) if self.actor is not None else []
        else:
            event = Event.objects.filter(case=self.case, act=t.step, at=t.at).first()
            roles = (event.actor_roles if event else "").split(",")
        from dogcase.staff.roles import ROLES_BY_GROUP

        words = [ROLES_BY_GROUP[r].label for r in roles if r in ROLES_BY_GROUP]
        return ", ".join(words) or None

    def _hearing_subject(self) -> str | None:
        d = self.designation_words()
        if not d:
            return None
        return f"the owner's appeal of the declaration of {self.case.dog.name} as a {d} dog (case {self.case.number})"

    def _requirements(self) -> str | None:
        """Every requirement of the law in force that reaches the designation, city and state, one a line with
        every provision that states it (a requirement stated by both layers once, the city's words)."""
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
        lines = [f"{_sentence(r['what'])} ({'; '.join(r['cites'])})" for r in by_id.values() if r["what"]]
        return "\n".join(lines) or None

    def _conditions(self) -> str | None:
        for step_id in ("issue_certificate",):
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
            return "\n".join(lines) or None
        return None

    def _certificate_expires(self) -> Any:
        for key, ob in self.obligations().items():
            if "renew" in key and ob.due is not None:
                return ob.due
        return None

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
            state = CaseState(
                designation=self.state.designation,
                incident_date=self.state.incident_date,
                taken=tuple(x for x in self.taken if x.at < t.at),
            )
            choices = self.j.input_choices(t.step, state, t.at).get("ground", [])
        except (InputError, KeyError):
            choices = []
        for c in choices:
            if c.get("value") == ground:
                cite = (c.get("provision") or {}).get("citation", "")
                return f"{_sentence(str(c.get('label') or ground))}{f' ({cite})' if cite else ''}"
        return _humanize(ground)

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


def _input(t: TakenStep | None, key: str) -> Any:
    return (t.inputs or {}).get(key) if t is not None else None


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text[:1].upper() + text[1:]


def _outcome(value: Any) -> str | None:
    return _humanize(value) if value else None


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


# ------------------------------------------------------------------------------------------------ filling


# Where staff supply a source when the engine's vocabulary does not say (and the page to do it on).
def _link(name: str, case: Case) -> str:
    head = name.split(".", 1)[0]
    try:
        if head == "dog":
            return reverse("staff:dog_edit", args=[case.dog_id])
        if head == "owner":
            owner = case.dog.ownerships.order_by("since", "id").first()
            if owner is None:
                return reverse("staff:owner_add", args=[case.dog_id])
            return reverse("staff:person_edit", args=[owner.person_id])
        if head == "incident":
            return reverse("staff:incident", args=[case.incident.number])
        if head == "office":
            return reverse("admin:documents_cityoffice_changelist")
        if head in (
            "case",
            "declaration",
            "declarant",
            "hearing",
            "decision",
            "council",
            "certificate",
            "seizure",
        ):
            return reverse("staff:case", args=[case.number])
    except Exception:  # noqa: BLE001 — a link is a convenience
        return ""
    return ""


def city_office(jurisdiction: str, office: str) -> dict[str, str]:
    """What the city supplied for an office (or the letterhead) beside its law pack (documents.CityOffice)."""
    from dogcase.documents.models import CityOffice

    row = CityOffice.objects.filter(jurisdiction=jurisdiction, office=office).first()
    if row is None:
        return {}
    return {k: v for k, v in (("address", row.address), ("telephone", row.telephone)) if v}


def _deadline_help(j, name: str, designation: str | None = None) -> tuple[str, str] | None:
    """A deadline source in the pack's words for the time limit (for the case's designation), never its id."""
    deadline_id = name.removeprefix("deadline.").removesuffix(".citation")
    versions = [
        v
        for v in (j.all_versions() if hasattr(j, "all_versions") else ())
        if v.effect_kind == "deadline" and v.effect.get("id") == deadline_id and v.effect.get("what")
    ]
    versions.sort(key=lambda v: not (designation and designation in (v.effect.get("for") or ())))
    if not versions:
        return None
    what = " ".join(str(versions[0].effect["what"]).split())
    if name.endswith(".citation"):
        return f"the citation of the time to {what}", "the law pack"
    return (
        f"the last day to {what}",
        "computed by dogcase from the case's dates: give the date this step records (e.g. the date of the notice)",
    )


def source_help(j, name: str, designation: str | None = None) -> tuple[str, str]:
    """(what the source is, where staff supply it), from the engine's vocabulary."""
    try:
        from dogcase.law.documents import describe_source

        what, where = describe_source(name, getattr(j, "offices", None))
        if name.startswith("deadline."):
            what, where = _deadline_help(j, name, designation) or (what, where)
        if name.startswith("office."):
            where = (
                "an administrator supplies it in the admin (Documents › City offices), or the city's law pack "
                "(jurisdiction.offices)"
            )
        return what, where
    except ImportError:
        pass
    vocab = getattr(j, "document_sources", None) or {}
    entry = vocab.get(name)
    if entry is None and "." in name:
        # families: deadline.<id>, office.<id>.<part>, input.<id>
        head = name.split(".", 1)[0]
        entry = vocab.get(f"{head}.*") or vocab.get(head)
    if entry is None:
        return name.replace(".", " ").replace("_", " "), "record it in the case"
    if isinstance(entry, Mapping):
        return str(entry.get("what") or entry.get("description") or name), str(entry.get("where") or "")
    if isinstance(entry, tuple | list):
        return str(entry[0]), str(entry[1] if len(entry) > 1 else "")
    return str(getattr(entry, "what", None) or getattr(entry, "description", name)), str(
        getattr(entry, "where", "")
    )


def fill_text(template: str, sources: Sources) -> tuple[list[tuple[str, str]], list[str]]:
    """The template's parts (text, "" | "value" | "missing") and the names of the sources without a value."""
    parts: list[tuple[str, str]] = []
    missing: list[str] = []
    pos = 0
    for m in PLACEHOLDER.finditer(template):
        if m.start() > pos:
            parts.append((template[pos : m.start()], ""))
        name = m.group(1).strip()
        value = sources.value(name)
        if value is None:
            missing.append(name)
            parts.append((f"[{source_help(sources.j, name, sources.state.designation)[0]}]", "missing"))
        else:
            parts.append((value, "value"))
        pos = m.end()
    if pos < len(template):
        parts.append((template[pos:], ""))
    return parts, missing


def _citation(section) -> str:
    c = getattr(section, "citation", None)
    if isinstance(c, Mapping):
        return str(c.get("citation", ""))
    return str(c or "")


def _section_applies(j, section, state: CaseState, at: dt.datetime) -> bool:
    when = getattr(section, "when", None)
    if not when:
        return True
    check = getattr(j, "section_applies", None)
    if check is None:
        return True
    return bool(check(section, state, at))


def fill_document(doc_type, sources: Sources, *, attachments=(), owner_box: bool = True) -> Draft:
    """The document filled from the case. `owner_box`: for an owner-facing document, work out the "what
    happens next" box and the owner's language (not needed for the pages attached after a document)."""
    j = sources.j
    sections = []
    for section in doc_type.sections:
        if not _section_applies(j, section, sources.future, sources.at):
            continue
        parts, names = fill_text(str(section.text or ""), sources)
        citation = _citation(section)
        missing = []
        for name in names:
            what, where = source_help(j, name, sources.state.designation)
            missing.append(
                Missing(
                    element=section.element,
                    element_text=str(getattr(section, "element_text", "") or ""),
                    citation=citation,
                    source=name,
                    what=what,
                    where=where or "record it in the case",
                    url=_link(name, sources.case),
                    document=doc_type.title,
                )
            )
        sections.append(
            FilledSection(
                element=section.element,
                element_text=str(getattr(section, "element_text", "") or ""),
                citation=citation,
                heading=str(getattr(section, "heading", "") or ""),
                layer=str(getattr(section, "layer", "") or ""),
                parts=parts,
                missing=missing,
                elements=tuple(
                    getattr(section, "elements", ()) or ((section.element,) if section.element else ())
                ),
            )
        )
    owners = sources.owners()
    recipient = ""
    if getattr(doc_type, "audience", "") == "owner" and owners:
        first = owners[0]
        recipient = "\n".join(p for p in (first.full_name, first.address if first.street else "") if p)
    letterhead = {"name": j.name, **{k: v for k, v in (getattr(j, "letterhead", None) or {}).items() if v}}
    for k, v in city_office(j.id, "letterhead").items():
        letterhead.setdefault(k, v)
    owner_parts = {}
    if owner_box and getattr(doc_type, "audience", "") == "owner":
        owner_parts = _owner_parts(doc_type, sources, owners[0] if owners else None, letterhead)
    portal_qr = ""
    if getattr(doc_type, "audience", "") == "owner" and any(
        "{portal.code}" in str(getattr(s, "text", "") or "") for s in _all_sections(doc_type)
    ):
        from dogcase.owners.notice import PLACEHOLDER, qr_svg, sign_in_link

        code = sources.value("portal.code")
        if code and code != PLACEHOLDER:
            portal_qr = qr_svg(sign_in_link(code))
    return Draft(
        doc_type=doc_type,
        id=doc_type.id,
        title=doc_type.title,
        audience=str(getattr(doc_type, "audience", "") or ""),
        provisions=[_cite_text(p) for p in getattr(doc_type, "provisions", ()) or ()],
        recipient=recipient,
        sections=sections,
        attachments=list(attachments),
        letterhead={k: str(v) for k, v in letterhead.items() if v},
        city=j.name,
        today=date_words(sources.day),
        portal_qr=portal_qr,
        **owner_parts,
    )


def _all_sections(doc_type) -> list:
    return list(getattr(doc_type, "sections", ()) or ())


def _owner_parts(doc_type, sources: Sources, recipient, letterhead=None) -> dict[str, str]:
    """The owner's language, the "what happens next" box, the explanation and the calendar file of an
    owner-facing document (dogcase.documents.owner), from the case as the step leaves it."""
    from dogcase.documents.calendar import hearing_notice_ics, scheduled_inputs
    from dogcase.documents.owner import owner_language, owner_reading

    case, j = sources.case, sources.j
    hearing_at = None
    if sources.step is not None:
        scheduled = {s.step_id: s for s in scheduled_inputs(j, sources.day)}.get(sources.step.id)
        if scheduled is not None:
            item = next((i for i in sources.step.inputs if i.records[:1] == (scheduled.event,)), None)
            value = sources.inputs.get(item.id) if item is not None else None
            hearing_at = _parse(value) if isinstance(value, str) else value
            if not isinstance(hearing_at, dt.datetime) or hearing_at.tzinfo is None:
                hearing_at = None
    place = (sources.value("hearing.place") or "") if hearing_at else ""
    letterhead = letterhead or dict(getattr(j, "letterhead", None) or {})  # whom the owner asks: the writer
    reading = owner_reading(
        case,
        at=sources.at,
        title=doc_type.title,
        language=owner_language(case, recipient),
        obligations=list(sources.obligations().values()),
        office_name=str(letterhead.get("name") or j.name),
        office_contact=str(letterhead.get("telephone") or ""),
        hearing_at=hearing_at,
        hearing_place=place,
    )
    calendar = (
        hearing_notice_ics(case, at=sources.at, scheduled=hearing_at, place=place) if hearing_at else ""
    )
    return {
        "language": reading.language,
        "owner_box": reading.next_steps,
        "owner_explanation": reading.explanation,
        "calendar": calendar,
    }


def _cite_text(p: Any) -> str:
    if isinstance(p, Mapping):
        return str(p.get("citation", ""))
    return str(p)


def document_types_for(j, step, state: CaseState, at: dt.datetime) -> list:
    """The document types the step issues for this case (the engine's answer), [] when it issues none."""
    finder = getattr(j, "document_types", None)
    if finder is None:
        return []
    day = at.astimezone(j.tz).date()
    return list(finder(step.id, state.designation, day))


def draft_documents(
    case: Case, j, step, *, state: CaseState, inputs: Mapping[str, Any], at: dt.datetime, actor=None
) -> list[Draft]:
    """Every document the step issues for the case, filled from the case and these (cleaned) inputs."""
    types = document_types_for(j, step, state, at)
    if not types:
        return []
    sources = Sources(case, j, state=state, step=step, inputs=inputs, at=at, actor=actor)
    day = at.astimezone(j.tz).date()
    out = []
    for doc_type in types:
        out.append(
            fill_document(
                doc_type,
                sources,
                attachments=[
                    fill_document(a, sources, owner_box=False) for a in attachments_of(j, doc_type, day)
                ],
            )
        )
    return out


def attachments_of(j, doc_type, day: dt.date) -> list:
    """The document types printed after the document as its following pages (each once)."""
    pages = getattr(j, "document_pages", None)
    if pages is not None:
        return [p for p in pages(doc_type.id, day) if p.id != doc_type.id]
    return [j.document_type(a, day) for a in getattr(doc_type, "attachments", ()) or ()]

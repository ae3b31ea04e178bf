"""The incident intake form: reading what the officer entered, checking it field by field, and working out
the law facts the classifier reads.

Facts come from two places. Where the structured answers settle a fact it is derived from them (what
happened: a bite -> `bit`; the victims -> `victim`, `injury`, `victim_conduct`; the kind of place ->
`place`); every other fact comes from its explicit question. An explicit answer wins over a derivation, and a
fact nobody answered stays unknown — never assumed false.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from dogcase.cases import geo
from dogcase.cases.acts import NARRATIVE_LIMIT, STATEMENT_LIMIT
from dogcase.cases.models import Dog, Evidence, Incident, Person, Premises, Victim, Witness
from dogcase.cases.pages import sentence
from dogcase.cases.record_facts import PERSON, bites_on_a_person, record_facts
from dogcase.cases.vocabulary import INJURY, PLACE_TYPE, VICTIM_KIND
from dogcase.law import clock
from dogcase.law.procedure import too_long
from dogcase.staff.present import humanize

# Facts the structured part of the form always settles; they are not asked again as questions.
DERIVED_ONLY = ("victim", "injury", "place", "victim_conduct")
# What happened -> the fact it proves true. The other facts of an incident stay unknown until answered.
KIND_FACTS = {
    Incident.Kind.BITE: "bit",
    Incident.Kind.ATTACK: "attacked",
    Incident.Kind.CHASE: "chased_or_approached",
}


def label_of(vocabulary, fact_id: str, value: str) -> str:
    """A fact value in plain words, from the vocabulary's labels (facts.yaml or the city's pack)."""
    fact = vocabulary.facts.get(fact_id)
    return fact.label_of(value) if fact is not None else humanize(value)


def _merged_order(known: tuple[str, ...], other: tuple[str, ...]) -> tuple[str, ...]:
    """Two cities' orders of one fact's values as one: a value only `other` has goes right after the value
    that precedes it there (a city's injury value keeps its place among the shared ones)."""
    out = list(known)
    previous = None
    for value in other:
        if value not in out:
            out.insert(out.index(previous) + 1 if previous is not None else 0, value)
        previous = value
    return tuple(out)


class FormVocabulary:
    """The facts the intake form asks and offers for the user's cities: each city's own vocabulary (`j.facts`)
    merged, with what only some cities have marked as theirs. The submitted form is checked against the
    vocabulary of the city chosen."""

    def __init__(self, vocabularies: dict[str, Any], names: dict[str, str]) -> None:
        self.facts: dict[str, Any] = {}
        self.only_in: dict[Any, list[str]] = {}  # fact id, or (fact id, value) -> the cities that have it
        for vocab in vocabularies.values():
            for fact in vocab.facts.values():
                known = self.facts.get(fact.id)
                if known is None:
                    self.facts[fact.id] = fact
                    continue
                if any(v not in known.values for v in fact.ordered_values):
                    ordered = _merged_order(known.ordered_values, fact.ordered_values)
                    self.facts[fact.id] = replace(
                        known,
                        values=frozenset(ordered),
                        ordered_values=ordered,
                        labels=MappingProxyType({**fact.labels, **known.labels}),
                    )
        if len(vocabularies) > 1:
            for fact in self.facts.values():
                having = [c for c, v in vocabularies.items() if fact.id in v.facts]
                if len(having) < len(vocabularies):
                    self.only_in[fact.id] = [names.get(c, c) for c in having]
                for value in fact.ordered_values:
                    with_value = [c for c in having if value in vocabularies[c].facts[fact.id].values]
                    if len(with_value) < len(vocabularies):
                        self.only_in[(fact.id, value)] = [names.get(c, c) for c in with_value]

    def choice_label(self, fact_id: str, value: str) -> str:
        words = label_of(self, fact_id, value)
        cities = self.only_in.get((fact_id, value))
        return f"{words} ({', '.join(cities)} only)" if cities else words

    def choices(self, field) -> list[tuple[str, str]]:
        """A record field's choices (cases/vocabulary.py), labelled."""
        return [(v, self.choice_label(field.fact, v)) for v in field.values(self)]


DOG_TEXT = ("name", "breed", "colour", "microchip_manufacturer", "microchip_number", "licence_number")
OWNER_TEXT = ("owner_name", "owner_street", "owner_city", "owner_zip", "owner_phone", "owner_email")
PREMISES_TEXT = ("premises_street", "premises_unit", "premises_city", "premises_zip")
LANDLORD_TEXT = ("landlord_name", "landlord_street", "landlord_city", "landlord_zip", "landlord_phone")


def _limit(model, name: str) -> int:
    return model._meta.get_field(name).max_length


# The most characters each text of the form takes: the column it is stored in, or the documented limit of a
# long text (docs/cases.md, "Text limits"). A longer text is a message on its field, never cut.
LIMITS = {
    "place": _limit(Incident, "place"),
    "narrative": NARRATIVE_LIMIT,
    "evidence_description": _limit(Evidence, "description"),
}
ROW_LIMITS = {
    "dog": {
        **{n: _limit(Dog, n) for n in DOG_TEXT},
        "owner_name": _limit(Person, "full_name"),
        "owner_street": _limit(Person, "street"),
        "owner_city": _limit(Person, "city_name"),
        "owner_zip": _limit(Person, "postal_code"),
        "owner_phone": _limit(Person, "phone"),
        "owner_email": _limit(Person, "email"),
        "premises_street": _limit(Premises, "street"),
        "premises_unit": _limit(Premises, "unit"),
        "premises_city": _limit(Premises, "city_name"),
        "premises_zip": _limit(Premises, "postal_code"),
        "landlord_name": _limit(Person, "full_name"),
        "landlord_street": _limit(Person, "street"),
        "landlord_city": _limit(Person, "city_name"),
        "landlord_zip": _limit(Person, "postal_code"),
        "landlord_phone": _limit(Person, "phone"),
    },
    "victim": {"name": _limit(Victim, "name"), "conduct_note": _limit(Victim, "conduct")},
    "witness": {
        "name": _limit(Witness, "name"),
        "contact": _limit(Witness, "contact"),
        "statement": STATEMENT_LIMIT,
    },
}


class _Row:
    index: int

    @property
    def index_s(self) -> str:
        """The index as text, to build field names in templates."""
        return str(self.index)


@dataclass
class DogRow(_Row):
    index: int
    existing: str = ""
    owner_existing: str = ""
    owner_language: str = Person.Language.ENGLISH
    sex: str = Dog.Sex.UNKNOWN
    birth_year: str = ""
    tenure: str = Premises.Tenure.UNKNOWN
    text: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> str:
        return self.text.get(name, "")


@dataclass
class VictimRow(_Row):
    index: int
    kind: str = ""
    name: str = ""
    injury: str = ""
    conduct: list[str] = field(default_factory=list)
    conduct_none: bool = False
    conduct_note: str = ""
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def conduct_answered(self) -> bool:
        return bool(self.conduct) or self.conduct_none


@dataclass
class WitnessRow(_Row):
    index: int
    name: str = ""
    contact: str = ""
    statement: str = ""
    errors: dict[str, str] = field(default_factory=dict)


@dataclass
class IntakeData:
    jurisdiction: str = ""
    occurred_at_text: str = ""
    occurred_at: dt.datetime | None = None
    place: str = ""
    place_type: str = ""
    kind: str = ""
    narrative: str = ""
    evidence_description: str = ""
    # the incident's point on the map (cases/geo.py), optional: typed, or the officer's phone location
    latitude: str = ""
    longitude: str = ""
    location_source: str = "hand"
    dogs: list[DogRow] = field(default_factory=list)
    victims: list[VictimRow] = field(default_factory=list)
    witnesses: list[WitnessRow] = field(default_factory=list)
    answers: dict[str, Any] = field(default_factory=dict)  # explicit fact answers (unknown left out)
    raw_answers: dict[str, Any] = field(default_factory=dict)  # what to re-show in the form
    errors: dict[str, str] = field(default_factory=dict)


def _indices(post, prefix: str) -> list[int]:
    pattern = re.compile(rf"^{prefix}-(\d+)-")
    found = {int(m.group(1)) for key in post for m in [pattern.match(key)] if m}
    return sorted(i for i in found if i < 50)


def _text(post, name: str) -> str:
    return (post.get(name) or "").strip()


def _check_limits(data: IntakeData) -> None:
    """A text longer than its limit is a message on its field: "At most 200 characters (you wrote 250)"."""
    e = data.errors
    for name, limit in LIMITS.items():
        value = getattr(data, name)
        if len(value) > limit:
            e[name] = too_long(limit, len(value)) + "."
    rows = (("dog", data.dogs), ("victim", data.victims), ("witness", data.witnesses))
    for kind, found in rows:
        for row in found:
            for name, limit in ROW_LIMITS[kind].items():
                value = row.get(name) if kind == "dog" else getattr(row, name)
                if len(value) > limit:
                    e[f"{kind}-{row.index}-{name}"] = too_long(limit, len(value)) + "."


def parse(post, *, vocabulary, tz, now: dt.datetime) -> IntakeData:
    """Read the form. `vocabulary` is the fact vocabulary (`j.facts`); `tz` the city's time zone."""
    data = IntakeData(
        jurisdiction=_text(post, "jurisdiction"),
        occurred_at_text=_text(post, "occurred_at"),
        place=_text(post, "place"),
        place_type=_text(post, "place_type"),
        kind=_text(post, "kind"),
        narrative=_text(post, "narrative"),
        evidence_description=_text(post, "evidence_description"),
        latitude=_text(post, "latitude"),
        longitude=_text(post, "longitude"),
        location_source="phone" if _text(post, "location_source") == "phone" else "hand",
    )
    if data.occurred_at_text:
        try:
            naive = dt.datetime.fromisoformat(data.occurred_at_text)
        except ValueError:
            missing = clock.missing_day(data.occurred_at_text)
            data.errors["occurred_at"] = (
                f"{missing[:1].upper()}{missing[1:]}." if missing else "Give the date and time it happened."
            )
        else:
            data.occurred_at = naive.replace(tzinfo=tz) if naive.tzinfo is None else naive
            if data.occurred_at > now:
                data.errors["occurred_at"] = "The incident cannot be in the future."
            elif data.occurred_at.date() < clock.MIN_DATE:
                # the law's calendar starts in 1900: an earlier incident could not be classified
                data.errors["occurred_at"] = (
                    f"The incident cannot be before {clock.format_date(clock.MIN_DATE)}: the law's calendar "
                    "starts there. Check the year."
                )
    for i in _indices(post, "dog"):
        p = f"dog-{i}-"
        row = DogRow(
            index=i,
            existing=_text(post, p + "existing"),
            owner_existing=_text(post, p + "owner_existing"),
            owner_language=_text(post, p + "owner_language") or Person.Language.ENGLISH,
            sex=_text(post, p + "sex") or Dog.Sex.UNKNOWN,
            birth_year=_text(post, p + "birth_year"),
            tenure=_text(post, p + "tenure") or Premises.Tenure.UNKNOWN,
            text={n: _text(post, p + n) for n in DOG_TEXT + OWNER_TEXT + PREMISES_TEXT + LANDLORD_TEXT},
        )
        data.dogs.append(row)
    conduct_values = (
        set(vocabulary.facts["victim_conduct"].values) if "victim_conduct" in vocabulary.facts else set()
    )
    for i in _indices(post, "victim"):
        p = f"victim-{i}-"
        row = VictimRow(
            index=i,
            kind=_text(post, p + "kind"),
            name=_text(post, p + "name"),
            injury=_text(post, p + "injury"),
            conduct=[v for v in post.getlist(p + "conduct") if v in conduct_values],
            conduct_none=post.get(p + "conduct_none") == "yes",
            conduct_note=_text(post, p + "conduct_note"),
        )
        if not (row.kind or row.name or row.injury or row.conduct_answered or row.conduct_note):
            continue  # an empty row left on the form
        data.victims.append(row)
    for i in _indices(post, "witness"):
        p = f"witness-{i}-"
        row = WitnessRow(
            index=i,
            name=_text(post, p + "name"),
            contact=_text(post, p + "contact"),
            statement=_text(post, p + "statement"),
        )
        if row.name or row.contact or row.statement:
            data.witnesses.append(row)
    _check_limits(data)
    for fact in vocabulary.facts.values():
        if fact.id in DERIVED_ONLY or fact.from_record:
            continue  # settled by the form's structured answers, or by the dog's record: never typed here
        name = f"fact-{fact.id}"
        if fact.type == "bool":
            raw = post.get(name, "")
            data.raw_answers[fact.id] = raw
            if raw in ("yes", "no"):
                data.answers[fact.id] = raw == "yes"
        elif fact.type == "enum":
            raw = post.get(name, "")
            data.raw_answers[fact.id] = raw
            if raw:
                data.answers[fact.id] = raw
        else:
            chosen = post.getlist(name)
            none = post.get(f"{name}-none") == "yes"
            data.raw_answers[fact.id] = {"values": chosen, "none": none}
            if chosen or none:
                data.answers[fact.id] = [v for v in chosen if v]
    return data


def _choose(what: str, value: str, field, vocabulary) -> str:
    """The message for a choice left empty, or for a value the city's law does not have."""
    if not value:
        return what
    allowed = ", ".join(label_of(vocabulary, field.fact, v) for v in field.values(vocabulary))
    return f"{what} “{label_of(vocabulary, field.fact, value)}” is not one of this city's: {allowed}."


def check(data: IntakeData, *, cities: tuple[str, ...], vocabulary, require_complete: bool = True) -> None:
    """Field-by-field messages, in plain words, added to `data.errors`. `vocabulary` is the chosen city's."""
    e = data.errors
    if data.jurisdiction not in cities:
        e["jurisdiction"] = "Choose the city where it happened."
    if not require_complete:
        return
    if not data.occurred_at_text:
        e.setdefault("occurred_at", "Give the date and time it happened.")
    if not data.place:
        e["place"] = "Say where it happened (an address or a description of the place)."
    if data.latitude or data.longitude:
        try:
            geo.check_point(data.latitude, data.longitude)
        except geo.PointError as exc:
            e[exc.field] = sentence(exc.rule)
    if data.place_type not in PLACE_TYPE.values(vocabulary):
        e["place_type"] = _choose("Choose the kind of place.", data.place_type, PLACE_TYPE, vocabulary)
    if data.kind not in Incident.Kind.values:
        e["kind"] = "Choose what the dog did."
    if not data.dogs:
        e["dogs"] = "Name at least one dog."
    for row in data.dogs:
        p = f"dog-{row.index}-"
        if row.existing:
            continue
        if not row.get("name"):
            e[p + "name"] = "Give the dog's name (write “unknown” if nobody knows it)."
        if row.sex not in Dog.Sex.values:
            e[p + "sex"] = "Choose male, female or not known."
        if row.birth_year and not (row.birth_year.isdecimal() and len(row.birth_year) == 4):
            e[p + "birth_year"] = "Write the year the dog was born as four digits, e.g. 2019."
        if not row.owner_existing and not row.get("owner_name"):
            e[p + "owner_name"] = "Give the owner's name, or choose an owner already on record."
        if row.owner_language not in Person.Language.values:
            e[p + "owner_language"] = "Choose a language offered for the owner's letters."
        if row.tenure not in Premises.Tenure.values:
            e[p + "tenure"] = "Choose owned, rented or not known."
        if row.get("premises_street") and not row.get("premises_city"):
            e[p + "premises_city"] = "Give the city of the address where the dog is kept."
        if row.tenure == Premises.Tenure.RENTED and not row.get("premises_street"):
            e[p + "premises_street"] = "Give the address of the rented home where the dog is kept."
    for row in data.victims:
        p = f"victim-{row.index}-"
        if row.kind not in VICTIM_KIND.values(vocabulary):
            e[p + "kind"] = _choose(
                "Choose a person or a domestic animal.", row.kind, VICTIM_KIND, vocabulary
            )
        if not row.name:
            e[p + "name"] = "Name the person, or describe the animal (kind and name)."
        if row.injury not in INJURY.values(vocabulary):
            e[p + "injury"] = _choose("Choose how badly they were hurt.", row.injury, INJURY, vocabulary)
        if row.conduct and row.conduct_none:
            e[p + "conduct"] = "Tick what they were doing, or “none of these” — not both."
    for row in data.witnesses:
        if not row.name:
            e[f"witness-{row.index}-name"] = "A witness needs a name."


@dataclass
class FactLine:
    fact: str
    question: str
    value: Any
    words: str
    source: str


def derive_facts(data: IntakeData, vocabulary) -> tuple[dict[str, Any], list[FactLine]]:
    """The law facts to classify, and for each one where it came from (for the page to show)."""
    facts: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if data.kind in KIND_FACTS:
        facts[KIND_FACTS[data.kind]] = True
        sources[KIND_FACTS[data.kind]] = f"What happened: {Incident.Kind(data.kind).label}"
    if data.place_type in PLACE_TYPE.values(vocabulary):
        facts["place"] = data.place_type
        sources["place"] = f"Kind of place: {label_of(vocabulary, 'place', data.place_type)}"
    injuries = INJURY.values(vocabulary)
    valid = [v for v in data.victims if v.kind in VICTIM_KIND.values(vocabulary) and v.injury in injuries]
    if valid:
        # The classifier reads one victim: the most seriously hurt, by the order of the injury values (least
        # to most serious; a city's own values go where its pack places them: fact_values `after:`/`before:`),
        # a person before an animal.
        worst = max(valid, key=lambda v: (injuries.index(v.injury), v.kind == PERSON))
        facts["victim"] = worst.kind
        facts["injury"] = worst.injury
        which = f"victim {valid.index(worst) + 1}" if len(valid) > 1 else "the victim"
        sources["victim"] = sources["injury"] = f"Victims: {which} ({worst.name or 'unnamed'})"
    answered = [v for v in data.victims if v.conduct_answered]
    if answered:
        conduct: list[str] = []
        for v in answered:
            conduct.extend(c for c in v.conduct if c not in conduct)
        facts["victim_conduct"] = conduct
        sources["victim_conduct"] = "Victims: what they were doing"
    for fact_id, value in data.answers.items():
        facts[fact_id] = value
        sources[fact_id] = "Your answer"
    lines = []
    for fact in vocabulary.facts.values():
        if fact.id not in facts:
            continue
        value = facts[fact.id]
        if isinstance(value, bool):
            words = "Yes" if value else "No"
        elif isinstance(value, list):
            words = ", ".join(fact.label_of(v) for v in value) or "None of these"
        else:
            words = fact.label_of(value)
        lines.append(FactLine(fact.id, fact.question, value, words, sources[fact.id]))
    return facts, lines


def attach_row_errors(data: IntakeData, rows) -> None:
    """Give each dog, victim and witness block the messages about its own fields."""
    for row in rows:
        prefix = {DogRow: "dog", VictimRow: "victim", WitnessRow: "witness"}[type(row)] + f"-{row.index}-"
        row.errors = {k.removeprefix(prefix): v for k, v in data.errors.items() if k.startswith(prefix)}


def questions(
    vocabulary: FormVocabulary, raw_answers: dict[str, Any], errors: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """The explicit fact questions of the form (of every city the user records for: FormVocabulary), with the
    answers to re-show."""
    out = []
    for fact in vocabulary.facts.values():
        if fact.id in DERIVED_ONLY or fact.from_record:
            continue
        raw = raw_answers.get(fact.id)
        item = {
            "id": fact.id,
            "type": fact.type,
            "question": fact.question,
            "only_in": ", ".join(vocabulary.only_in.get(fact.id, ())),
            "choices": [
                {"value": v, "label": vocabulary.choice_label(fact.id, v)} for v in fact.ordered_values
            ],
            "answer": raw
            if raw is not None
            else ("" if fact.type != "set" else {"values": [], "none": False}),
            "error": (errors or {}).get(f"fact-{fact.id}", ""),
        }
        out.append(item)
    return out


def record_lines(data: IntakeData, vocabulary, *, dogs: dict[int, Any], facts: dict[str, Any], day: dt.date):
    """The facts from each dog's record (`cases/record_facts.py`) for the form to show — never asked — and,
    when the incident names one dog, those facts to classify with (each dog's case reads its own record when
    it is opened). `dogs` maps a row's index to the dog on record it names (absent: a dog new to dogcase)."""
    bite_on_person = bites_on_a_person(facts, data.victims)
    rows = data.dogs or [DogRow(index=0)]
    per_dog = []
    for row in rows:
        dog = dogs.get(row.index)
        found = record_facts(dog, vocabulary=vocabulary, incident_day=day, bite_on_person_now=bite_on_person)
        name = dog.name if dog is not None else (row.get("name") or "the new dog")
        per_dog.append({"dog": name, "facts": found})
    merged = {f.fact: f.value for f in per_dog[0]["facts"]} if len(per_dog) == 1 else {}
    return per_dog, merged

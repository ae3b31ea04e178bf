"""Reading a file of records row by row: the check (every row's problems, by row and column; what is new, what
is already there, what is skipped) and the import itself, which reads the file again, checks it again (the
records may have changed since) and, only if no row has a problem, creates its records in bulk, in one
transaction with one audit event in the city's chain. A row's problem anywhere leaves the whole file out.

Already there (nothing created, the row linked to it): a person of the city with the same name and the same
street address, e-mail or phone; a dog with the same microchip; premises at the same street address and city;
an incident the same source brought in under the same id, or of the same dog on the same day at the same
place. The same within the file: a second row for a record of an earlier row links to it."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogcase.cases.acts import lock_city, record_event, roles_text
from dogcase.cases.acts.records import DOG_FIELDS, PERSON_FIELDS, next_number
from dogcase.cases.audit import append_events
from dogcase.cases.bulk import insert_objects, insert_rows
from dogcase.cases.models import Dog, Event, Incident, Ownership, Person, Premises
from dogcase.imports import fields as F
from dogcase.imports.cases import case_row
from dogcase.imports.lookups import NEW, Keyed, Store, by_pk
from dogcase.imports.models import ImportedRecord, ImportRun, Kind
from dogcase.imports.speed import SexLabelled, collector_leaves_the_application_alone, maker, validate_email
from dogcase.law import clock, library

CHUNK = 1000  # rows whose keys are read at once and whose records are created at once; the progress's step
MAX_PROBLEMS = 1000  # listed (all are counted)
REF_MAX = 100  # characters of a source's id (ImportedRecord.source_ref)
KEY_SEPARATOR = "\x1f"  # between the parts of a lookup's key: white space, so never in a normalised part
PERSON_LIMITS = {f.name: f.max_length for f in Person._meta.fields if getattr(f, "max_length", None)}
DOG_LIMITS = {f.name: f.max_length for f in Dog._meta.fields if getattr(f, "max_length", None)}
# the lengths a row's person and dog are checked against, in the order of their values (the first too long is
# the row's problem)
PERSON_TEXT_LIMITS = tuple(
    (key, PERSON_LIMITS[key])
    for key in ("full_name", "street", "city_name", "state", "postal_code", "phone", "email")
    if PERSON_LIMITS.get(key)
)
DOG_TEXT_LIMITS = tuple(
    (key, DOG_LIMITS[key])
    for key in ("name", "breed", "colour", "sex", "sterilized", "birth_year", "microchip_number",
                "microchip_manufacturer", "licence_number")
    if DOG_LIMITS.get(key)
)  # fmt: skip
DOG_FIELD_OF = {"birth_year": "birth"}  # a value's field where it is not its own
LANGUAGES = {
    "": "",
    "en": "en",
    "english": "en",
    "es": "es",
    "spanish": "es",
    "espanol": "es",
    "español": "es",
}


class RowProblem(Exception):
    def __init__(self, field_name: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field_name
        self.problem = problem


_PUNCTUATION = re.compile(r"[^\w\s]")
_CHIP_SEPARATORS = re.compile(r"[\s.-]")
_NOT_DIGITS = re.compile(r"\D")
_STATE = re.compile(r"[A-Z]{2}")
_CHIP = re.compile(r"[0-9A-Za-z]{9,15}")


@functools.lru_cache(maxsize=4096)
def _norm(text: str) -> str:
    # cached: a file repeats its cities and names (the one text kept for each, in every key that holds it)
    return " ".join(_PUNCTUATION.sub(" ", text.lower()).split())


def chip_of(text: str) -> str:
    """A microchip number without the spaces, dots and dashes it may be written with."""
    return _CHIP_SEPARATORS.sub("", text)


def _digits(text: str) -> str:
    return _NOT_DIGITS.sub("", text)


@dataclass
class Outcome:
    """What a walk found: the counts by what happens to the rows, the problems, how far it read."""

    rows: int = 0
    created: dict[str, int] = field(default_factory=dict)
    linked: dict[str, int] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)  # records already there that a row changes
    skipped: dict[str, int] = field(default_factory=dict)
    problems: list[dict] = field(default_factory=list)
    problem_count: int = 0

    def count(self, bucket: dict[str, int], what: str) -> None:
        bucket[what] = bucket.get(what, 0) + 1

    def as_summary(self) -> dict:
        return {
            "rows": self.rows,
            "created": self.created,
            "linked": self.linked,
            "changed": self.changed,
            "skipped": self.skipped,
        }


class Walk:
    """One pass over a file of `run`. `commit`: create the records (the caller holds the transaction)."""

    def __init__(self, run: ImportRun, *, commit: bool, actor, at: dt.datetime) -> None:
        self.run = run
        self.city = run.jurisdiction
        self.j = library().get(self.city)
        self.commit = commit
        self.actor = actor
        self.at = at
        self.today = timezone.localtime(at).date()
        self.out = Outcome()
        self.column_of = {name: m["column"] for name, m in run.mapping.items() if m.get("column")}
        self.value_of = {name: m["value"] for name, m in run.mapping.items() if m.get("value") is not None}
        self.index: dict[str, int] = {}
        # the cells of the row being read, all at once (cells): (field, its column's index), the fields given
        # one value for the whole file, the row they were read from and what they read
        self._indexed: list[tuple[str, int]] = []
        self._given: dict[str, str] = {}
        self._row: list[str] | None = None
        self._cells: dict[str, str] = {}
        self.row_problems: list[tuple[str, str]] = []
        # the keys records are found by (what the city has already, and what the file's rows brought), in a
        # temporary table of the walk's connection (dogcase.imports.lookups): a large file's keys are not kept
        # in memory. A key of several parts is one text, its parts apart by KEY_SEPARATOR.
        self.store = Store(self._fill)
        self._people = Keyed(self.store, "person")  # a person's keys (_person_keys) -> the person
        self._premises = Keyed(self.store, "premises")  # _premises_key -> the premises
        self._chips = Keyed(self.store, "chip")  # chip_of(microchip) -> the dog
        self._refs: dict[str, Keyed] = {}  # kind of record -> (the source's id -> the record)
        self.pending: list[tuple[int, str, str, Any, bool]] = []  # (row, model, ref, object, created)
        self.rooms: list[tuple[str, dt.datetime, int]] = []  # (place, start, row): its hearings still to come
        self.seen_refs = Keyed(self.store, "seen")  # a record's id in the file -> the row that had it first
        # (incident, dog) -> the row of a file of cases
        self.case_rows = Keyed(self.store, "case row", lambda k: f"{k[0]}{KEY_SEPARATOR}{k[1]}")
        # (dog, day, place) of the incidents new in this file
        self.incidents = Keyed(
            self.store, "incident", lambda k: KEY_SEPARATOR.join((str(k[0]), str(k[1]), k[2]))
        )
        self.final = False  # the last flush: what waits for the whole file (the licences) is written
        # a row gave a licence (the store keeps each dog's: dog id -> its licence, the last row wins)
        self.licenced = False
        self.incident_number = 0

    # ------------------------------------------------------------------------------------------ cells

    def ref_of(self, row: list[str], name: str = "ref") -> str:
        ref = self.cell(row, name)
        if len(ref) > REF_MAX:
            raise RowProblem(name, f"an id longer than {REF_MAX} characters")
        return ref

    def cell(self, row: list[str], name: str) -> str:
        return self.cells(row).get(name, "")

    def cells(self, row: list[str]) -> dict[str, str]:
        """Each field's cell of the row (a field the file gives one value: that value), read once per row;
        a field the file does not have is not in it (its cell is empty)."""
        if row is not self._row:
            n = len(row)
            cells = {name: row[i].strip() if i < n else "" for name, i in self._indexed}
            cells.update(self._given)
            self._row, self._cells = row, cells
        return self._cells

    def column_name(self, name: str) -> str:
        return self.column_of.get(name, "")

    def read(self, row: list[str], name: str, reader: Callable[[str], Any]) -> Any:
        """The cell read; a cell that cannot be is the row's problem (every such cell of the row is told),
        and None."""
        try:
            return reader(self.cell(row, name))
        except F.CellProblem as exc:
            self.row_problems.append((name, str(exc)))
            return None

    # ---------------------------------------------------------------------------------------- the walk

    def run_over(self, rows: Iterator[list[str]], progress: Callable[[int], None] | None = None) -> Outcome:
        _first, header = next(rows, (1, []))
        columns = list(self.run.columns) or header
        self.index = {name: columns.index(col) for name, col in self.column_of.items() if col in columns}
        self._indexed = [(name, i) for name, i in self.index.items() if name not in self.value_of]
        self._given = {name: str(value) for name, value in self.value_of.items()}
        self._row = None
        handle = {
            Kind.PEOPLE: self.person_row,
            Kind.DOGS: self.dog_row,
            Kind.INCIDENTS: self.incident_row,
            Kind.CASES: self.case_row,
        }[self.run.kind]
        self.store.open()  # before any row: a row of cases is recorded in a savepoint a check takes back
        try:
            with collector_leaves_the_application_alone():
                chunk: list[tuple[int, list[str], dict[str, str]]] = []
                for number, row in rows:
                    chunk.append((number, row, self.cells(row)))
                    if len(chunk) == CHUNK:
                        self.walk_chunk(chunk, handle, progress)
                        chunk = []
                self.walk_chunk(chunk, handle, progress)
                self.final = True
                self.flush()
        finally:
            self.store.close()
        if progress is not None:
            progress(self.out.rows)
        return self.out

    def walk_chunk(self, chunk: list, handle: Callable, progress: Callable[[int], None] | None) -> None:
        """The rows of a chunk (at most CHUNK): the keys they will ask for read at once, then each row."""
        for _number, _row, cells in chunk:
            self.expect(cells)
        for number, row, cells in chunk:
            self._row, self._cells = row, cells
            self.out.rows += 1
            self.row_problems.clear()
            try:
                handle(number, row)
            except RowProblem as exc:
                self.row_problems.append((exc.field, exc.problem))
            for name, problem in self.row_problems:
                self.problem(number, name, problem)
            if self.out.rows % CHUNK == 0:
                self.flush()
                if progress is not None:
                    progress(self.out.rows)

    def expect(self, cells: dict[str, str]) -> None:
        """The keys the row will be looked up by, asked for with the rest of its chunk's (a key asked for and
        not needed costs nothing; a key needed and not asked for is read alone)."""
        want, kind, ref = self.store.want, self.run.kind, cells.get("ref")
        if kind == Kind.DOGS:
            if ref:
                want("seen", ref)
                want("ref dog", ref)
            if chip := chip_of(cells.get("microchip_number", "")):
                want("chip", chip)
            self._expect_person(cells, "owner_")
        elif kind == Kind.PEOPLE:
            if ref:
                want("ref person", ref)
            if dog_ref := cells.get("licence_dog_ref"):
                want("ref dog", dog_ref)
            self._expect_person(cells, "")
        elif kind == Kind.INCIDENTS:
            if ref:
                want("ref incident", ref)
            if dog_ref := cells.get("dog_ref"):
                want("ref dog", dog_ref)
            if chip := chip_of(cells.get("dog_microchip", "")):
                want("chip", chip)

    def _expect_person(self, cells: dict[str, str], p: str) -> None:
        get = cells.get
        name = get(p + "full_name") or " ".join(x for x in (get(p + "first_name"), get(p + "last_name")) if x)
        if not name:
            return
        street = get(p + "street", "")
        self.store.want_all(
            "person", self._person_keys(name, street, get(p + "email", ""), get(p + "phone", ""))
        )
        if street and p:
            self.store.want("premises", self._premises_key(street, get(p + "city_name") or self.j.pack.name))

    def problem(self, row: int, name: str, problem: str) -> None:
        self.out.problem_count += 1
        if len(self.out.problems) < MAX_PROBLEMS:
            label = next((f.label for f in F.fields_of(self.run.kind) if f.name == name), name)
            self.out.problems.append(
                {"row": row, "column": self.column_name(name), "field": label, "problem": problem}
            )

    # --------------------------------------------------------------------------------- already there

    def _fill(self, kind: str) -> Iterator[tuple[str, int]] | None:
        """(key, id) of the city's records of a kind of key, for the store; where records share a key, the last
        given wins: the first recorded person and source's id, the last recorded dog and premises."""
        city = self.city
        if kind == "person":
            people = by_pk(Person.objects.filter(jurisdiction=city), "full_name", "street", "email", "phone",
                           newest_first=True)  # fmt: skip
            return ((key, pk) for pk, *values in people for key in self._person_keys(*values))
        if kind == "premises":
            places = by_pk(Premises.objects.filter(jurisdiction=city), "street", "city_name")
            return ((self._premises_key(street, name), pk) for pk, street, name in places)
        if kind == "chip":
            # a chip typed by hand with spaces or dashes is the same chip
            dogs = by_pk(
                Dog.objects.filter(jurisdiction=city).exclude(microchip_number=""), "microchip_number"
            )
            return ((chip_of(chip), pk) for pk, chip in dogs)
        if kind.startswith("ref "):
            refs = by_pk(
                ImportedRecord.objects.filter(
                    jurisdiction=city, source=self.run.source, model=kind[4:]
                ).exclude(source_ref=""),
                "source_ref",
                "object_id",
                newest_first=True,
            )
            return ((ref, object_id) for _pk, ref, object_id in refs)
        return None  # kept by this walk only (seen ids, cases' rows, incidents, licences)

    def people(self) -> Keyed:
        return self._people

    @staticmethod
    @functools.lru_cache(maxsize=2 * CHUNK)  # each row's are made twice: for its chunk (expect), for the row
    def _person_keys(name: str, street: str, email: str, phone: str) -> tuple[str, ...]:
        n = _norm(name)  # a normalised text holds no KEY_SEPARATOR (it is white space): the key reads back
        keys = []
        if street.strip():
            keys.append(f"street{KEY_SEPARATOR}{n}{KEY_SEPARATOR}{_norm(street)}")
        if email.strip():
            keys.append(f"email{KEY_SEPARATOR}{n}{KEY_SEPARATOR}{email.strip().lower()}")
        digits = _digits(phone)
        if len(digits) >= 7:
            keys.append(f"phone{KEY_SEPARATOR}{n}{KEY_SEPARATOR}{digits[-10:]}")
        return tuple(keys) or (f"name only{KEY_SEPARATOR}{n}{KEY_SEPARATOR}",)

    @staticmethod
    def _premises_key(street: str, city: str) -> str:
        return f"{_norm(street)}{KEY_SEPARATOR}{_norm(city)}"

    def premises(self) -> Keyed:
        return self._premises

    def chips(self) -> Keyed:
        return self._chips

    def refs(self, model: str) -> Keyed:
        if model not in self._refs:
            self._refs[model] = Keyed(self.store, f"ref {model}")
        return self._refs[model]

    def by_ref(self, model: str, ref: str) -> int | None:
        """The record the same source brought in under `ref` (an earlier file, or this one)."""
        value = self.refs(model).get(ref)
        if value is None or isinstance(value, int):
            return value
        return value.pk if value.pk is not None else value

    def keep(self, mapping: Keyed, key, obj) -> None:
        """Remember a record new in this file under `key` of a lookup: the object until it is saved (the store
        keeps its id), or in a check, which saves nothing, a mark."""
        mapping[key] = obj if self.commit else NEW

    def remember(self, row: int, model: str, ref: str, obj, created: bool) -> None:
        if ref:
            refs = self.refs(model)
            if created:
                self.keep(refs, ref, obj)
            elif refs.get(ref) != obj:  # (a record is equal to its own object only, never to an id)
                refs[ref] = obj
        if self.commit:
            self.pending.append((row, model, ref, obj, created))
        self.out.count(self.out.created if created else self.out.linked, model)

    # ------------------------------------------------------------------------------------------ people

    def person_values(self, row: list[str], prefix: str = "") -> dict[str, str] | None:
        """The person of the row (the owner's columns with `prefix`), checked; None when it names nobody."""
        get = self.cells(row).get
        p = prefix
        name = get(p + "full_name") or " ".join(x for x in (get(p + "first_name"), get(p + "last_name")) if x)
        if not name:
            return None
        values = {
            "full_name": name,
            "street": get(p + "street", ""),
            "city_name": get(p + "city_name", ""),
            "state": (get(p + "state") or "MN").upper(),
            "postal_code": get(p + "postal_code", ""),
            "phone": get(p + "phone", ""),
            "email": get(p + "email", "").lower(),
        }
        if values["state"] in ("MINNESOTA", "MINN", "MINN."):
            values["state"] = "MN"
        if not _STATE.fullmatch(values["state"]):
            raise RowProblem(f"{prefix}state", "not a state: write its two letters (MN)")
        for key, limit in PERSON_TEXT_LIMITS:
            if len(values[key]) > limit:
                raise RowProblem(f"{prefix}{key}", f"longer than {limit} characters")
        if values["email"]:
            try:
                validate_email(values["email"])
            except ValidationError:
                raise RowProblem(f"{prefix}email", "not an e-mail address") from None
        if not prefix:
            language = get("language", "").strip().lower()
            if language not in LANGUAGES:
                raise RowProblem("language", "not a language for letters: English or Spanish")
            values["preferred_language"] = LANGUAGES[language] or "en"
        return values

    def person_for(self, row_number: int, values: dict[str, str], ref: str) -> tuple[Any, bool]:
        """The person already there (or earlier in the file), or a new one; (person or its pk, created)."""
        if ref and (pk := self.by_ref("person", ref)) is not None:
            return pk, False
        people = self.people()
        keys = self._person_keys(values["full_name"], values["street"], values["email"], values["phone"])
        for key in keys:
            if (found := people.get(key)) is not None:
                return found, False
        # a check saves nothing: it keeps only that the keys are taken (keep), no record to save
        person = maker(Person)(jurisdiction=self.city, created_at=self.at, **values) if self.commit else None
        for key in keys:
            self.keep(people, key, person)
        return person, True

    def person_row(self, number: int, row: list[str]) -> None:
        ref = self.ref_of(row)
        values = self.person_values(row)
        if values is None:
            licence = self.cell(row, "licence_number")
            if licence:
                self.licence_row(number, row, licence)
            else:
                # ASM3 follows each person with rows of its own records (log, diary, citation, donation,
                # voucher, trap loan): dogcase keeps none of them
                self.out.count(self.out.skipped, "rows naming no person and no licence")
            return
        person, created = self.person_for(number, values, ref)
        self.remember(number, "person", ref, person, created)

    def licence_row(self, number: int, row: list[str], licence: str) -> None:
        if len(licence) > DOG_LIMITS["licence_number"]:
            raise RowProblem("licence_number", f"longer than {DOG_LIMITS['licence_number']} characters")
        dog_ref = self.ref_of(row, "licence_dog_ref")
        if not dog_ref:
            raise RowProblem("licence_dog_ref", "a licence row names the dog it licenses")
        pk = self.by_ref("dog", dog_ref)
        if pk is None:
            raise RowProblem(
                "licence_dog_ref",
                f"no dog with the id “{dog_ref}” was brought in from {self.run.source}: bring in its dogs first",
            )
        if self.store.get("licence", f"{pk:020d}") is not None:
            # a person export lists every licence a dog had (its renewals): the last row is the one kept
            self.out.count(self.out.skipped, "earlier licences of a dog whose later licence is in the file")
        else:
            self.out.count(self.out.changed, "licence")
        self.store.put("licence", f"{pk:020d}", pk, note=licence)  # (in the order of the ids)
        self.licenced = True

    # -------------------------------------------------------------------------------------------- dogs

    def dog_row(self, number: int, row: list[str]) -> None:
        cells = self.cells(row)
        ref = self.ref_of(row)
        name = cells.get("name", "")
        if ref and ref in self.seen_refs:
            others = [f.name for f in F.DOG if f.name not in ("ref", "name") and cells.get(f.name)]
            if not others or set(others) <= {"species"}:
                # ASM3 follows each animal with rows of its vaccinations, tests, treatments, costs and log
                self.out.count(self.out.skipped, "rows of an animal's medical records, costs or log")
                return
            raise RowProblem("ref", f"the same id as row {self.seen_refs[ref]}")
        species = cells.get("species", "").strip().lower()
        if species and species not in ("dog", "dogs", "canine", "k9", "k-9"):
            self.out.count(self.out.skipped, "animals other than dogs")
            return
        if not name:
            raise RowProblem("name", "the dog's name is required (write “unknown” if nobody knows it)")
        if ref:
            self.seen_refs[ref] = number
        values: dict[str, Any] = {
            "name": name,
            "breed": cells.get("breed", ""),
            "colour": cells.get("colour", ""),
            "sex": self.read(row, "sex", F.sex_of),
            "sterilized": self.read(row, "sterilized", F.yes_no),
            "birth_year": self.read(row, "birth", lambda t: F.birth_year_of(t, self.today)),
            "microchip_number": chip_of(cells.get("microchip_number", "")),
            "microchip_manufacturer": cells.get("microchip_manufacturer", ""),
            "licence_number": cells.get("licence_number", ""),
        }
        for key, limit in DOG_TEXT_LIMITS:
            value = values[key]
            if isinstance(value, str) and len(value) > limit:
                raise RowProblem(DOG_FIELD_OF.get(key, key), f"longer than {limit} characters")
        chip = values["microchip_number"]
        if chip and not _CHIP.fullmatch(chip):
            raise RowProblem("microchip_number", "not a microchip number (9 to 15 letters and digits)")
        died = self.read(row, "deceased_on", F.date_of)
        if died is not None and died > self.today:
            raise RowProblem("deceased_on", "a date of death cannot be in the future")
        owner = self.person_values(row, "owner_")
        if self.row_problems:
            return
        if ref and (pk := self.by_ref("dog", ref)) is not None:
            self.remember(number, "dog", ref, pk, False)
            return
        chips = self.chips()
        if chip and (found := chips.get(chip)) is not None:
            self.remember(number, "dog", ref, found, False)
            return
        person = premises = None
        if owner is not None:
            person, created = self.person_for(number, {**owner, "preferred_language": "en"}, "")
            self.remember(number, "person", "", person, created)
            if owner["street"]:
                city_name = owner["city_name"] or self.j.pack.name
                key = self._premises_key(owner["street"], city_name)
                premises = self.premises().get(key)
                if premises is None:
                    premises = (
                        maker(Premises)(
                            jurisdiction=self.city,
                            street=owner["street"],
                            city_name=city_name,
                            postal_code=owner["postal_code"],
                            created_at=self.at,
                        )
                        if self.commit
                        else None  # a check saves nothing: it keeps only that the home is taken
                    )
                    self.keep(self.premises(), key, premises)
                    self.remember(number, "premises", "", premises, True)
        dog = None
        if self.commit:
            dog = maker(Dog)(
                jurisdiction=self.city,
                created_at=self.at,
                status=Dog.Status.DEAD if died else Dog.Status.IN_CITY,
                **values,
            )
            dog._import_owner = person  # noqa: SLF001 - the owner, saved before the dog, linked after it
            dog._import_premises = premises  # noqa: SLF001
        if chip:
            self.keep(chips, chip, dog)
        self.remember(number, "dog", ref, dog, True)

    # ------------------------------------------------------------------------------------------ cases

    def case_row(self, number: int, row: list[str]) -> None:
        case_row(self, number, row)  # dogcase/imports/cases.py: recorded stage by stage through the acts

    # --------------------------------------------------------------------------------------- incidents

    def incident_row(self, number: int, row: list[str]) -> None:
        ref = self.ref_of(row)
        day = self.read(row, "occurred_on", F.date_of)
        if day is None:
            if not self.row_problems:
                raise RowProblem("occurred_on", "the date of the incident is required")
            return
        time = self.read(row, "occurred_time", F.time_of)
        if day > self.today or not clock.MIN_DATE <= day:
            raise RowProblem("occurred_on", "the incident cannot be in the future (or before 1900)")
        occurred = timezone.make_aware(dt.datetime.combine(day, time or dt.time(12, 0)))
        place = ", ".join(x for x in (self.cell(row, "place"), self.cell(row, "place_city")) if x)
        if not place:
            raise RowProblem("place", "say where it happened")
        if len(place) > 200:
            raise RowProblem("place", "longer than 200 characters")
        place_type = self.read(row, "place_type", F.place_type_of)
        if self.row_problems:
            return
        dog_pk = None
        if ref_of_dog := self.ref_of(row, "dog_ref"):
            found = self.by_ref("dog", ref_of_dog)
            dog_pk = found if isinstance(found, int) else None
        chip = chip_of(self.cell(row, "dog_microchip"))
        if dog_pk is None and chip:
            found = self.chips().get(chip)
            dog_pk = found if isinstance(found, int) else getattr(found, "pk", None)
        if dog_pk is None:
            which = "dog_ref" if ref_of_dog or not chip else "dog_microchip"
            raise RowProblem(
                which,
                "no dog of the city has this id or microchip: bring in the dogs first"
                if (ref_of_dog or chip)
                else "name the dog (by the source's id for it, or its microchip)",
            )
        if ref and (pk := self.by_ref("incident", ref)) is not None:
            self.remember(number, "incident", ref, pk, False)
            return
        key = (dog_pk, day, place.lower())
        if key in self.incidents:  # the same incident twice in the file
            self.remember(number, "incident", ref, self.incidents[key], False)
            return
        same = Incident.objects.filter(
            jurisdiction=self.city, dogs=dog_pk, occurred_at__date=day, place__iexact=place
        ).values_list("pk", flat=True)
        if (pk := same.first()) is not None:
            self.remember(number, "incident", ref, pk, False)
            return
        incident = Incident(
            jurisdiction=self.city,
            occurred_at=occurred,
            place=place,
            place_type=place_type,
            kind=F.incident_kind(self.cell(row, "kind")),
            narrative=self.cell(row, "narrative"),
            facts={},
            reported_by=self.actor,
            created_at=self.at,
        )
        incident._import_dog = dog_pk  # noqa: SLF001 - linked once the incident has its id
        self.keep(self.incidents, key, incident)
        self.remember(number, "incident", ref, incident, True)

    # ------------------------------------------------------------------------------------------ saving

    def record_events(self, licences: list[tuple[int, str, str]], *, records: bool = True) -> None:
        """Each record created gets its own event in the city's chain, as if it had been recorded by hand (the
        act's usual data, with the import and the row it came from): the audit trail and `audit verify` read
        it as they read every record. A licence row's change to a dog is its dog's update."""
        where = f"{self.run.source}, {self.run.file_name}"
        run_id, source = self.run.pk, self.run.source
        sex_labels = SexLabelled.labels()
        items: list[tuple[str, str, dict]] = []
        for row, model, _ref, obj, created in self.pending if records else ():
            if not created:
                continue
            came = {"import": {"run": run_id, "row": row, "source": source}}
            if model == "person":
                data = {"id": obj.pk, **{f: getattr(obj, f) for f in PERSON_FIELDS}, **came}
                items.append(
                    ("record_person", f"Recorded person {obj.full_name} (from {where}, row {row})", data)
                )
            elif model == "premises":
                data = {"id": obj.pk, "street": obj.street, "unit": obj.unit, "city_name": obj.city_name,
                        "tenure": obj.tenure, "landlord": None, **came}  # fmt: skip
                items.append(("record_premises", f"Recorded premises {obj} (from {where}, row {row})", data))
            elif model == "dog":
                owner = getattr(obj, "_import_owner", None)
                data = {
                    "id": obj.pk,
                    **{f: getattr(obj, f) for f in DOG_FIELDS},
                    "owners": [getattr(owner, "pk", owner)] if owner is not None else [],
                    "premises": obj.premises_id,
                    "status": obj.status,
                    **came,
                }
                described = Dog.description.fget(SexLabelled(obj, sex_labels))
                items.append(("record_dog", f"Recorded dog {described} (from {where}, row {row})", data))
            elif model == "incident":
                data = {"id": obj.pk, "number": obj.number, "occurred_at": obj.occurred_at, "place": obj.place,
                        "place_type": obj.place_type, "kind": obj.kind, "dogs": [obj._import_dog],  # noqa: SLF001
                        "facts": {}, "victims": [], "witnesses": [], "evidence": [], **came}  # fmt: skip
                items.append(
                    ("record_incident", f"Recorded incident {obj.number} (from {where}, row {row})", data)
                )
        for pk, old, new in licences:
            if old != new:
                changes = {"licence_number": [old, new]}
                data = {
                    "id": pk,
                    "changes": changes,
                    "reason": f"Licence from {where}",
                    "import": {"run": self.run.pk},
                }
                items.append(
                    ("update_dog", f"Updated dog #{pk}: licence number — licence from {where}", data)
                )
        append_events(
            at=self.at,
            jurisdiction=self.city,
            kind=Event.Kind.RECORD,
            actor=self.actor,
            actor_roles=roles_text(self.actor),
            items=items,
        )

    def flush(self) -> None:
        """Create what the rows read since the last flush hold (a commit only)."""
        if not self.commit or self.out.problem_count:
            # a check, or nothing will be kept: stop writing, keep counting (the store keeps marks)
            self.pending.clear()
            self.store.flush()
            return
        new: dict[str, list] = {"person": [], "premises": [], "dog": [], "incident": []}
        for _, model, _, obj, created in self.pending:
            if created and model in new:
                new[model].append(obj)
        insert_objects(Person, new["person"])
        insert_objects(Premises, new["premises"])
        for dog in new["dog"]:
            premises = getattr(dog, "_import_premises", None)
            dog.premises_id = premises if isinstance(premises, int) else getattr(premises, "pk", None)
        insert_objects(Dog, new["dog"])
        insert_rows(
            Ownership,
            ("dog_id", "person_id"),
            [
                (dog.pk, owner if isinstance(owner, int) else owner.pk)
                for dog in new["dog"]
                if (owner := getattr(dog, "_import_owner", None)) is not None
            ],
        )
        if new["incident"]:
            stem = f"{self.j.pack.case_prefix}-I{self.today.year}-"
            if not self.incident_number:
                self.incident_number = int(next_number(Incident, stem).removeprefix(stem))
            for incident in new["incident"]:
                incident.number = f"{stem}{self.incident_number:04d}"
                self.incident_number += 1
            Incident.objects.bulk_create(new["incident"], batch_size=CHUNK)
            insert_rows(
                Incident.dogs.through,
                ("incident_id", "dog_id"),
                [(i.pk, i._import_dog) for i in new["incident"]],  # noqa: SLF001
            )
        self.store.flush()  # the keys of this chunk's records, with their ids
        self.record_events([])
        if self.licenced and self.final:
            for batch in self.store.noted("licence", CHUNK):
                before = dict(
                    Dog.objects.filter(pk__in=[pk for pk, _ in batch]).values_list("pk", "licence_number")
                )
                licences = [(pk, before.get(pk, ""), lic) for pk, lic in batch]
                Dog.objects.bulk_update(
                    [Dog(pk=pk, licence_number=new) for pk, old, new in licences if old != new],
                    ["licence_number"],
                    batch_size=CHUNK,
                )
                self.record_events(licences, records=False)
        run_id, city, source = self.run.pk, self.city, self.run.source
        insert_rows(
            ImportedRecord,
            ("run_id", "jurisdiction", "source", "model", "object_id", "row", "source_ref", "created"),
            [
                (run_id, city, source, model, getattr(obj, "pk", obj), row, ref, created)
                for row, model, ref, obj, created in self.pending
            ],
        )
        self.pending.clear()


def check(run: ImportRun, rows: Iterator[list[str]], *, actor, progress=None) -> Outcome:
    """The dry run: every row read and checked, nothing written."""
    return Walk(run, commit=False, actor=actor, at=timezone.now()).run_over(rows, progress)


class NotImported(Exception):
    """A row had a problem: nothing of the file was kept."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(f"{outcome.problem_count} problems")
        self.outcome = outcome


def bring_in(run: ImportRun, rows: Iterator[list[str]], *, actor, progress=None) -> tuple[Outcome, int]:
    """The file's records created, all or none (NotImported), with the audit event of the import; (what was
    done, the event's sequence number)."""
    at = timezone.now()
    with transaction.atomic():
        lock_city(run.jurisdiction)
        walk = Walk(run, commit=True, actor=actor, at=at)
        outcome = walk.run_over(rows, progress)
        if outcome.problem_count:
            raise NotImported(outcome)
        event = record_event(
            actor=actor,
            jurisdiction=run.jurisdiction,
            act="import_records",
            summary=(
                f"Brought in {run.get_kind_display().split(',')[0].lower()} from {run.source}: "
                f"{run.file_name} ({outcome.rows} rows)"
            )[:500],
            data={
                "run": run.pk,
                "source": run.source,
                "kind": run.kind,
                "file": run.file_name,
                "sha256": run.sha256,
                "mapping": run.mapping,
                **outcome.as_summary(),
                **({"attested": run.summary["attested"]} if run.summary.get("attested") else {}),
            },
            at=at,
        )
    return outcome, event.seq

"""Case records: people, premises, dogs, incidents, cases, and the append-only event log; and what the events
record, read back: the case's state as the law engine reads it, and the hearings its acts scheduled.

Nothing here writes itself: records are created and changed only by the functions of `dogcase.cases.acts`,
each of which writes its audit `Event` in the same transaction (DESIGN.md principle 5). Legal records are
never deleted or overwritten: `Event` refuses update and delete; a correction is a new event.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from dogcase.cases import geo, vocabulary
from dogcase.law import CaseState, TakenStep, library

# the act of a correction event that corrects a value a legal act recorded in its form (not a date)
INPUT_CORRECTION = "correct_input"


class CityAccess(models.Model):
    """Which cities (jurisdiction ids) a staff user works for. Every record belongs to one city, and a user
    sees and acts on the records of their cities only."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="city_access")
    jurisdiction = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "jurisdiction"], name="unique_city_access")]
        # "access" is uncountable: Django's default plural would read "city accesss"
        verbose_name = "city access"
        verbose_name_plural = "city access"

    def __str__(self) -> str:
        return f"{self.user} @ {self.jurisdiction}"

    def clean(self) -> None:
        cities = sorted(j for j, jur in library().jurisdictions.items() if jur.pack.kind != "state")
        if self.jurisdiction not in cities:
            raise ValidationError({"jurisdiction": f"Unknown city; known: {', '.join(cities)}"})


class OfficeHolder(models.Model):
    """An account appointed to an office a city's law names and gives acts to — a pack role marked `appointed`
    ("Tracy Chief of Police"): a staff role that maps to the office is not enough to act in it; its holders
    are named by the city's administrator (dogcase.accounts.manage.set_offices), each change audited."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="offices")
    jurisdiction = models.CharField(max_length=64)
    office = models.CharField(max_length=64, help_text="A role id of the city's law pack marked appointed")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "jurisdiction", "office"], name="unique_office_holder")
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.office} @ {self.jurisdiction}"


class Person(models.Model):
    """An owner, a victim, a witness or a landlord."""

    class Language(models.TextChoices):
        # The languages the owner's documents are offered in (settings.LANGUAGES). The legal text of a document
        # is always English; in Spanish a Spanish explanation is printed beside it.
        ENGLISH = "en", "English"
        SPANISH = "es", "Spanish (español)"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    full_name = models.CharField(max_length=200)
    phone = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)
    street = models.CharField("street address", max_length=200, blank=True)
    city_name = models.CharField("city", max_length=100, blank=True)
    state = models.CharField(max_length=2, default="MN")
    postal_code = models.CharField("ZIP code", max_length=10, blank=True)
    preferred_language = models.CharField(
        "language for letters", max_length=8, choices=Language.choices, default=Language.ENGLISH
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["full_name", "id"]
        # the people list, a page at a time in name order (staff/keyset.py), in all or one of the cities
        indexes = [
            models.Index(fields=["full_name", "id"], name="person_name_id"),
            models.Index(fields=["jurisdiction", "full_name", "id"], name="person_city_name_id"),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def address(self) -> str:
        parts = [self.street, self.city_name, f"{self.state} {self.postal_code}".strip()]
        return ", ".join(p for p in parts if p)


class Premises(models.Model):
    """Where a dog is kept: owned or rented (a landlord must be told of a dangerous dog, § 90.15 (N))."""

    class Tenure(models.TextChoices):
        OWNED = "owned", "Owned by the dog's owner"
        RENTED = "rented", "Rented"
        UNKNOWN = "unknown", "Not known"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    street = models.CharField("street address", max_length=200)
    unit = models.CharField(max_length=40, blank=True)
    city_name = models.CharField("city", max_length=100)
    postal_code = models.CharField("ZIP code", max_length=10, blank=True)
    tenure = models.CharField(max_length=10, choices=Tenure.choices, default=Tenure.UNKNOWN)
    landlord = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="premises_let"
    )
    created_at = models.DateTimeField()
    # the point on the map (cases/geo.py), set or moved only by acts.set_location
    latitude = geo.latitude_field()
    longitude = geo.longitude_field()
    located_by = geo.source_field()

    class Meta:
        verbose_name_plural = "premises"

    def __str__(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.street}{unit}, {self.city_name}"


class Dog(models.Model):
    class Sex(models.TextChoices):
        MALE = "male", "Male"
        FEMALE = "female", "Female"
        UNKNOWN = "unknown", "Not known"

    class Status(models.TextChoices):
        IN_CITY = "in_city", "Kept in the city"
        MOVED = "moved", "Moved out of the city"
        TRANSFERRED = "transferred", "Transferred to a new owner"
        DEAD = "dead", "Dead"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    name = models.CharField(max_length=100)
    breed = models.CharField(max_length=100, blank=True)
    colour = models.CharField(max_length=100, blank=True)
    sex = models.CharField(max_length=10, choices=Sex.choices, default=Sex.UNKNOWN)
    sterilized = models.BooleanField(null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    photo = models.ForeignKey(
        "StoredFile", null=True, blank=True, on_delete=models.PROTECT, related_name="dog_photos"
    )
    microchip_manufacturer = models.CharField(max_length=100, blank=True)
    microchip_number = models.CharField(max_length=40, blank=True)
    licence_number = models.CharField("city licence", max_length=40, blank=True)
    premises = models.ForeignKey(
        Premises, null=True, blank=True, on_delete=models.PROTECT, related_name="dogs"
    )
    owners = models.ManyToManyField(Person, through="Ownership", related_name="dogs")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_CITY)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            models.Index(fields=["name", "id"], name="dog_name_id"),
            models.Index(fields=["jurisdiction", "name", "id"], name="dog_city_name_id"),
            # intake's "already on record": the same microchip, in the officer's cities
            models.Index(fields=["microchip_number", "jurisdiction"], name="dog_microchip"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def description(self) -> str:
        bits = [self.colour, self.breed, self.get_sex_display().lower() if self.sex != "unknown" else ""]
        born = f", born {self.birth_year}" if self.birth_year else ""
        return f"{self.name} ({' '.join(b for b in bits if b) or 'no description'}{born})"


class PriorHistoryEntry(models.Model):
    """What happened to a dog before dogcase, as the officer found it recorded elsewhere: a bite on a person, a
    designation (and by whom), a notice of a designation served on the owner. With the dog's own incidents
    and cases in dogcase, it is where the facts "from the dog's record" come from (cases/record_facts.py).
    Recorded by `updates.record_prior_history`, audited; never changed or deleted."""

    class What(models.TextChoices):
        BITE = "bite_on_person", "Bit a person"
        DESIGNATION = "designation", "Was declared (designated)"
        NOTICE = "notice", "The owner was given notice of a designation"

    dog = models.ForeignKey(Dog, on_delete=models.PROTECT, related_name="prior_history")
    jurisdiction = models.CharField(max_length=64, db_index=True)
    on = models.DateField("date")
    what = models.CharField(max_length=20, choices=What.choices)
    # for a designation or a notice: which designation (a designation id of the law packs)
    designation = models.CharField(max_length=64, blank=True)
    by_whom = models.CharField(
        "by whom", max_length=200, blank=True, help_text="Who declared it, or who gave the notice"
    )
    source = models.CharField(
        max_length=300, help_text="Where it is recorded: a report, a letter, a file number"
    )
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["on", "id"]
        verbose_name_plural = "prior history entries"

    def __str__(self) -> str:
        return f"{self.dog} {self.what} on {self.on}"


class Ownership(models.Model):
    """A dog may have several owners; under § 90.15 service on one owner is effective for all."""

    dog = models.ForeignKey(Dog, on_delete=models.PROTECT, related_name="ownerships")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="ownerships")
    since = models.DateField(null=True, blank=True)
    until = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["dog", "person", "since"], name="unique_ownership")]

    def __str__(self) -> str:
        return f"{self.person} owns {self.dog}"


class StoredFile(models.Model):
    """An uploaded file, stored once under its SHA-256 and never overwritten (DESIGN.md principle 6)."""

    jurisdiction = models.CharField(max_length=64, db_index=True)
    sha256 = models.CharField(max_length=64, db_index=True)
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    path = models.CharField(max_length=255)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    uploaded_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.original_name


class Incident(models.Model):
    class Kind(models.TextChoices):
        BITE = "bite", "Bite"
        ATTACK = "attack", "Attack"
        CHASE = "chase_or_approach", "Chase or approach"
        KILL = "kill", "Killed an animal"
        OTHER = "other", "Other"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    number = models.CharField(max_length=32, unique=True)
    occurred_at = models.DateTimeField()
    place = models.CharField(max_length=200)
    # a value of the law fact `place`, checked against the city's vocabulary (cases/vocabulary.py)
    place_type = models.CharField(max_length=64)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    narrative = models.TextField(blank=True)
    # The law facts of the incident, validated against packs/facts.yaml; what the classifier reads.
    facts = models.JSONField(default=dict)
    dogs = models.ManyToManyField(Dog, related_name="incidents")
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    created_at = models.DateTimeField()
    # the point on the map (cases/geo.py), set or moved only by acts.set_location
    latitude = geo.latitude_field()
    longitude = geo.longitude_field()
    located_by = geo.source_field()

    class Meta:
        ordering = ["-occurred_at", "-id"]
        indexes = [
            models.Index(fields=["occurred_at", "id"], name="incident_when_id"),
            models.Index(fields=["jurisdiction", "occurred_at", "id"], name="incident_city_when_id"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.get_kind_display().lower()} at {self.place}"

    @property
    def place_type_label(self) -> str:
        return vocabulary.PLACE_TYPE.label(self.jurisdiction, self.place_type)


class Victim(models.Model):
    # `kind` and `injury` hold values of the law facts `victim` and `injury`, checked against the city's
    # vocabulary (cases/vocabulary.py): a city's own value needs its pack, not a migration.
    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="victims")
    kind = models.CharField(max_length=64)
    name = models.CharField(max_length=200, help_text="The person's name, or the animal's kind and name")
    injury = models.CharField(max_length=64)
    conduct = models.CharField(
        max_length=200, blank=True, help_text="Trespass, tort, teasing, a crime — as reported"
    )

    def __str__(self) -> str:
        return f"{self.name} ({self.injury_label.lower()})"

    @property
    def kind_label(self) -> str:
        return vocabulary.VICTIM_KIND.label(self.incident.jurisdiction, self.kind)

    @property
    def injury_label(self) -> str:
        return vocabulary.INJURY.label(self.incident.jurisdiction, self.injury)


class Witness(models.Model):
    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="witnesses")
    name = models.CharField(max_length=200)
    contact = models.CharField(max_length=200, blank=True)
    statement = models.TextField(blank=True)

    def __str__(self) -> str:
        return self.name


class Evidence(models.Model):
    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="evidence")
    file = models.ForeignKey(StoredFile, on_delete=models.PROTECT)
    description = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return self.description or str(self.file)


class Case(models.Model):
    """One dog's case under one jurisdiction's procedure. Its legal history is its events; the columns here
    are a summary kept by the acts, with `version` for optimistic locking."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    jurisdiction = models.CharField(max_length=64, db_index=True)
    number = models.CharField(max_length=32, unique=True)
    dog = models.ForeignKey(Dog, on_delete=models.PROTECT, related_name="cases")
    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="cases")
    designation = models.CharField(max_length=64, blank=True)
    designation_in_effect = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    stage = models.CharField(max_length=200, blank=True, help_text="The last step taken, in plain English")
    version = models.PositiveIntegerField(default=1)
    opened_at = models.DateTimeField()
    # None: opened by no member of staff (the owner's notice of a move from another city served here)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    updated_at = models.DateTimeField()
    # What the obligation rows were last computed with (acts.recompute_obligations): the instant, and the law
    # (acts.law_fingerprint: the packs' content and the stretch of unchanged law the instant falls in). The
    # sweep recomputes a case whose law differs, or whose rows were computed as of a later instant than it
    # sweeps; otherwise only the cases with a row whose `sweep_at` has come.
    obligations_at = models.DateTimeField(null=True, blank=True)
    law_fingerprint = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        indexes = [
            models.Index(fields=["status", "jurisdiction", "law_fingerprint"], name="case_law_fingerprint"),
            models.Index(fields=["status", "obligations_at"], name="case_obligations_at"),
            models.Index(fields=["opened_at", "id"], name="case_opened_id"),
            models.Index(fields=["jurisdiction", "opened_at", "id"], name="case_city_opened_id"),
            # the officer's incidents to decide (staff/queries.py _undecided_cases), oldest first: the open cases
            # not yet declared are few among all the cases, most of them older ones already decided
            models.Index(
                fields=["opened_at", "id", "jurisdiction"],
                name="case_undecided_opened",
                condition=models.Q(status="open", designation=""),
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def scheduled_hearing(self, event_name: str = "hearing_scheduled"):
        """The hearing as last scheduled on this case — `at`, `place`, `officer` (a user), `officer_name`,
        `when_words` — or None (`scheduled_hearing` below). `event_name` picks another hearing
        (`destruction_hearing_scheduled`)."""
        return scheduled_hearing(self, event_name)


# The member of staff a step designated to hold a hearing (its `hearing_officer` input, law/procedure/model.py
# DESIGNATED_INPUT) as text: the same expression in the index and the query (cases/hearings.py), for both databases.
HEARING_OFFICER_OF_STEP = Cast(KT("data__inputs__hearing_officer"), output_field=models.CharField())
LEGAL_ACT = Q(kind="step")  # Event.Kind.STEP
REPORTED = ["status", "who", "staff_roles", "deadline_id", "late", "case", "id"]  # of an obligation (reports)


class EventQuerySet(models.QuerySet):
    def update(self, **kwargs):  # noqa: ARG002
        raise PermissionError("audit events are append-only: write a correction event instead")

    def delete(self):
        raise PermissionError("audit events are never deleted")


class Event(models.Model):
    """One append-only entry of the audit trail: a legal act, a correction, or a record change.

    Each event belongs to one chain (`chain`: its case's, or its city's when it has no case) at position
    `chain_seq`; `hash` is a keyed hash (HMAC-SHA256, DOGCASE_AUDIT_KEY) of its content and of the hash of the
    event before it in that chain (`prev_hash`), so that `dogcase audit verify` finds any row changed or
    removed behind the application's back, even by someone who can write the database. `seq` orders events
    across chains (unique, increasing, never given again). Events written before chains per case are the
    chain "global" (docs/cases.md, "The audit trail")."""

    class Kind(models.TextChoices):
        STEP = "step", "Legal act"
        CORRECTION = "correction", "Correction"
        RECORD = "record", "Record"
        SYSTEM = "system", "System"

    seq = models.BigIntegerField(unique=True)
    chain = models.CharField(max_length=80)
    chain_seq = models.BigIntegerField()
    at = models.DateTimeField()
    jurisdiction = models.CharField(max_length=64)  # indexed by (jurisdiction, act, at): see Meta
    case = models.ForeignKey(
        Case, models.PROTECT, null=True, blank=True, related_name="events", db_index=False
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    actor_name = models.CharField(max_length=150)
    actor_roles = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    act = models.CharField(max_length=64)
    summary = models.CharField(max_length=500)
    citation = models.CharField(max_length=500, blank=True)
    layer = models.CharField(max_length=20, blank=True)
    data = models.JSONField(default=dict)
    corrects = models.ForeignKey(  # an event's corrections, a hearing's booking's (event_corrections, 0026)
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections", db_index=False
    )
    idempotency_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)  # not indexed: no query finds an event by it (cases 0025)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["seq"]
        indexes = [
            models.Index(fields=["case", "seq"]),  # a case's events (`case` has no index of its own: 0023)
            # the dashboard's filings by owners from the portal, lately (dogcase/owners)
            models.Index(fields=["actor_roles", "at"], name="event_roles_at"),
            # the hearing officer's own list: the legal acts that designated them (cases/hearings.py)
            models.Index(HEARING_OFFICER_OF_STEP, "seq", condition=LEGAL_ACT, name="event_hearing_officer"),
            # a period's report (dogcase/reports): the city's acts of some kinds, by date
            models.Index(fields=["jurisdiction", "act", "at"], name="event_city_act_at"),
            models.Index(fields=["corrects"], condition=Q(kind="correction"), name="event_corrections"),
        ]
        constraints = [models.UniqueConstraint(fields=["chain", "chain_seq"], name="unique_event_chain_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.act}"

    def save(self, *args, **kwargs):
        # Inserting is the only write allowed; acts.append_event computes the chain before calling this.
        if not self._state.adding:
            raise PermissionError("audit events are append-only: write a correction event instead")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("audit events are never deleted")

    @staticmethod
    def corrected_dates(events) -> dict[int, dict]:
        """The dates each legal act's event records as corrected by the correction events among `events`
        (oldest first): {event pk: {event name: new date, as stored}}; the act's own event is never changed."""
        out: dict[int, dict] = {}
        for e in events:
            if e.kind == Event.Kind.CORRECTION and e.corrects_id and e.act != INPUT_CORRECTION:
                for name in e.data.get("events") or [e.data["event"]]:
                    out.setdefault(e.corrects_id, {})[name] = e.data["new"]
        return out

    @staticmethod
    def corrected_inputs(events) -> dict[int, dict]:
        """What each legal act recorded in its form as corrected by the correction events among `events`
        (oldest first): {event pk: {input id: new value}}; the act's own event is never changed."""
        out: dict[int, dict] = {}
        for e in events:
            if e.kind == Event.Kind.CORRECTION and e.corrects_id and e.act == INPUT_CORRECTION:
                out.setdefault(e.corrects_id, {})[e.data["input"]] = e.data["new"]
        return out

    def inputs_as_corrected(self, corrections: dict[int, dict]) -> dict:
        """The act's form as recorded, with the corrections of `Event.corrected_inputs` applied."""
        return {**(self.data.get("inputs") or {}), **corrections.get(self.pk, {})}


class ChainHead(models.Model):
    """The last event of one chain (a case's, a city's records', ...): the row an append to that chain locks,
    so that the chain's events get consecutive numbers and the chain never forks. Acts on other chains do not
    wait for it."""

    chain = models.CharField(max_length=80, unique=True)
    seq = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"chain {self.chain} head #{self.seq}"


class Obligation(models.Model):
    """A clock of the case, as the law engine computes it; recomputed in the transaction of every act on the
    case, and by the sweep when its time comes (`sweep_at`) or the law changes.
    Derived data (the events are the record), kept as rows so dashboards are single queries."""

    class Who(models.TextChoices):
        OWNER = "owner", "Owner"
        CITY = "city", "City"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="obligations")
    jurisdiction = models.CharField(max_length=64, db_index=True)
    deadline_id = models.CharField(max_length=100)
    who = models.CharField(max_length=10, choices=Who.choices)
    kind = models.CharField(max_length=20)
    what = models.CharField(max_length=500)
    status = models.CharField(max_length=20, db_index=True)
    due_date = models.DateField(null=True, blank=True, db_index=True)
    due_at = models.DateTimeField(null=True, blank=True)
    late = models.BooleanField(default=False)
    met_by = models.CharField(max_length=64, blank=True)
    # ",role,role," of the staff roles who can take the step that meets it (for the dashboards' filter)
    staff_roles = models.CharField(max_length=200, blank=True)
    detail = models.JSONField(default=dict)  # citations, rule, consequences, notes, reason
    updated_at = models.DateTimeField()
    # The instant from which the sweep has work on this row: the time running out (open -> overdue or lapsed,
    # not yet -> available), or the tasks of an overdue obligation to raise. Null when only an act or a change
    # of law can change the row. The sweep selects `sweep_at <= now` through its index, so its cost grows with
    # what is due, not with the number of cases.
    sweep_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["due_date", "id"]
        constraints = [models.UniqueConstraint(fields=["case", "deadline_id"], name="unique_case_obligation")]
        indexes = [
            # the sweep counts the overdue obligations of open cases from this index alone, not from the rows
            models.Index(fields=["status", "case"], name="obligation_status_case"),
            # a period's report: the city's obligations due in the period, counted from the index alone (PostgreSQL)
            models.Index(fields=["jurisdiction", "due_date"], name="obligation_city_due", include=REPORTED),
            # the dashboards' rabies observations (deadline "rabies_observation:<n>", a prefix): on PostgreSQL an
            # index of the active obligations that a LIKE of a prefix can read, whatever the database's collation
            models.Index(
                fields=["deadline_id", "jurisdiction"],
                name="obligation_active_like",
                opclasses=["varchar_pattern_ops", "varchar_pattern_ops"],
                condition=Q(status__in=["open", "overdue"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.case} {self.deadline_id} {self.status}"

    @property
    def citations(self) -> list[dict]:
        return self.detail.get("citations", [])

    @property
    def consequences(self) -> list[dict]:
        return self.detail.get("consequences", [])


class Task(models.Model):
    """Work the sweep raises for staff: an overdue obligation and what the law attaches to it."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="tasks")
    jurisdiction = models.CharField(max_length=64, db_index=True)
    obligation = models.ForeignKey(Obligation, null=True, blank=True, on_delete=models.SET_NULL)
    key = models.CharField(max_length=200, unique=True)
    text = models.CharField(max_length=500)
    citation = models.CharField(max_length=500, blank=True)
    staff_roles = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["jurisdiction", "done_at"]),
            # the dashboards' open tasks, oldest first, without reading the done ones
            models.Index(
                fields=["created_at", "id"], condition=Q(done_at__isnull=True), name="task_open_created"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(done_at__isnull=True) | Q(done_by__isnull=False), name="task_done_has_actor"
            )
        ]

    def __str__(self) -> str:
        return self.text


# ------------------------------------------------------------------------------------------- the case's state
# What the case's acts recorded, read back: the case as the law engine reads it (the acts' `case_state`).


def jurisdiction_of(record) -> Any:
    return library().get(record.jurisdiction)


def parse_value(value: Any) -> dt.date | dt.datetime | Any:
    if isinstance(value, str):
        try:
            if "T" in value:
                return dt.datetime.fromisoformat(value)
            return dt.date.fromisoformat(value)
        except ValueError:
            return value
    return value


# Records whose event says a fact the law reads (its data's `events`, e.g. `coverage_ends` with each accepted
# proof of coverage: dogcase/proofs): the law's state of a case reads them beside its steps and corrections.
FACT_RECORDS = ("review_proof",)


def law_events() -> models.Q:
    """The events of a case the law engine reads: its steps, their corrections, and the facts of its records."""
    return models.Q(kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]) | models.Q(
        kind=Event.Kind.RECORD, act__in=FACT_RECORDS
    )


def case_state(case: Case, events: list[Event] | None = None, settings: dict | None = None) -> CaseState:
    """The case as the law engine reads it: the steps taken, with corrections applied to their dates, and the
    facts its records state (the latest record of each fact wins). `events` and `settings` (the city's
    choices): when the caller has read them already, for several cases at once."""
    if events is None:
        events = list(case.events.filter(law_events()).order_by("seq"))
    corrections = Event.corrected_dates(events)
    corrected_inputs = Event.corrected_inputs(events)
    taken = []
    facts: dict[str, Any] = {}
    for e in events:
        if e.kind == Event.Kind.RECORD and e.act in FACT_RECORDS:
            facts.update({k: parse_value(v) for k, v in (e.data.get("events") or {}).items()})
            continue
        if e.kind != Event.Kind.STEP:
            continue
        recorded = dict(e.data.get("events", {}))
        recorded.update(corrections.get(e.pk, {}))
        taken.append(
            TakenStep(
                step=e.act,
                at=e.at,
                # a step recorded from the city's records was taken by the office or hearing officer the law
                # saw (take_recorded_step), not by the person who brought it in
                actor=str((e.data.get("recorded") or {}).get("taken_by") or e.actor_id),
                outcome=e.data.get("outcome"),
                events={k: parse_value(v) for k, v in recorded.items()},
                inputs=e.inputs_as_corrected(corrected_inputs),
            )
        )
    return CaseState(
        designation=case.designation or None,
        incident_date=timezone.localtime(case.incident.occurred_at).date(),
        taken=tuple(taken),
        # the choices the city made of what its law leaves to it (City settings), over its pack's values
        settings=city_choices(case.jurisdiction) if settings is None else settings,
        recorded=facts,
    )


# ------------------------------------------------------------------------------------- the scheduled hearings
# The hearings scheduled on a case, read from its acts: when, where, and which member of staff is to hold
# them (`Case.scheduled_hearing`, read by the notice of hearing and the case page). They sit with the models so
# that every layer reads them without the acts.


@dataclass(frozen=True)
class ScheduledHearing:
    event_name: str  # the scheduled event: hearing_scheduled, destruction_hearing_scheduled, ...
    at: dt.datetime  # as recorded, after corrections
    place: str
    officer: Any  # the user designated to hold it, or None (an older act named them in words)
    officer_name: str
    scheduled_by: Event  # the act that scheduled it
    step_label: str
    label: str = "Scheduled hearing"  # the scheduled event in the city's words

    @property
    def when_words(self) -> str:
        return hearing_time_words(self.at)


def hearing_time_words(at: dt.datetime) -> str:
    """ "Thu 10 Dec at 10:00" in the city's time (the year when it is not this year's)."""
    local = timezone.localtime(at)
    year = "" if local.year == timezone.localdate().year else f" {local.year}"
    return f"{local:%a} {local.day} {local:%b}{year} at {local:%H:%M}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _staff_name(user) -> str:
    return user.get_full_name() or user.get_username()


def staff_member(value: Any, users: dict[str, Any] | None = None) -> tuple[Any, str]:
    """The member of staff a step designated (the hearing officer) as recorded on the act, and their name: a
    user's id; or, on an act recorded before the officer was chosen among the city's users, the name as written
    (no user). A user no longer on record has no name. `users` caches the lookups of one page."""
    key = str(value)
    if not key.isdecimal():
        return None, key
    users = {} if users is None else users
    if key not in users:
        users[key] = get_user_model().objects.filter(pk=int(key)).first()
    user = users[key]
    return user, (_staff_name(user) if user is not None else "")


def scheduled_hearings(
    case: Case,
    j=None,
    events: list[Event] | None = None,
    users: dict[str, Any] | None = None,
    state=None,
) -> dict[str, ScheduledHearing]:
    """{scheduled event: the hearing as last scheduled} for every kind of hearing the case has scheduled.
    `state`: the case's state from these events, when the caller has it already."""
    j = j or jurisdiction_of(case)
    if events is None:
        events = list(case.events.filter(kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]).order_by("seq"))
    if state is None:
        state = case_state(case, events)
    by_taken = {(t.step, t.at): t for t in state.taken}
    out: dict[str, ScheduledHearing] = {}
    users = {} if users is None else users
    for e in events:
        if e.kind != Event.Kind.STEP:
            continue
        day = timezone.localtime(e.at).date()
        step = next((s for s in j.procedure(day) if s.id == e.act), None)
        if step is None:
            continue
        taken = by_taken.get((e.act, e.at))
        inputs = (taken.inputs if taken is not None else None) or e.data.get("inputs") or {}  # as corrected
        for inp in step.inputs:
            if inp.when != "future" or inp.kind != "datetime":
                continue
            for name in inp.records:
                at = taken.events.get(name) if taken is not None else None
                if not isinstance(at, dt.datetime):
                    continue
                officer, officer_name = None, ""
                who = next((i for i in step.inputs if i.kind == "staff_member"), None)
                if who is not None and inputs.get(who.id):
                    officer, officer_name = staff_member(inputs[who.id], users)
                elif inputs.get("hearing_officer"):  # an act recorded when the officer was named in words
                    officer_name = str(inputs["hearing_officer"])
                out[name] = ScheduledHearing(
                    event_name=name,
                    at=at,
                    place=str(inputs.get("place") or ""),
                    officer=officer,
                    officer_name=officer_name,
                    scheduled_by=e,
                    step_label=step.label,
                    label=_capital(j.event_label(name).removeprefix("the ")),
                )
    return out


def scheduled_hearing(case: Case, event_name: str = "hearing_scheduled", j=None) -> ScheduledHearing | None:
    """The hearing on the case as last scheduled (the appeal hearing unless another scheduled event is named)."""
    return scheduled_hearings(case, j).get(event_name)


# The rabies observation's record, the versions of the law packs in use and the moves of cases between cities
# live in their own modules; imported here so that they are registered with the app.
from dogcase.cases.casemoves import CaseMove  # noqa: E402, F401
from dogcase.cases.citysettings import CitySetting  # noqa: E402, F401
from dogcase.cases.citysettings import supplied as city_choices  # noqa: E402
from dogcase.cases.lawversions import LawVersion  # noqa: E402, F401
from dogcase.cases.observations import RabiesObservation  # noqa: E402, F401

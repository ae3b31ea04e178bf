"""What a city supplies for its documents beside its law pack: the address and telephone of each office its pack
names (and of its letterhead), kept on the server and changed by the city's administrator on the City settings
page. Each change is an event of the city's audit chain (who, when, what it was and what it became): the
history of the values; a document already issued keeps what it printed.

A value the law pack gives wins (the pack is the city's law as adopted); only what the pack leaves out is
supplied here."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.db import transaction

from dogcase.cases.acts import now
from dogcase.cases.audit import append_event
from dogcase.cases.models import Event
from dogcase.documents.models import CityOffice
from dogcase.law import library

ACT = "city_office_changed"
LIMITS = {"address": 300, "telephone": 40}
_TELEPHONE = re.compile(r"^[0-9A-Za-z+().,\- /#]*[0-9][0-9A-Za-z+().,\- /#]*$")


class OfficeProblem(Exception):
    """A value refused: `field` is the form field (`<office>-address`), `message` says the rule."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass
class OfficeRow:
    """One office as the settings page shows it: the pack's name, and for address and telephone the value in
    use, where it comes from ("pack" or "city"), and whether it is missing."""

    office: str
    name: str
    address: str = ""
    telephone: str = ""
    from_pack: set[str] = field(default_factory=set)  # "address"/"telephone" the pack gives (not editable)

    @property
    def missing(self) -> list[str]:
        return [what for what in ("address", "telephone") if not getattr(self, what)]


def offices_of(jurisdiction: str) -> list[OfficeRow]:
    """Every office the city's documents may print (its pack's offices, the state's included, then the
    letterhead), with the values in use."""
    j = library().get(jurisdiction)
    supplied = {row.office: row for row in CityOffice.objects.filter(jurisdiction=jurisdiction)}
    rows: list[OfficeRow] = []
    named = [(oid, office) for oid, office in (j.offices or {}).items()]
    letterhead = j.letterhead or {"name": j.name}
    for oid, office in [*named, (CityOffice.LETTERHEAD, letterhead)]:
        row = OfficeRow(oid, office.get("name") or j.name)
        mine = supplied.get(oid)
        for what in ("address", "telephone"):
            if office.get(what):
                setattr(row, what, office[what])
                row.from_pack.add(what)
            elif mine is not None:
                setattr(row, what, getattr(mine, what))
        rows.append(row)
    return rows


def missing_count(jurisdiction: str) -> int:
    """How many addresses and telephones the city's documents need and nobody has supplied."""
    return sum(len(row.missing) for row in offices_of(jurisdiction))


def supply_office(
    jurisdiction: str,
    office: str,
    *,
    address: str,
    telephone: str,
    actor=None,
    at: dt.datetime | None = None,
) -> bool:
    """Record the address and telephone a city supplies for an office; an event in the city's chain says what
    changed. Returns whether anything changed. Raises OfficeProblem naming the field."""
    rows = {row.office: row for row in offices_of(jurisdiction)}
    row = rows.get(office)
    if row is None:
        raise OfficeProblem(
            "office", f"Not an office of this city's law pack; its offices: {', '.join(rows)}"
        )
    values = clean_values(address, telephone, prefix=f"{office}-")
    for what, value in values.items():
        if what in row.from_pack and value and value != getattr(row, what):
            raise OfficeProblem(
                f"{office}-{what}",
                f"The city's law pack gives this {what}; it is changed in the pack, not here.",
            )
    at = at or now()
    with transaction.atomic():
        current = (
            CityOffice.objects.select_for_update().filter(jurisdiction=jurisdiction, office=office).first()
        )
        before = {
            "address": current.address if current else "",
            "telephone": current.telephone if current else "",
        }
        after = {what: ("" if what in row.from_pack else values[what]) for what in values}
        if after == before:
            return False
        if current is None:
            current = CityOffice(jurisdiction=jurisdiction, office=office)
        current.address, current.telephone = after["address"], after["telephone"]
        current.save()
        changed = [
            f"{what} {_words(before[what])} → {_words(after[what])}"
            for what in after
            if after[what] != before[what]
        ]
        append_event(
            at=at,
            jurisdiction=jurisdiction,
            kind=Event.Kind.RECORD,
            act=ACT,
            summary=f"What documents print for {row.name} changed: " + "; ".join(changed),
            actor=actor,
            actor_name=None if actor is not None else "dogcase (on the server)",
            data={"office": office, "name": row.name, "before": before, "after": after},
        )
    return True


def clean_values(address: str, telephone: str, *, prefix: str = "") -> dict[str, str]:
    """The address and telephone as stored (spaces made single), or OfficeProblem naming `<prefix>address` or
    `<prefix>telephone` and the rule."""
    values = {"address": " ".join((address or "").split()), "telephone": " ".join((telephone or "").split())}
    for what, value in values.items():
        if len(value) > LIMITS[what]:
            raise OfficeProblem(f"{prefix}{what}", f"At most {LIMITS[what]} characters ({len(value)} given).")
    if values["telephone"] and not _TELEPHONE.match(values["telephone"]):
        raise OfficeProblem(
            f"{prefix}telephone", "A telephone number: digits, spaces, dashes, dots, brackets and + only."
        )
    return values


def history(jurisdiction: str, limit: int = 50, also: tuple[str, ...] = ()) -> list[Event]:
    """The latest changes of the city's offices (and of the record events `also` names), newest first."""
    return list(
        Event.objects.filter(jurisdiction=jurisdiction, act__in=(ACT, *also), case__isnull=True)
        .select_related("actor")
        .order_by("-seq")[:limit]
    )


def _words(value: str) -> str:
    return f"“{value}”" if value else "(none)"

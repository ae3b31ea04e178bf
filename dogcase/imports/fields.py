"""What each kind of file can bring in: our fields, in words, with the column names they are recognised by (a
city's own spreadsheet, dogcase's own exports, and ASM3's CSV exports: its animal export names the current owner
on the animal's row, its person export follows each person with rows for their licences), and how a cell is
read (a date, yes or no, a sex, a year). docs/data.md lists the ASM3 mapping."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.utils import timezone

from dogcase.imports.models import Kind


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    aliases: tuple[str, ...] = ()  # column names that suggest this field, best first (compared loosely)
    required: bool = False
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # a field a whole file may give one value (kind of place)


def _key(name: str) -> str:
    """A column name compared loosely: case, spaces, dashes and underscores ignored."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


PERSON = (
    Field("ref", "The source's id for the person", ("PERSONCODE", "Person code", "Person ID", "Owner ID")),
    Field("full_name", "Full name", ("PERSONNAME", "Full name", "Name", "Owner name", "Owner")),
    Field("first_name", "First name", ("PERSONFIRSTNAME", "First name", "Forenames", "Given name")),
    Field("last_name", "Last name", ("PERSONLASTNAME", "Last name", "Surname", "Family name")),
    Field("street", "Street address", ("PERSONADDRESS", "Street address", "Address", "Street")),
    Field("city_name", "City", ("PERSONCITY", "City", "Town")),
    Field("state", "State", ("PERSONSTATE", "State")),
    Field("postal_code", "ZIP code", ("PERSONZIPCODE", "ZIP code", "ZIP", "Postal code", "Postcode")),
    Field(
        "phone",
        "Phone",
        (
            "PERSONCELLPHONE",
            "PERSONHOMEPHONE",
            "PERSONWORKPHONE",
            "Phone",
            "Telephone",
            "Mobile",
            "Cell phone",
        ),
    ),
    Field("email", "E-mail", ("PERSONEMAIL", "E-mail", "Email", "Email address")),
    Field("language", "Language for letters", ("Language for letters", "Preferred language", "Language")),
)
LICENCE = (
    Field(
        "licence_number",
        "Licence number",
        ("LICENSENUMBER", "Licence number", "License number", "Licence", "License", "City licence"),
    ),
    Field(
        "licence_dog_ref",
        "The source's id for the licensed dog",
        ("ANIMALCODE", "Animal code", "Dog code", "Animal ID"),
        help="On a licence row (a row with a licence number and no name): the dog it licenses, by the id the "
        "source gave it when its dogs were brought in.",
    ),
)
OWNER = tuple(
    Field(
        f"owner_{f.name}",
        f"Owner: {f.label[0].lower()}{f.label[1:]}",
        f.aliases + tuple(f"Owner {a}" for a in f.aliases if not a.isupper()) + (f"Owner {f.label}",),
        help=f.help,
    )
    for f in PERSON
    if f.name != "language"
)
DOG = (
    Field(
        "ref",
        "The source's id for the dog",
        ("ANIMALCODE", "Animal code", "Dog code", "Animal ID", "ANIMALID"),
    ),
    Field(
        "name", "Dog's name", ("ANIMALNAME", "Dog's name", "Dog name", "Name", "Animal name"), required=True
    ),
    Field(
        "species",
        "Species",
        ("ANIMALSPECIES", "Species"),
        help="When the file has other animals too: only dogs are brought in, the rest are skipped and counted.",
    ),
    Field("breed", "Breed", ("ANIMALBREED1", "Breed", "Primary breed")),
    Field("colour", "Colour", ("ANIMALCOLOR", "Colour", "Color")),
    Field("sex", "Sex", ("ANIMALSEX", "Sex", "Gender")),
    Field(
        "sterilized", "Spayed or neutered", ("ANIMALNEUTERED", "Spayed or neutered", "Neutered", "Sterilized")
    ),
    Field(
        "birth", "Date or year of birth", ("ANIMALDOB", "Date of birth", "Birth date", "Born", "Birth year")
    ),
    Field(
        "microchip_number", "Microchip number", ("ANIMALMICROCHIP", "Microchip number", "Microchip", "Chip")
    ),
    Field("microchip_manufacturer", "Microchip maker", ("Microchip maker", "Microchip manufacturer")),
    LICENCE[0],
    Field(
        "deceased_on",
        "Date of death",
        ("ANIMALDECEASEDDATE", "Date of death", "Deceased date", "Died"),
        help="A dog recorded as dead is brought in as dead (no case may be opened for it).",
    ),
    *OWNER,
)
INCIDENT = (
    Field(
        "ref", "The source's id for the incident", ("INCIDENTCODE", "Incident number", "Incident ID", "ACID")
    ),
    Field("occurred_on", "Date", ("INCIDENTDATE", "Incident date", "Date", "Occurred"), required=True),
    Field("occurred_time", "Time", ("INCIDENTTIME", "Time", "Incident time")),
    Field("kind", "What happened", ("INCIDENTTYPE", "What happened", "Incident type", "Type", "Kind")),
    Field(
        "place",
        "Where (address)",
        ("DISPATCHADDRESS", "Where", "Address", "Location", "Place"),
        required=True,
    ),
    Field("place_city", "City", ("DISPATCHCITY", "City")),
    Field(
        "place_type",
        "Kind of place",
        ("Kind of place", "Place type"),
        required=True,
        help="Where the file does not say, choose one for the whole file.",
        choices=(
            ("public", "A public place"),
            ("private_other", "Private property of someone else"),
            ("owner_property", "The dog owner's property"),
        ),
    ),
    Field(
        "narrative", "What was reported", ("INCIDENTNOTES", "Narrative", "Notes", "Description", "Comments")
    ),
    Field("dog_ref", "The dog, by the source's id", ("ANIMALCODE", "Animal code", "Dog code", "Animal ID")),
    Field("dog_microchip", "The dog, by its microchip", ("ANIMALMICROCHIP", "Microchip number", "Microchip")),
)

CASE = (
    Field("ref", "The source's id for the case", ("Case number", "Case ID", "Case", "File number")),
    Field(
        "incident_ref",
        "The incident (the source's id for it, or its number here)",
        ("INCIDENTCODE", "Incident number", "Incident ID", "Incident"),
        required=True,
        help="Bring the incidents in first (a file of incidents, from the same source).",
    ),
    Field(
        "dog_ref",
        "The dog (the source's id for it, or its microchip)",
        ("ANIMALCODE", "Animal code", "Dog code", "Animal ID", "Microchip"),
        help="Needed only when the incident names more than one dog.",
    ),
    Field("opened_on", "Case opened on", ("Opened", "Opened on", "Case opened")),
    Field(
        "designation",
        "Declared (classified) as",
        ("Designation", "Declared as", "Classification", "Classified as"),
        help="In this city's words: potentially dangerous, dangerous, vicious.",
    ),
    Field(
        "declared_on",
        "Declared (classified) on",
        ("Declared on", "Declared", "Date declared", "Classified on"),
    ),
    Field(
        "basis", "Why: the facts the declaration rests on", ("Basis", "Reason", "Grounds", "Reasonable cause")
    ),
    Field(
        "departure_reason",
        "Reason for the declaration",
        (
            "Reason for the declaration",
            "Reason for declaration",
            "Reason for declaring",
            "Why declared",
            "Departure reason",
        ),
        help="Needed only where the facts recorded on the incident do not support the designation: why it was "
        "declared all the same, as the staff's form asks. It is kept with the declaration and shown to the "
        "hearing officer.",
    ),
    Field(
        "notice_served_on",
        "Notice of the declaration served (sent) on",
        ("Notice served on", "Notice served", "Served on", "Notice sent", "Notified on"),
    ),
    Field(
        "served_how",
        "How the notice was served",
        ("Served how", "Service method", "Method of service", "Served by"),
    ),
    Field(
        "served_to",
        "Whom it was served on",
        ("Served to", "Served on whom", "Person served"),
        help="Left empty: the dog's owner on record.",
    ),
    Field(
        "notice_received_on",
        "Notice received by the owner on",
        ("Notice received", "Received on", "Receipt date"),
    ),
    Field(
        "hearing_requested_on",
        "Hearing requested on",
        ("Hearing requested on", "Hearing requested", "Appeal received", "Appeal filed", "Appeal date"),
    ),
    Field(
        "hearing_scheduled_on",
        "Hearing scheduled (its notice mailed) on",
        ("Hearing scheduled on", "Hearing notice mailed"),
        help="Needed with the hearing's date and time: the notice of the hearing is dated from it.",
    ),
    Field(
        "hearing_at",
        "Hearing date and time",
        ("Hearing date", "Hearing", "Hearing at", "Hearing date and time"),
    ),
    Field(
        "hearing_place",
        "Where the hearing is (was) held",
        ("Hearing place", "Hearing location", "Hearing room"),
    ),
    Field(
        "hearing_officer",
        "Hearing officer (a user of dogcase, by name or user name)",
        ("Hearing officer", "Heard by"),
    ),
    Field("held_on", "Hearing held on", ("Hearing held on", "Hearing held", "Held on")),
    Field("decision", "The decision", ("Decision", "Outcome", "Result")),
    Field("decided_on", "Decided on", ("Decided on", "Decision date", "Date of decision")),
    Field("reasons", "The decision's reasons", ("Reasons", "Decision reasons", "Findings")),
    Field(
        "decision_received_on",
        "The decision received by the owner on",
        ("Decision received on", "Decision delivered on", "Decision received", "Owner notified of decision"),
    ),
)

FIELDS: dict[str, tuple[Field, ...]] = {
    Kind.PEOPLE: PERSON + LICENCE,
    Kind.DOGS: DOG,
    Kind.INCIDENTS: INCIDENT,
    Kind.CASES: CASE,
}


def fields_of(kind: str) -> tuple[Field, ...]:
    return FIELDS[kind]


def suggest(kind: str, columns: list[str], remembered: dict | None = None) -> dict[str, dict]:
    """Our field -> {"column": name} or {"value": v}: the mapping remembered for this source where its columns
    are still in the file, else the first column each field is recognised by (each column used once)."""
    by_key = {_key(c): c for c in columns}
    used: set[str] = set()
    out: dict[str, dict] = {}
    for field in fields_of(kind):
        given = (remembered or {}).get(field.name)
        if given and (given.get("column") in columns or given.get("value") is not None):
            out[field.name] = given
            if given.get("column"):
                used.add(given["column"])
            continue
        for alias in field.aliases:
            column = by_key.get(_key(alias))
            if column is not None and column not in used:
                out[field.name] = {"column": column}
                used.add(column)
                break
    return out


# ------------------------------------------------------------------------------------------ reading a cell

YES = {"y", "yes", "true", "1", "on", "x", "spayed", "neutered"}
NO = {"n", "no", "false", "0", "off", "intact", "entire"}
US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


class CellProblem(ValueError):
    """What is wrong with a cell, in words."""


def date_of(text: str) -> dt.date | None:
    """A date as a spreadsheet or ASM3 writes it: 2025-03-14, 3/14/2025 (US order, as ASM3 exports in English),
    either followed by a time; empty -> None."""
    text = text.strip()
    if not text:
        return None
    day = text.split(" ")[0].split("T")[0]
    if "/" not in day:  # (no ISO date has one: a US date is not tried as ISO first, an exception each)
        try:
            return dt.date.fromisoformat(day)
        except ValueError:
            pass
    m = US_DATE.match(day)
    if m:
        try:
            return dt.date(int(m[3]), int(m[1]), int(m[2]))
        except ValueError:
            pass
    raise CellProblem("not a date: write it as YYYY-MM-DD (or M/D/YYYY)")


def time_of(text: str) -> dt.time | None:
    text = text.strip().lower()
    if not text:
        return None
    m = re.match(r"^(\d{1,2}):(\d{2})(?::\d{2})?\s*(am|pm)?$", text)
    if not m:
        raise CellProblem("not a time: write it as 14:30 or 2:30 pm")
    hour, minute = int(m[1]), int(m[2])
    if m[3]:
        if not 1 <= hour <= 12:
            raise CellProblem("not a time: an hour with am or pm is 1 to 12")
        hour = hour % 12 + (12 if m[3] == "pm" else 0)
    if hour > 23 or minute > 59:
        raise CellProblem("not a time of day")
    return dt.time(hour, minute)


def datetime_of(text: str) -> dt.datetime | None:
    """A date with its time (2026-10-20 14:00, 10/20/2026 2:00 pm), in Minnesota time; empty -> None."""
    text = text.strip()
    if not text:
        return None
    day_text, _, rest = text.replace("T", " ", 1).partition(" ")
    day = date_of(day_text)
    time = time_of(rest.strip()) if rest.strip() else None
    if time is None:
        raise CellProblem("a date and a time: write it as YYYY-MM-DD HH:MM (or M/D/YYYY 2:30 pm)")
    return timezone.make_aware(dt.datetime.combine(day, time))


def yes_no(text: str) -> bool | None:
    key = text.strip().lower()
    if not key or key in {"unknown", "u", "not known"}:
        return None
    if key in YES:
        return True
    if key in NO:
        return False
    raise CellProblem("not yes or no (write Yes, No, or leave it empty when not known)")


def sex_of(text: str) -> str:
    key = text.strip().lower()
    if not key or key.startswith("u") or key == "not known":
        return "unknown"
    if key.startswith("m"):
        return "male"
    if key.startswith("f"):
        return "female"
    raise CellProblem("not a sex: write Male, Female or leave it empty")


def birth_year_of(text: str, today: dt.date) -> int | None:
    text = text.strip()
    if not text:
        return None
    year = int(text) if re.fullmatch(r"\d{4}", text) else date_of(text).year
    if not 1990 <= year <= today.year:
        raise CellProblem(f"a year of birth between 1990 and {today.year} is expected")
    return year


def incident_kind(text: str) -> str:
    """ASM3's incident types and a spreadsheet's words, read as dogcase's kinds of incident."""
    key = text.strip().lower()
    for word, kind in (
        ("bite", "bite"),
        ("attack", "attack"),
        ("kill", "kill"),
        ("chas", "chase_or_approach"),
        ("approach", "chase_or_approach"),
    ):
        if word in key:
            return kind
    return "other"


def place_type_of(text: str) -> str:
    key = _key(text)
    for value, words in INCIDENT[6].choices:
        if key in (_key(value), _key(words)):
            return value
    if "public" in key or "street" in key or "park" in key:
        return "public"
    if "owner" in key:
        return "owner_property"
    if "private" in key:
        return "private_other"
    raise CellProblem("not a kind of place: a public place, private property of someone else, or the owner's")

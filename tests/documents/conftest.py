"""A case whose records hold every value a notice needs, and helpers to read an issued PDF back."""

import datetime as dt
import re
import shutil
import subprocess
from zoneinfo import ZoneInfo

import pytest

from dogcase.cases import acts
from dogcase.cases.files import open_blob
from dogcase.documents import acts as document_acts

CT = ZoneInfo("America/Chicago")
DAY0 = dt.date(2026, 6, 1)  # a Monday clear of holidays

BITE = {
    "bit": True,
    "attacked": True,
    "victim": "human",
    "injury": "minor",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
    "aggressive": True,
}
SERIOUS = {**BITE, "injury": "substantial_bodily_harm"}
PHONE = "218-555-0142"


def at(day: int, hour: int = 10) -> dt.datetime:
    return dt.datetime.combine(DAY0 + dt.timedelta(days=day), dt.time(hour), tzinfo=CT)


def on(day: int) -> str:
    return (DAY0 + dt.timedelta(days=day)).isoformat()


def pdf_text(doc) -> str:
    """The issued PDF's text, by Debian's pdftotext (poppler-utils)."""
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.fail("pdftotext is missing: scripts/system-packages.sh installs poppler-utils")
    with open_blob(doc.blob) as f:
        data = f.read()
    out = subprocess.run([pdftotext, "-raw", "-", "-"], input=data, capture_output=True, check=True)  # noqa: S603 — fixed arguments
    return out.stdout.decode()


def without_footers(text: str) -> str:
    """The PDF's text without its page footers (a statement that runs over a page break has one inside)."""
    text = re.sub(r"No\. \S+ · (?:version \d+ · page \d+ of|versión \d+ · página \d+ de) \d+", "", text)
    return re.sub(r"(?:Verification code|Código de verificación) \w+ — \S*/verify/\w+", "", text)


def cites_of(doc) -> list[str]:
    """The citations printed beside the document's statements (a statement that runs over a page break has
    the next page's citations inside its text, as pdftotext reads it)."""
    from django.utils import timezone

    from dogcase.law import library

    j = library().get(doc.jurisdiction)
    day = timezone.localtime(doc.issued_at).date()
    if not doc.correctable:
        return []  # a receipt or a statement: dogcase's document, its citations in its own text
    out = set()
    for t in j.document_pages(doc.doc_type, day):
        for s in t.sections:
            if s.citation and s.citation.get("citation"):
                out.add(squeeze(s.citation["citation"]))
    return sorted(out, key=len, reverse=True)


def contains_values(doc, text: str) -> list[str]:
    """The elements whose filled text is not in the PDF's text (footers and printed citations aside)."""
    cites = cites_of(doc)

    def clean(t: str) -> str:
        t = squeeze(without_footers(t))
        for c in cites:
            t = t.replace(c, "")
        return t

    flat = clean(text)
    return [element for element, filled in doc.elements.items() if clean(filled) not in flat]


def squeeze(text: str) -> str:
    """Text without its whitespace: line breaks in the PDF do not fall where they fall in the source."""
    return re.sub(r"\s+", "", text)


class Case:
    """A case with complete records (owner's address, dog's description, the incident's narrative)."""

    def __init__(self, staff, city: str = "battle-lake-mn", facts=BITE, day: int = 0) -> None:
        self.staff = staff
        officer = staff["officer"]
        officer.first_name, officer.last_name = "Alex", "Lindqvist"
        officer.save()
        town = "Battle Lake" if city == "battle-lake-mn" else "Tracy"
        self.owner = acts.record_person(
            jurisdiction=city,
            actor=officer,
            full_name="Olive Ostrander",
            street="12 Lake Street",
            city_name=town,
            postal_code="56515",
            phone="218-555-0100",
            at=at(day, 9),
        )
        premises = acts.record_premises(
            jurisdiction=city,
            actor=officer,
            street="12 Lake Street",
            city_name=town,
            tenure="owned",
            at=at(day, 9),
        )
        self.dog = acts.record_dog(
            jurisdiction=city,
            actor=officer,
            owners=[self.owner],
            premises=premises,
            name="Rexford",
            breed="Labrador mix",
            colour="black",
            sex="male",
            microchip_number="985112003456789",
            at=at(day, 9),
        )
        self.incident = acts.record_incident(
            jurisdiction=city,
            actor=officer,
            occurred_at=at(day, 8),
            place="Main Street by the post office",
            place_type=facts["place"],
            kind="bite",
            narrative="The dog ran through an open gate and bit a passer-by on the left calf.",
            dogs=[self.dog],
            facts=facts,
            victims=[{"kind": "human", "name": "Val Victim", "injury": facts.get("injury", "minor")}],
            at=at(day, 9),
        )
        self.case = acts.open_case(incident=self.incident, dog=self.dog, actor=officer, at=at(day, 9))

    def step(self, step_id: str, who: str, day: int, hour: int = 11, departure_reason: str = "", **inputs):
        """A step through the documents' act (it issues the step's documents, if any)."""
        self.case.refresh_from_db()
        result = document_acts.take_step(
            self.case,
            step_id,
            actor=self.staff[who],
            inputs=inputs,
            expected_version=self.case.version,
            at=at(day, hour),
            departure_reason=departure_reason,
        )
        self.case = result.case
        return result

    def declare(
        self, day: int = 1, designation: str = "potentially_dangerous", telephone: str | None = PHONE
    ):
        inputs = {"designation": designation, "basis": "Bit a person without provocation on public property"}
        if telephone:
            inputs["declarant_telephone"] = telephone
        # these stories are about the documents: a designation the intake's facts do not support is declared
        # with the reason the law asks for (issue 20, item 4), recorded only when it is needed
        return self.step("declare", "officer", day, departure_reason=DEPARTURE, **inputs)

    def serve(self, day: int = 2, **extra):
        inputs = {"served_on": on(day), "method": "personal", "served_owner": "Olive Ostrander", **extra}
        return self.step("serve_notice", "officer", day, **inputs)


DEPARTURE = "The officer saw the bite and its injuries; more than the intake recorded"


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def make_case(staff, media, db):
    def make(city: str = "battle-lake-mn", facts=BITE, day: int = 0) -> Case:
        return Case(staff, city, facts, day)

    return make

"""The owner's documents carry the "what happens next" box and, in the owner's language, the explanation
beside the English legal text; a notice issued by the step that schedules a hearing carries the hearing's
calendar file (issue 8, items 5 and 6)."""

import re
import shutil
import subprocess

import icalendar
import pytest

from dogcase.cases import updates
from dogcase.cases.files import open_blob
from dogcase.documents import acts as document_acts
from dogcase.documents import render
from dogcase.documents.fill import _owner_parts
from tests.documents.conftest import at, on, pdf_text

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def notice_draft(c, day: int = 2):
    _, _, drafts = document_acts.drafts_for_step(
        c.case,
        "serve_notice",
        inputs={"served_on": on(day), "method": "personal", "served_owner": "Olive Ostrander"},
        at=at(day, 11),
        actor=c.staff["officer"],
    )
    return next(d for d in drafts if d.audience == "owner")


def test_the_owners_notice_carries_the_box_with_the_clock_the_notice_starts(make_case):
    c = make_case()
    c.declare()
    draft = notice_draft(c)
    assert draft.language == "en" and draft.owner_explanation == ""
    box = _text(draft.owner_box)
    # the box counts from the notice being served in this very step: the owner's 14 days of (B)(2)(b)
    assert "What happens next, and by when" in box
    assert "Request a hearing on the potentially dangerous dog declaration" in box
    assert "Wednesday, 17 June 2026" in box and "§ 90.15 (B)(2)(b)" in box
    assert "or, if that is later, 14 days after" in box  # (H): from receipt, not recorded yet
    assert "you lose this right" in box
    html = render.render_html(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    assert "What happens next, and by when" in html
    assert html.index(draft.sections[0].text[:20]) < html.index("What happens next")  # after the statements
    assert "hearing.ics" not in html  # no hearing scheduled by this step


def test_a_spanish_reading_owner_gets_the_explanation_beside_the_english(make_case):
    c = make_case()
    updates.update_person(
        c.owner, actor=c.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for Spanish"
    )
    c.declare()
    draft = notice_draft(c)
    assert draft.language == "es"
    html = render.render_html(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    text = _text(html)
    # the legal text: English, as filled; "Your case online" (not the legal notice) in Spanish (issue 18)
    for section in draft.sections:
        if section.text and section.heading != "Your case online":
            assert _text(section.text)[:40] in text
    assert "Su caso en línea" in text and "Your case online" not in text
    assert "Request a hearing on the potentially dangerous dog declaration" in text
    # beside it, in Spanish
    assert "Qué pasa ahora y para cuándo" in text
    assert "miércoles 17 de junio de 2026" in text
    assert "Este es un documento oficial emitido por la Ciudad de Battle Lake" in text
    assert 'lang="es"' in html
    pdf = render.render_pdf(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    assert pdf.startswith(b"%PDF")


def test_the_printed_box_keeps_each_steps_citation_whole_beside_it(make_case):
    """In the PDF, "what happens next" is two columns: the step, and its citation as one line beside it (a
    citation column squeezed to a word a line printed "§", "90.15", "(B)" one under the other)."""
    c = make_case()
    c.declare()
    draft = notice_draft(c)
    pdf = render.render_pdf(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.fail("pdftotext is missing: scripts/system-packages.sh installs poppler-utils")
    out = subprocess.run([pdftotext, "-layout", "-", "-"], input=pdf, capture_output=True, check=True)  # noqa: S603
    lines = out.stdout.decode().splitlines()
    step = next(
        i for i, line in enumerate(lines) if "Request a hearing on the potentially dangerous dog" in line
    )
    assert "§ 90.15 (B)(2)(b); § 90.15 (H)" in lines[step]  # the citation on the step's first line, whole
    assert not any(line.strip() == "§" for line in lines)


def test_a_step_that_schedules_a_hearing_gives_its_owner_document_the_calendar_file(make_case, monkeypatch):
    """No pack yet issues an owner's document from the step that schedules the hearing (the notice of hearing
    of (I)(2) is still to be written as pack data): the part that builds the file is asked directly, with the
    scheduling step and its inputs, as fill_document asks it."""
    from dogcase.cases.acts import case_state
    from dogcase.documents.fill import Sources
    from dogcase.law import library

    c = make_case()
    c.declare()
    j = library().get(c.case.jurisdiction)
    state = case_state(c.case)
    step = j.step("schedule_hearing", at(8).date())
    sources = Sources(
        c.case,
        j,
        state=state,
        step=step,
        inputs={
            "hearing_at": at(15, 14),
            "place": "City Hall, council chambers",
            "hearing_officer": str(c.staff["hearing"].pk),
        },
        at=at(8, 11),
        actor=c.staff["clerk"],
    )

    class NoticeOfHearing:
        title = "Notice of hearing"
        audience = "owner"

    parts = _owner_parts(NoticeOfHearing, sources, c.owner)
    (event,) = icalendar.Calendar.from_ical(parts["calendar"]).walk("VEVENT")
    assert event.decoded("DTSTART") == at(15, 14)
    assert str(event["LOCATION"]) == "City Hall, council chambers"
    assert "R. Aamodt" not in parts["calendar"]


def test_the_calendar_file_is_embedded_in_the_pdf(make_case, tmp_path):
    c = make_case()
    c.declare()
    draft = notice_draft(c)
    draft.calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n"
    html = render.render_html(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    assert "hearing.ics" in html  # the letter says the file is attached
    pdf = render.render_pdf(draft, number="X-D1", version=1, code="ABCDEFGHJK", issued_at=at(2, 11))
    pdfdetach = shutil.which("pdfdetach")  # Debian's poppler-utils, as pdftotext
    if pdfdetach is None:
        pytest.fail("pdfdetach is missing: scripts/system-packages.sh installs poppler-utils")
    path = tmp_path / "notice.pdf"
    path.write_bytes(pdf)
    listed = subprocess.run([pdfdetach, "-list", str(path)], capture_output=True, text=True, check=True)  # noqa: S603
    assert "hearing.ics" in listed.stdout
    subprocess.run([pdfdetach, "-save", "1", "-o", str(tmp_path / "out.ics"), str(path)], check=True)  # noqa: S603
    assert (tmp_path / "out.ics").read_bytes().decode() == draft.calendar


def test_scheduling_the_hearing_issues_the_notice_of_hearing_with_its_calendar_file(make_case, tmp_path):
    c = make_case()
    updates.update_person(
        c.owner, actor=c.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for Spanish"
    )
    c.declare()
    c.serve(received_on=on(2))
    c.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    result = c.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall, 105 Main Street",
        hearing_officer=str(c.staff["hearing"].pk),
    )
    notice = next(d for d in result.documents if d.doc_type == "hearing_notice")
    assert notice.language == "es"
    text = " ".join(pdf_text(notice).split())
    assert "Qué pasa ahora y para cuándo" in text and "Explicación en español" in text
    assert "Su audiencia es el" in text and "City Hall, 105 Main Street" in text
    assert "hearing.ics" in text  # the letter says the calendar file is attached
    with open_blob(notice.blob) as f:
        (tmp_path / "notice.pdf").write_bytes(f.read())
    pdfdetach = shutil.which("pdfdetach")
    assert pdfdetach, "pdfdetach is missing: scripts/system-packages.sh installs poppler-utils"
    subprocess.run(  # noqa: S603
        [pdfdetach, "-save", "1", "-o", str(tmp_path / "hearing.ics"), str(tmp_path / "notice.pdf")],
        check=True,
    )
    (event,) = icalendar.Calendar.from_ical((tmp_path / "hearing.ics").read_bytes()).walk("VEVENT")
    assert event.decoded("DTSTART") == at(15, 14)
    assert str(event["LOCATION"]) == "City Hall, 105 Main Street"

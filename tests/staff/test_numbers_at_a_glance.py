"""Incident and case numbers are told apart at a glance, and long values wrap inside their cell (issue 10,
item 7). BL-2026-0001 (a case) and BL-I2026-0001 (an incident) differ by one letter: each is shown with its kind
in words and a look of its own."""

import re
from pathlib import Path

import pytest

from dogcase.cases import acts
from tests.staff.conftest import client_for, record_bite

pytestmark = pytest.mark.django_db

CSS = Path(__file__).resolve().parents[2] / "dogcase" / "staff" / "static" / "dogcase" / "site.css"


def test_every_page_that_lists_both_names_each_number_with_its_kind(officer):
    case = record_bite(officer, dog_name="Brutus")
    incident = case.incident
    client = client_for(officer)
    case_ref = f'<a class="ref ref-case" href="/cases/{case.number}"><span class="ref-kind">Case</span> {case.number}</a>'
    incident_ref = (
        f'<a class="ref ref-incident" href="/incidents/{incident.number}"><span class="ref-kind">Incident</span> '
        f"{incident.number}</a>"
    )
    pages = {
        f"/dogs/{case.dog_id}": (case_ref, incident_ref),
        f"/search?q={case.dog.name}": (case_ref,),
        f"/search?q={incident.number}": (incident_ref,),
        f"/cases/{case.number}": (incident_ref,),
        f"/incidents/{incident.number}": (case_ref,),
        "/cases/": (case_ref,),
        "/incidents/": (incident_ref,),
    }
    for url, refs in pages.items():
        html = client.get(url).content.decode()
        for ref in refs:
            assert ref in html, (url, ref)
        # no bare number in a link: each is inside its kind's badge
        bare = re.findall(
            rf'<a href="[^"]+">({re.escape(case.number)}|{re.escape(incident.number)})</a>', html
        )
        assert not bare, (url, bare)


def test_the_two_kinds_look_different_and_long_values_wrap_in_their_cell():
    css = CSS.read_text(encoding="utf-8")
    case_rule = re.search(r"\.ref-case \{([^}]*)\}", css).group(1)
    incident_rule = re.search(r"\.ref-incident \{([^}]*)\}", css).group(1)
    assert case_rule.strip() != incident_rule.strip()
    wrapping = re.search(r"([^}]*)\{[^}]*overflow-wrap: anywhere", css).group(1)
    for cell in (".facts dd", ".inputs dd", ".list-table td", ".law-table td"):
        assert cell in wrapping


def test_a_long_unbroken_value_is_shown_whole(officer):
    case = record_bite(officer)
    long_place = (
        "Lakeside-Park-north-entrance-by-the-boat-launch-" * 4
    )  # 192 characters, no space to break at
    acts.take_step(
        case,
        "declare",
        actor=officer,
        inputs={"designation": "potentially_dangerous", "basis": long_place},
        expected_version=case.version,
    )
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    assert f'<dd data-input="basis">{long_place}</dd>' in html  # whole, in a cell that wraps it

"""Everything entered is shown (issue 10, item 4): every input a step's form was given appears on the case page,
in the timeline beside the act (once: issue 20 removed the summary at the top that repeated it) — read from the
step's inputs in the law pack, not from code written for one step."""

import re

import pytest
from django.utils import timezone

from dogcase.cases.models import Event
from dogcase.law import library
from tests.staff.conftest import client_for, record_bite, take

pytestmark = pytest.mark.django_db


def _inputs_of(html: str, block: str) -> dict[str, str]:
    """label -> value of every <dl class="inputs"> in one part of the page."""
    pairs = re.findall(r"<dt>([^<]+)</dt><dd data-input=\"[a-z_]+\">([^<]*)</dd>", block)
    return dict(pairs)


def test_every_input_of_the_declaration_and_the_notice_is_on_the_case_page(officer):
    case = record_bite(officer, dog_name="Brutus", owner_name="Pat Owner")
    take(
        case,
        "declare",
        officer,
        designation="dangerous",
        basis="Unprovoked bite on Lake Ave, see report 26-114",
        declarant_telephone="218-555-0142",
    )
    today = timezone.localdate()
    take(
        case,
        "serve_notice",
        officer,
        served_on=today.isoformat(),
        method="personal",
        served_owner="Pat Owner, at home",
        telephoned=True,
    )
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    timeline = html.partition('id="timeline"')[2]
    # shown once: before the timeline no entered value is repeated
    assert not _inputs_of(html, html.partition('id="timeline"')[0])
    j = library().get(case.jurisdiction)
    for part in (timeline,):
        shown = _inputs_of(html, part)
        for step_id, inputs in (
            ("declare", {"basis", "declarant_telephone"}),
            ("serve_notice", {"served_owner"}),
        ):
            step = j.step(step_id, today)
            for inp in step.inputs:
                if inp.id in inputs:
                    assert " ".join(inp.label.split()) in shown, (step_id, inp.id)
        values = set(shown.values())
        assert "Unprovoked bite on Lake Ave, see report 26-114" in values
        assert "218-555-0142" in values
        assert "Pat Owner, at home" in values
        assert "Dangerous dog" in values  # a choice in the law's words, not its id
        assert "Yes" in values  # the owner was telephoned
    # every input stored with the act is shown: nothing entered is left out
    for event in case.events.filter(kind=Event.Kind.STEP):
        for value in event.data["inputs"].values():
            if isinstance(value, str) and not re.fullmatch(r"[a-z_]+|\d{4}-\d\d-\d\d.*", value):
                assert value in timeline

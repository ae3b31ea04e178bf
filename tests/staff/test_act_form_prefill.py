"""Act forms start from what the case knows (today's date for a fact, to change when it happened earlier; the
owner on record as the person served), list every problem at the top with a link to its field, and confirm
what was recorded in a clerk's words."""

import datetime as dt
import re

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from dogcase.staff.actwords import past_tense, prefill, stage_words
from tests.staff.conftest import client_for, declare, record_bite

pytestmark = pytest.mark.django_db


def test_a_notice_form_starts_with_today_and_the_owner_on_record(officer):
    case = record_bite(officer, owner_name="Pat Owner")
    declare(case, officer)
    response = client_for(officer).get(f"/cases/{case.number}/act/serve_notice")
    html = response.content.decode()
    today = timezone.localdate().isoformat()
    assert re.search(rf'id="in-served_on"[^>]*value="{today}"', html)
    assert "Today's date. If it happened on an earlier day, change it to that day." in html
    # a name: a one-line field (issue 20, item 7)
    served = re.search(r'<input type="text" id="in-served_owner"[^>]*value="([^"]*)"', html)
    assert served and served.group(1).startswith("Pat Owner, ")


def test_only_the_required_date_of_a_fact_or_the_steps_own_date_starts_at_today(officer):
    from dogcase.law import library

    case = record_bite(officer)
    today = timezone.localdate()
    seen = {"today": 0, "left": 0}
    for step in library().get(case.jurisdiction).procedure(today):
        values, today_ids = prefill(step, case, today=today)
        for inp in step.inputs:
            if inp.kind not in ("date", "datetime"):
                continue
            fact = inp.kind == "date" and inp.when != "future" and bool(inp.all_records)
            fact = fact and (inp.required or inp is step.legal_input)
            assert (inp.id in today_ids) == fact, (step.id, inp.id)
            assert values.get(inp.id) == (today.isoformat() if fact else None), (step.id, inp.id)
            seen["today" if fact else "left"] += 1
    assert seen["today"] and seen["left"]  # both kinds occur in the pack


def test_every_missing_field_is_listed_at_the_top_with_a_link_to_it(officer):
    case = record_bite(officer)
    declare(case, officer)
    response = client_for(officer).post(
        f"/cases/{case.number}/act/serve_notice", {"version": case.version + 1, "in-served_on": ""}
    )
    assert response.status_code == 400
    html = response.content.decode()
    summary = html[
        html.index('class="error-summary"') : html.index("</div>", html.index('class="error-summary"'))
    ]
    assert html.index('class="error-summary"') < html.index('data-input="served_on"')
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', summary)
    anchors = [a for a, _ in links]
    assert "in-served_on" in anchors and "in-method-group" in anchors and "in-served_owner" in anchors
    for anchor in anchors:
        assert f'id="{anchor}"' in html  # each link lands on its field
    assert any(text.startswith("Date of the notice (served): Give the date.") for _, text in links)


def test_the_confirmation_says_what_was_recorded(officer):
    case = record_bite(officer, dog_name="Rex")
    client = client_for(officer)
    response = client.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "potentially_dangerous",
            "in-basis": "Bit a jogger",
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 302
    said = [m.message for m in get_messages(response.wsgi_request)]
    assert said == ["Declared Rex potentially dangerous under § 90.15 (B)(1)(a)."]


def test_the_confirmation_of_a_dated_step_gives_its_date(officer):
    case = record_bite(officer, dog_name="Rex")
    declare(case, officer)
    client = client_for(officer)
    form = client.get(f"/cases/{case.number}/act/serve_notice")
    day = timezone.localdate() - dt.timedelta(days=1)
    response = client.post(
        f"/cases/{case.number}/act/serve_notice",
        {
            "version": form.context["version"],
            "in-served_on": day.isoformat(),
            "in-method": "personal",
            # every element the notice must contain, as offered (while the form asks for them)
            "in-contents": [
                c["value"]
                for f in form.context["fields"]
                if f["kind"] == "document"
                for c in f["choices"]
                if c.get("applies", True)
            ],
            "in-served_owner": "Pat Owner, at home",
        },
    )
    assert response.status_code == 302, re.findall(
        r"<a href=\"#[^\"]+\">([^<]+)</a>", response.content.decode()
    )
    said = [m.message for m in get_messages(response.wsgi_request)]
    assert said == [f"Served the notice of declaration on the owner — Rex ({day:%a %-d %b %Y})."]


def test_labels_and_stages_in_a_clerks_words():
    assert past_tense("Declare the dog potentially dangerous or dangerous").startswith("Declared the dog")
    assert past_tense("Hold the appeal hearing") == "Held the appeal hearing"
    assert past_tense("Classify the dog") == "Classified the dog"
    assert past_tense("Transfer the dog") == "Transferred the dog"
    assert past_tense("Owner's report") == "Recorded: Owner's report"
    assert stage_words("Case opened") == "Incident recorded, not yet decided"
    assert stage_words("Issue the hearing officer's decision") == "Issued the hearing officer's decision"


def test_the_case_page_says_where_the_case_stands_in_words(officer):
    case = record_bite(officer)
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    assert "Incident recorded, not yet decided" in html
    declare(case, officer)
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    # issue 20: where it stands is what the latest act did (it was "Declared the dog ...", the step's title)
    assert re.search(r'class="stage">The city declared the dog potentially dangerous<', html)


def test_the_declaration_and_the_council_meeting_can_be_back_dated(officer):
    case = record_bite(officer, dog_name="Rex")
    html = client_for(officer).get(f"/cases/{case.number}/act/declare").content.decode()
    today = timezone.localdate()
    assert re.search(rf'id="in-declared_on"[^>]*value="{today.isoformat()}"', html)
    from dogcase.law import library

    confirm = library().get(case.jurisdiction).step("confirm_or_rescind", today)
    values, today_ids = prefill(confirm, case, today=today)
    assert today_ids == {"decided_on"} and values["decided_on"] == today.isoformat()

"""The case page a phone can hold (issue 20, item 6): its first section says where the case stands, what is due
next and by whom, and the act to take; the rest folds (closed, counted); nothing entered is listed twice; a heavy
fold's content comes when it is opened (?part=…) or with the whole page (?full=1)."""

import datetime as dt
import re

import pytest
from django.utils.html import escape

from dogcase.staff.views.cases import next_due
from tests.staff.conftest import client_for
from tests.staff.test_case_page import served_dangerous  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def first_section(html: str) -> str:
    start = html.index('<section id="now"')
    return html[start : html.index("</section>", start)]


def test_the_first_section_says_where_it_stands_what_is_due_and_by_whom(
    officer,
    served_dangerous,  # noqa: F811 - the fixture imported above
):
    response = client_for(officer).get(f"/cases/{served_dangerous.number}")
    html = response.content.decode()
    now = first_section(html)
    assert 'class="stage"' in now and 'class="designation-now"' in now
    due = response.context["next_due"]
    assert due is not None and due["status"] != "met"
    assert f'<span class="who">{due["who"]}</span>' in now
    # the act to take comes right after it, before any fold
    steps = html.index('<section id="next"')
    assert html.index('<section id="now"') < steps < html.index("<details")
    assert f'href="/cases/{served_dangerous.number}/act/' in html[steps : html.index("</section>", steps)]


def test_the_rest_folds_closed_with_a_count(
    officer,
    served_dangerous,  # noqa: F811
):
    html = client_for(officer).get(f"/cases/{served_dangerous.number}").content.decode()
    for fold, words in (
        ("timeline-fold", r"What has happened \(\d+\)"),
        ("documents-fold", r"Documents issued \(\d+\)"),
        ("messages-fold", r"Messages \(\d+\)"),
    ):
        tag = re.search(rf'<details[^>]*id="{fold}"[^>]*>', html)
        assert tag and " open" not in tag.group(0), fold
        assert re.search(words, html[tag.end() : tag.end() + 400]), fold
    assert re.search(r"What was entered \(\d+\)", html)
    assert re.search(r"What is owed, by whom, by when \(\d+ open", html)  # counted, shown whole
    # the values entered are listed once: in the timeline, beside the act
    before_timeline = html.partition('id="timeline"')[0]
    assert "data-input=" not in before_timeline


def test_a_heavy_fold_comes_when_opened_or_with_the_whole_page(
    officer,
    served_dangerous,  # noqa: F811
):
    client = client_for(officer)
    url = f"/cases/{served_dangerous.number}"
    page = client.get(url)
    html = page.content.decode()
    refused = page.context["refused_steps"]
    assert refused
    assert 'class="step-refused"' not in html and f'data-part="{url}?part=refused"' in html
    part = client.get(url + "?part=refused").content.decode()
    assert "<html" not in part
    for s in refused:
        assert f'data-step="{s["id"]}"' in part
        for r in s["refusals"]:
            assert escape(r["reason"]) in part
    whole = client.get(url + "?full=1").content.decode()
    assert whole.count('class="step-refused"') == len(refused)
    assert "What the facts supported when the case was opened" in whole
    assert 'data-part="' not in whole

    noted = next(o for o in page.context["open_obligations"] if o["notes"])
    notes = client.get(url, {"part": "notes", "deadline": noted["deadline_id"]}).content.decode()
    assert notes.count('class="defect-note"') == len(noted["notes"])
    assert client.get(url, {"part": "notes", "deadline": "no.such.deadline"}).status_code == 404


def _row(kind, status, due, what):
    return {"kind": kind, "status": status, "due": due, "what": what}


def test_what_is_due_next_is_a_dated_obligation_before_a_time_that_only_opens_an_act():
    day = dt.date(2026, 10, 9)
    opens = _row("not_before", "open", day, "seize")
    unknown = _row("due", "undetermined", None, "register")
    dated = _row("due", "overdue", day + dt.timedelta(days=17), "sterilize")
    assert next_due([opens, unknown, dated])["what"] == "sterilize"
    assert next_due([opens, unknown])["what"] == "seize"  # none dated: the soonest open one
    assert next_due([]) is None

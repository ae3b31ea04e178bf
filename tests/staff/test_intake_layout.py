"""The intake form's layout without a browser: the classification panel and its one-line summary, the
landlord's fields present without JavaScript, and the questions in the officer's words."""

import re

import pytest

from tests.staff.conftest import client_for
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db


def test_the_panel_follows_the_form_with_a_summary_bar_before_the_submit_button(officer):
    html = client_for(officer).get("/incidents/new", follow=True).content.decode()
    main = html.index('class="intake-main"')
    bar = html.index('id="classification-bar"')
    submit = html.index("Record the incident and open the case</button>")
    panel = html.index('id="classification"')
    assert main < bar < submit < panel
    assert 'href="#classification"' in html[bar:submit]


def test_the_live_answer_also_updates_the_summary_bar(officer):
    response = client_for(officer).post("/incidents/new/classify", intake())
    html = response.content.decode()
    assert 'id="classification-bar" class="classification-bar" hx-swap-oob="true"' in html
    bar = html[html.index('id="classification-bar"') :]
    assert "Potentially dangerous dog — the facts support it" in bar


def test_the_landlords_fields_are_in_the_page_without_javascript(officer):
    html = client_for(officer).get("/incidents/new", follow=True).content.decode()
    landlord = html[html.index('class="landlord"') :]
    assert 'name="dog-0-landlord_name"' in landlord
    assert (
        "<details" not in html[html.index('name="dog-0-tenure"') : html.index('name="dog-0-landlord_name"')]
    )


def test_the_questions_are_in_the_officers_words(officer):
    html = client_for(officer).get("/incidents/new", follow=True).content.decode()
    for words in ("Was the dog provoked", "Is it a police dog"):
        assert words in html
    for engine_words in (
        "give an empty list",
        "law enforcement officials for law enforcement work",
        "known propensity, tendency",
    ):
        assert engine_words not in html
    assert not re.search(r"\(inflict a bite on\)", html)

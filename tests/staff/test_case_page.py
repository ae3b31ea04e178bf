"""The case page: header, timeline, obligations with countdowns and citations, next steps, classification."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Obligation
from tests.staff.conftest import client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def served_dangerous(officer):
    case = record_bite(officer, dog_name="Brutus", owner_name="Pat Owner")
    declare(case, officer, designation="dangerous")
    take(
        case,
        "serve_notice",
        officer,
        served_on=timezone.localdate().isoformat(),
        method="personal",
        served_owner="Pat Owner, at home",
    )
    case.refresh_from_db()
    return case


def test_the_header_says_who_what_where_and_how_far_along(officer, served_dangerous):
    case = served_dangerous
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    assert f"Case {case.number}: Brutus" in html
    assert "Pat Owner" in html
    assert "Battle Lake" in html
    assert "Dangerous dog — <strong>in effect</strong>" in html
    assert 'data-status="open">Open<' in html
    # the stage, once (issue 20: no list above the timeline repeats the step's title)
    assert re.search(r'class="stage">[^<]*\b[Ss]erved? the notice of', html)


def test_the_timeline_lists_each_act_with_who_when_citation_and_layer(officer, served_dangerous):
    response = client_for(officer).get(f"/cases/{served_dangerous.number}")
    timeline = response.context["timeline"]
    acts_in_order = [e["act"] for e in timeline]
    assert acts_in_order == ["open_case", "declare", "serve_notice"]
    declared = timeline[1]
    assert declared["actor"] == "officer"
    assert declared["roles"] == "Animal control officer"
    assert "§ 90.15 (C)(1)" in declared["citation"]
    assert declared["layer"] == "City ordinance, with the state's minimum added"
    served = timeline[2]
    assert any(r["name"] == "Date of the notice" for r in served["recorded"])


def test_open_obligations_have_countdowns_citations_and_consequences(officer, served_dangerous):
    case = served_dangerous
    response = client_for(officer).get(f"/cases/{case.number}")
    html = response.content.decode()
    rows = {o["deadline_id"]: o for o in response.context["open_obligations"]}
    sterilize = rows["owner.sterilize"]
    days = (
        Obligation.objects.get(case=case, deadline_id="owner.sterilize").due_date - timezone.localdate()
    ).days
    assert sterilize["countdown"]["text"] == f"due in {days} days"
    assert "§ 90.15 (C)(6)" in sterilize["citation"]
    assert any("Seizure authorized" in c["what"] for c in sterilize["consequences"])
    assert f"due in {days} days" in html
    assert "If missed: Seizure authorized" in html


def test_an_undetermined_deadline_says_why(officer, served_dangerous):
    response = client_for(officer).get(f"/cases/{served_dangerous.number}")
    register = next(o for o in response.context["open_obligations"] if o["deadline_id"] == "owner.register")
    assert register["status"] == "undetermined"
    # the setting the city must supply is named in words (its id is for the API, not for a clerk)
    assert "the setting “When the 14 days to register the dangerous dog begin”" in register["reason"]
    assert "registration_trigger" not in register["reason"]
    assert "The due date cannot be worked out" in response.content.decode()


def test_the_classification_snapshot_of_the_opening_is_shown(officer, served_dangerous):
    response = client_for(officer).get(f"/cases/{served_dangerous.number}")
    snapshot = response.context["classification"]
    pdd = next(d for d in snapshot["designations"] if d["designation"] == "potentially_dangerous")
    assert pdd["status"] == "eligible"
    assert pdd["status_words"] == "The facts support it"
    html = response.content.decode()
    assert "What the facts supported when the case was opened" in html
    assert "{#" not in html and "as_dict()" not in html  # no template comment reaches the page


def test_a_closed_case_offers_no_step_about_the_dog(officer, hearing_officer, clerk):
    case = record_bite(officer)
    declare(case, officer)
    case.refresh_from_db()
    case.status = "closed"  # as a final act would leave it
    type(case).objects.filter(pk=case.pk).update(status="closed")
    response = client_for(officer).get(f"/cases/{case.number}")
    # only the owner's conviction (347.542), which concerns the person, not the dog's case
    assert [s["id"] for s in response.context["allowed_steps"]] == ["record_conviction"]
    assert "This case is closed" in response.content.decode()


def test_each_step_says_which_layer_of_law_it_comes_from(officer, served_dangerous):
    response = client_for(officer).get(f"/cases/{served_dangerous.number}")
    steps = response.context["allowed_steps"] + response.context["refused_steps"]
    layers = {s["id"]: s["layer"] for s in steps}
    assert layers["post_security"] == "state"
    assert layers["record_move"] == "city+state"  # (M) over 347.52 (c)
    assert layers["record_landlord_disclosure"] == "city"
    assert layers["serve_notice"] == "city+state" if "serve_notice" in layers else True


def test_the_sweep_task_can_be_marked_done_from_the_case(officer, clerk):
    import datetime as dt

    then = acts.now() - dt.timedelta(days=40)
    case = record_bite(officer)
    declare(case, officer, at=then - dt.timedelta(days=2))
    take(
        case,
        "serve_notice",
        officer,
        at=then - dt.timedelta(days=1),
        served_on=timezone.localdate(then - dt.timedelta(days=1)).isoformat(),
        method="personal",
        served_owner="Owner",
    )
    take(case, "receive_hearing_request", clerk, at=then, received_on=timezone.localdate(then).isoformat())
    acts.sweep()
    client = client_for(clerk)
    page = client.get(f"/cases/{case.number}")
    assert "Open tasks" in page.content.decode()
    # the clerk's task (the hearing to schedule); the bite's rabies observation has one of its own, the officer's
    task = next(t for t in page.context["tasks"] if ",city_clerk," in t.staff_roles)
    assert client.post(f"/tasks/{task.pk}/done").url == f"/cases/{case.number}"
    assert task.pk not in [t.pk for t in client.get(f"/cases/{case.number}").context["tasks"]]


def test_a_right_whose_time_ended_unused_is_not_shown_as_overdue(officer):
    """The owner's time to ask for a hearing is a right: unused, it ended; the case page never calls it "N days
    overdue", nor puts it first under "Due next" (it was seen on a demo case at 245 days overdue)."""
    import datetime as dt

    then = acts.now() - dt.timedelta(days=60)
    case = record_bite(officer)
    declare(case, officer, at=then - dt.timedelta(days=1))
    take(
        case,
        "serve_notice",
        officer,
        at=then,
        served_on=timezone.localdate(then).isoformat(),
        method="personal",
        served_owner="Owner",
        received_on=timezone.localdate(then).isoformat(),
    )
    acts.sweep()
    assert case.obligations.get(deadline_id="owner.request_hearing").status == "lapsed"
    page = client_for(officer).get(f"/cases/{case.number}?full=1")
    context = page.context
    assert "owner.request_hearing" not in [o["deadline_id"] for o in context["open_obligations"]]
    assert (context["next_due"] or {}).get("deadline_id") != "owner.request_hearing"
    ended = next(o for o in context["closed_obligations"] if o["deadline_id"] == "owner.request_hearing")
    assert ended["status_words"] == "Time ended unused (a right, not a duty)"
    html = page.content.decode()
    closed = html.split('class="closed-obligations"', 1)[1]
    assert 'data-deadline="owner.request_hearing"' in closed
    assert "Time ended unused (a right, not a duty)" in closed


def test_the_case_page_says_when_the_city_holds_the_dog():
    import datetime as dt

    from dogcase.staff.views.cases import custody

    d = dt.date
    assert custody({"declaration": d(2026, 6, 1)}) is None
    assert custody({"seizure": d(2026, 6, 20)}) == {"since": d(2026, 6, 20), "how": "seized"}
    assert custody({"seizure": d(2026, 6, 20), "release": d(2026, 6, 22)}) is None
    # seized again after a release
    assert custody({"seizure": d(2026, 7, 1), "release": d(2026, 6, 22)})["since"] == d(2026, 7, 1)
    assert custody({"impoundment": d(2026, 6, 2), "destruction": d(2026, 6, 30)}) is None


def test_a_closed_case_offers_only_the_steps_about_the_owner(officer):
    # a dog never declared, destroyed under 347.56 after its owner's 14 days ran out unused
    case = record_bite(officer, occurred_at=acts.now() - dt.timedelta(days=40))
    served = (timezone.localdate() - dt.timedelta(days=30)).isoformat()
    take(
        case,
        "serve_destruction_notice",
        officer,
        served_on=served,
        incident="mauled a child without provocation",
        method="personal service",
    )
    take(case, "destroy", officer, facts="mauled a child", unprovoked_harm=True)
    page = client_for(officer).get(f"/cases/{case.number}")
    html = page.content.decode()
    shown = {s["id"] for s in page.context["allowed_steps"] + page.context["refused_steps"]}
    assert shown == {"record_conviction", "record_ownership_ban", "review_ownership_ban"}
    assert "only those about its owner" in html
    assert {s["id"] for s in page.context["allowed_steps"]} == {"record_conviction"}


def test_a_closed_case_refuses_a_step_about_the_dog_by_its_form(officer):
    # the case page offers only the owner's steps on a closed case; the form of any other step, asked for by
    # its address, is blocked and its submission refused
    case = record_bite(officer, occurred_at=acts.now() - dt.timedelta(days=40))
    served = (timezone.localdate() - dt.timedelta(days=30)).isoformat()
    take(
        case,
        "serve_destruction_notice",
        officer,
        served_on=served,
        incident="mauled a child without provocation",
        method="personal service",
    )
    take(case, "destroy", officer, facts="mauled a child", unprovoked_harm=True)
    case.refresh_from_db()
    client = client_for(officer)
    form = client.get(f"/cases/{case.number}/act/declare")
    assert form.status_code == 200 and form.context["blocked"]
    assert "The case is closed" in form.content.decode()
    response = client.post(
        f"/cases/{case.number}/act/declare",
        {
            "version": case.version,
            "in-designation": "dangerous",
            "in-basis": "Bit a child",
            "in-declarant_telephone": "218-555-0150",
        },
    )
    assert response.status_code == 409
    assert not case.events.filter(act="declare").exists()

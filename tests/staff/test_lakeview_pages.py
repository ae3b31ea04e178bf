"""What the staff pages show of a city written as a pack alone (Lakeview, tests/law/packs/lakeview-mn): its
own events in its own words, the notice's conditional elements and its recipient rule — and never an engine
identifier."""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from dogcase.cases.models import Case, Event
from tests.staff import test_lakeview_flow as flow
from tests.staff.page_words import identifiers_on, visible_text
from tests.staff.test_intake import intake
from tests.staff.test_lakeview_flow import LAKEVIEW, act

pytestmark = pytest.mark.django_db

lakeview, people = flow.lakeview, flow.people  # the fixtures of the Lakeview flow


def open_lakeview_case(sheriff) -> Case:
    response = sheriff.post(
        "/incidents/new",
        intake(
            jurisdiction=LAKEVIEW,
            **{
                "dog-0-owner_city": "Lakeview",
                "dog-0-premises_city": "Lakeview",
                "victim-0-injury": "permanent_disfigurement",
                "fact-leash_status": "unleashed",
                "fact-prior_written_warning": "no",
            },
        ),
    )
    assert response.status_code == 302
    return Case.objects.get()


@pytest.fixture
def declared(people):
    case = open_lakeview_case(people["sheriff"])
    act(people["sheriff"], case, "declare_aggressive", designation="aggressive", basis="Bit a jogger, § 5.01")
    case.refresh_from_db()
    return case


def test_a_lakeview_event_is_shown_in_the_words_of_its_pack(declared, people):
    clerk = people["clerk"]
    act(
        clerk,
        declared,
        "send_insurance_notice",
        sent_on=timezone.localdate().isoformat(),
        method="restricted_delivery_mail",
    )
    page = clerk.get(f"/cases/{declared.number}")
    sent = next(e for e in page.context["timeline"] if e["act"] == "send_insurance_notice")
    assert [r["name"] for r in sent["recorded"]] == [
        "Date of the sending of the certified-mail notice to insure the dog"
    ]
    text = visible_text(page.content.decode())
    assert "Date of the sending of the certified-mail notice to insure the dog" in text
    # the owner's time to show proof of insurance is counted from the city's event, named in its words
    insurance = next(
        o for o in page.context["open_obligations"] if o["deadline_id"] == "owner.prove_insurance"
    )
    assert insurance["counted_from"] == ["the sending of the certified-mail notice to insure the dog"]
    assert "Counted from the sending of the certified-mail notice to insure the dog." in text
    assert "certified_notice_sent" not in text and "Certified notice sent" not in text
    # the timeline's summary names the city's service method by its label
    assert "Certified mail, restricted delivery" in sent["summary"]
    seq = Event.objects.get(case=declared, act="send_insurance_notice").seq
    form = clerk.get(f"/cases/{declared.number}/events/{seq}/correct").content.decode()
    assert "the sending of the certified-mail notice to insure the dog" in form
    assert identifiers_on(form) == []


def test_no_engine_identifier_reaches_a_lakeview_case_page_or_its_act_forms(declared, people):
    clerk, sheriff = people["clerk"], people["sheriff"]
    today = timezone.localdate().isoformat()
    act(clerk, declared, "send_insurance_notice", sent_on=today, method="certified_mail_return_receipt")
    for client in (clerk, sheriff):
        page = client.get(f"/cases/{declared.number}")
        assert identifiers_on(page.content.decode()) == []
        for step in page.context["allowed_steps"]:
            form = client.get(step["url"]).content.decode()
            assert identifiers_on(form) == [], step["id"]
    incident = declared.incident.number
    for url in (
        "/",
        "/cases/",
        f"/dogs/{declared.dog_id}",
        f"/incidents/{incident}",
        f"/incidents/{incident}/add",
        "/incidents/new",
    ):
        assert identifiers_on(clerk.get(url, follow=True).content.decode()) == [], url


def test_the_notice_form_says_which_element_applies_why_not_and_to_whom_it_goes(declared, people):
    clerk = people["clerk"]
    response = clerk.get(f"/cases/{declared.number}/act/serve_declaration_notice")
    page = response.content.decode()
    text = re.sub(r"\s+([.:,])", r"\1", " ".join(visible_text(page).split()))
    # the recipient rule in plain words, with its citation
    assert "To whom the notice goes" in text
    assert "The owner of record or, if there is none, any owner (Lakeview City Code § 5.03)." in text
    # the draft of the notice: the elements that apply, filled; the one for a seized dog is not in it
    (draft,) = response.context["drafts"]
    stated = [e.rsplit("/", 1)[1] for sec in draft.sections for e in sec.elements]
    assert "dog_and_facts" in stated and "appeal_right" in stated
    assert "seized_dog" not in stated
    assert 'name="in-contents"' not in page  # nothing to tick: the documents say what they contain
    today = timezone.localdate().isoformat()
    act(clerk, declared, "serve_declaration_notice", served_on=today, method="email")
    declared.refresh_from_db()
    notice = declared.documents.get()
    assert sorted(e.rsplit("/", 1)[1] for e in notice.elements) == ["appeal_right", "dog_and_facts"]


def test_a_notice_with_an_element_without_a_value_is_refused_on_the_form(declared, people):
    clerk = people["clerk"]
    declared.refresh_from_db()
    response = clerk.post(
        f"/cases/{declared.number}/act/serve_declaration_notice",
        {"version": declared.version, "in-method": "email"},  # no date of the notice
    )
    assert response.status_code == 400
    assert not declared.events.filter(act="serve_declaration_notice").exists()
    assert not declared.documents.exists()


def test_the_most_seriously_hurt_victim_is_read_by_the_order_the_citys_pack_gives_its_injury_value(people):
    # two people hurt: a death ranks above Lakeview's permanent disfigurement (its pack places the value
    # after great bodily harm, below death), whichever row comes first
    orders = (("permanent_disfigurement", "death"), ("death", "permanent_disfigurement"))
    for n, (first, second) in enumerate(orders):
        response = people["sheriff"].post(
            "/incidents/new",
            intake(
                jurisdiction=LAKEVIEW,
                **{
                    "dog-0-name": f"Dog {n}",
                    "dog-0-microchip_number": f"98511200345678{n}",
                    "dog-0-licence_number": f"LV-{n}",
                    "dog-0-owner_city": "Lakeview",
                    "dog-0-premises_city": "Lakeview",
                    "victim-0-injury": first,
                    "victim-1-kind": "human",
                    "victim-1-name": "Sam Second",
                    "victim-1-injury": second,
                    "victim-1-conduct_none": "yes",
                    "fact-leash_status": "unleashed",
                    "fact-prior_written_warning": "no",
                },
            ),
        )
        assert response.status_code == 302
        incident = Case.objects.order_by("-pk").first().incident
        assert incident.facts["injury"] == "death", (first, second)


def test_the_intake_form_of_several_cities_keeps_a_citys_value_in_its_place(lakeview, make_staff_user):
    from tests.staff.conftest import client_for

    officer = client_for(
        make_staff_user("police_officer", username="both", cities=("battle-lake-mn", LAKEVIEW))
    )
    row = officer.get("/incidents/new/row/victim?index=0").content.decode()
    injuries = re.findall(
        r'value="(none|minor|substantial_bodily_harm|great_bodily_harm|permanent_disfigurement|death)"', row
    )
    assert injuries == [
        "none",
        "minor",
        "substantial_bodily_harm",
        "great_bodily_harm",
        "permanent_disfigurement",
        "death",
    ]
    assert "loss of function) (Lakeview, Minnesota (invented for tests) only)</option>" in row


def test_a_method_the_notice_does_not_allow_is_refused_in_the_words_of_the_form(declared, people):
    clerk = people["clerk"]
    declared.refresh_from_db()
    response = clerk.post(
        f"/cases/{declared.number}/act/send_insurance_notice",
        {"version": declared.version, "in-sent_on": timezone.localdate().isoformat(), "in-method": "email"},
    )
    assert response.status_code == 400
    message = response.context["errors"]["method"]
    assert message.startswith("Choose one of the choices offered: ")
    assert "Certified mail, restricted delivery" in message
    assert identifiers_on(response.content.decode()) == []


def test_once_the_dog_was_seized_the_element_for_a_seized_dog_is_demanded(declared, people, time_machine):
    clerk, sheriff = people["clerk"], people["sheriff"]
    act(
        clerk,
        declared,
        "send_insurance_notice",
        sent_on=timezone.localdate().isoformat(),
        method="certified_mail_return_receipt",
    )
    # the owner shows no proof within the 10 days: the Sheriff seizes the dog (§ 5.07)
    time_machine.move_to(timezone.now() + dt.timedelta(days=14), tick=False)
    for client, name in ((clerk, "lv-clerk"), (sheriff, "deputy")):  # a new day, a new login
        client.force_login(User.objects.get(username=name))
    act(sheriff, declared, "seize_aggressive", ground="no_insurance", place="Lake County kennel")
    response = clerk.get(f"/cases/{declared.number}/act/serve_declaration_notice")
    (draft,) = response.context["drafts"]
    seized = next(sec for sec in draft.sections if any(e.endswith("/seized_dog") for e in sec.elements))
    assert "Lake County kennel" in seized.text
    declared.refresh_from_db()
    act(
        clerk,
        declared,
        "serve_declaration_notice",
        served_on=timezone.localdate().isoformat(),
        method="email",
    )
    notice = declared.documents.filter(step="serve_declaration_notice").get()
    assert any(e.endswith("/seized_dog") for e in notice.elements)
    assert "Lake County kennel" in " ".join(notice.elements.values())

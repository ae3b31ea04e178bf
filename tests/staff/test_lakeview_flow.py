"""An invented Minnesota city written as a law pack alone (tests/law/packs/lakeview-mn) runs through the staff
app: intake with its own facts and its own injury value, the Sheriff's declaration, the notice served by
e-mail (a city service method) with its conditional element left out, the certified-mail notice that starts
the owner's insurance clock (a city event), the appeal, its hearing scheduled and held by the City
Administrator (a city role mapped to the hearing officer staff role)."""

import pytest
from django.utils import timezone

from dogcase.cases import acts
from dogcase.cases.models import Case
from dogcase.demo import with_complete_notices
from dogcase.law.loader import Library
from tests.law.lakeview import install_lakeview
from tests.packs_library import use_library
from tests.staff.conftest import client_for
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db

LAKEVIEW = "lakeview-mn"


@pytest.fixture
def lakeview(tmp_path, monkeypatch):
    return use_library(monkeypatch, Library(install_lakeview(tmp_path / "packs")))


@pytest.fixture
def people(lakeview, make_staff_user):
    def user(group: str, name: str):
        return client_for(make_staff_user(group, username=name, cities=(LAKEVIEW,)))

    return {
        "sheriff": user("police_officer", "deputy"),
        "clerk": user("city_clerk", "lv-clerk"),
        "administrator": user("hearing_officer", "lv-administrator"),
    }


def act(client, case: Case, step_id: str, **inputs):
    case.refresh_from_db()
    # what the notices issued contain, unless the test says (the documents app fills it when it issues them)
    inputs = with_complete_notices(case, step_id, acts.now(), inputs)
    data = {"version": case.version}
    data.update({f"in-{k}": v for k, v in inputs.items()})
    response = client.post(f"/cases/{case.number}/act/{step_id}", data)
    assert response.status_code == 302, response.content.decode()[-3000:]
    return response


def test_lakeview_from_intake_to_the_appeal_hearing(lakeview, people):
    sheriff, clerk, administrator = people["sheriff"], people["clerk"], people["administrator"]
    today = timezone.localdate()

    form = sheriff.get("/incidents/new", follow=True).content.decode()
    assert 'name="fact-leash_status"' in form  # the city's own fact is asked in its city
    row = sheriff.get("/incidents/new/row/victim?index=0").content.decode()
    assert "Permanent disfigurement (a lasting scar or loss of function)" in row  # the city's injury value

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
    case = Case.objects.get()
    assert case.number.startswith("LV-") and case.jurisdiction == LAKEVIEW
    assert case.incident.victims.get().injury == "permanent_disfigurement"
    assert case.incident.facts["leash_status"] == "unleashed"
    opened = case.events.get(act="open_case").data["classification"]
    assert {d["designation"]: d["status"] for d in opened["designations"]}["aggressive"] == "eligible"

    act(sheriff, case, "declare_aggressive", designation="aggressive", basis="Bit a jogger, § 5.01")
    case.refresh_from_db()
    j = lakeview.get(LAKEVIEW)
    choices = j.input_choices("serve_declaration_notice", acts.case_state(case), acts.now())["contents"]
    contents = [c["value"] for c in choices if c.get("applies", True)]
    # "if the dog was seized": it was not, so the notice is complete without that element
    assert [c["value"].rsplit("/", 1)[1] for c in choices if not c.get("applies", True)] == ["seized_dog"]
    assert sorted(v.rsplit("/", 1)[1] for v in contents) == ["appeal_right", "dog_and_facts"]
    act(
        clerk,
        case,
        "serve_declaration_notice",
        served_on=today.isoformat(),
        method="email",
        contents=contents,
    )
    act(
        clerk,
        case,
        "send_insurance_notice",
        sent_on=today.isoformat(),
        method="certified_mail_return_receipt",
    )
    insurance = case.obligations.get(deadline_id="owner.prove_insurance")
    assert (insurance.who, (insurance.due_date - today).days >= 10) == ("owner", True)

    appeal = case.obligations.get(deadline_id="owner.request_hearing")
    assert appeal.status == "open" and (appeal.due_date - today).days >= 10
    act(clerk, case, "receive_appeal", received_on=today.isoformat())
    act(clerk, case, "schedule_appeal_hearing", hearing_at=f"{today.isoformat()}T08:00")
    page = administrator.get(f"/cases/{case.number}").content.decode()
    assert "Hold the appeal hearing (City Administrator)" in page
    act(administrator, case, "hold_appeal_hearing", held_on=today.isoformat())

    case.refresh_from_db()
    assert list(case.events.filter(kind="step").values_list("act", flat=True)) == [
        "declare_aggressive",
        "serve_declaration_notice",
        "send_insurance_notice",
        "receive_appeal",
        "schedule_appeal_hearing",
        "hold_appeal_hearing",
    ]
    assert case.obligations.get(deadline_id="owner.request_hearing").status == "met"
    assert case.obligations.get(deadline_id="city.hold_hearing").status == "met"
    assert case.designation == "aggressive" and case.designation_in_effect

"""A city and a county with no dangerous-dog text of their own, added with `dogcase city add --state-only`, run a
dangerous dog's case to its end on the state law alone (Minn. Stat. 347.565): declaration, notice, the owner's
request, the hearing scheduled and made known, held, decided, and the certificate; a county's Sheriff's deputy
declares, seizes and has a dog destroyed after the 347.56 hearing. Each document is issued through the real act
and read back from its PDF."""

import pytest

from dogcase.cases.acts import Refused, case_state
from dogcase.cases.models import CityAccess, Dog
from dogcase.documents.models import CityOffice
from dogcase.law import library
from dogcase.law.loader import PACKS_DIR, Library
from dogcase.law.sitepacks import add_state_only
from tests.documents.conftest import SERIOUS, at, on, pdf_text, without_footers
from tests.packs_library import use_library

pytestmark = pytest.mark.django_db

NO_HOLIDAY_CHOICE = {"indigenous_peoples_day": "yes", "day_after_thanksgiving": "yes"}


@pytest.fixture
def state_only(tmp_path, monkeypatch, staff):
    """Example (a city) and Lake County, added on this server; every member of staff works for both, and both
    have given their authority's address and telephone."""
    site = tmp_path / "site"
    city = add_state_only("Example, MN", site=site, observes=NO_HOLIDAY_CHOICE)
    county = add_state_only("Lake", kind="county", site=site, observes=NO_HOLIDAY_CHOICE)
    use_library(monkeypatch, Library(PACKS_DIR, site))
    for jid in (city.id, county.id):
        for user in staff.values():
            CityAccess.objects.get_or_create(user=user, jurisdiction=jid)
        for office in ("animal_control_authority", "letterhead"):
            CityOffice.objects.create(
                jurisdiction=jid,
                office=office,
                address="1 Main Street, Example, MN 56000",
                telephone="218-555-0111",
            )
    return city, county


def flat(doc) -> str:
    return " ".join(without_footers(pdf_text(doc)).split())


def doc_of(result, doc_type: str):
    found = [d for d in result.documents if d.doc_type == doc_type]
    assert found, f"{doc_type} not issued; issued: {[d.doc_type for d in result.documents]}"
    return found[0]


def test_the_command_writes_a_city_and_a_county_whose_whole_law_is_the_state_pack(state_only):
    city, county = state_only
    lib = library()
    example, lake = lib.get(city.id), lib.get(county.id)
    assert (city.id, city.case_prefix, example.name) == ("example-mn", "EX", "City of Example, Minnesota")
    assert (county.id, county.case_prefix, lake.name) == ("lake-county-mn", "LC", "Lake County, Minnesota")
    assert [layer.id for layer in example.layers] == ["mn-statute", "example-mn"]
    # nothing of its own: every step and provision is the state's
    assert {s.layer for s in example.procedure(at(0).date())} == {"state"}
    assert not example.pack.provisions
    # a county's Sheriff's deputies (police accounts) act as its animal control authority; a city's do not
    assert "animal_control_authority" in lake.pack_roles_for(["police_officer"])
    assert "animal_control_authority" not in example.pack_roles_for(["police_officer"])
    assert lake.roles["animal_control_authority"].label == "Lake County Sheriff's Office"


def test_a_state_only_city_runs_a_dangerous_case_from_declaration_to_registration(
    state_only, make_case, staff
):
    city, _ = state_only
    c = make_case(city.id, facts=SERIOUS)
    assert c.case.number.startswith("EX-")
    c.declare(day=1, designation="dangerous")
    served = c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True)
    notice = flat(doc_of(served, "dangerous_declaration_notice"))
    assert "City of Example" in notice
    # the state's notice now tells the owner where the case is online, with the access code
    assert "case access code" in notice
    c.step("receive_hearing_request", "officer", 6, received_on=on(6))
    hold = c.case.obligations.get(deadline_id="city.hold_hearing")
    assert str(hold.due_date) == on(21)  # 14 days from the request of June 7 is Sunday June 21 -> Monday 22
    # the hearing cannot be held before the owner was told when and where
    with pytest.raises(Refused) as early:
        c.step("hold_hearing", "hearing", 7, held_on=on(7))
    assert "missing_step" in [r["code"] for r in early.value.refusals]
    # nor set after the 14 days (347.541 subd. 4)
    with pytest.raises(Refused) as late:
        c.step(
            "schedule_hearing",
            "officer",
            7,
            hearing_at=at(23, 14).isoformat(),
            place="City Hall",
            hearing_officer=str(staff["hearing"].pk),
        )
    assert "too_late" in [r["code"] for r in late.value.refusals]
    staff["hearing"].first_name, staff["hearing"].last_name = "Hana", "Hearing"
    staff["hearing"].save()
    scheduled = c.step(
        "schedule_hearing",
        "officer",
        7,
        hearing_at=at(14, 14).isoformat(),
        place="City Hall, council room",
        hearing_officer=str(staff["hearing"].pk),
        mailed_on=on(7),
    )
    letter = flat(doc_of(scheduled, "hearing_date_letter"))
    assert "City Hall, council room" in letter
    assert "Hana Hearing" in letter
    assert "appeal of the declaration of Rexford as a dangerous dog" in letter
    assert "impartial hearing officer" in letter
    assert "prescribes no notice of the hearing's date" in letter  # dogcase's letter, said as such
    assert "347.56" not in letter  # the destruction hearing's words are not in a declaration hearing's letter
    c.step("hold_hearing", "hearing", 14, held_on=on(14))
    decided = c.step(
        "decide_appeal", "hearing", 16, outcome="upheld", reasons="Unprovoked bite, two witnesses."
    )
    assert "upheld the declaration" in flat(doc_of(decided, "hearing_officer_decision"))
    c.step("record_decision_receipt", "officer", 17, received_on=on(17))
    comply = c.case.obligations.get(deadline_id="owner.comply_after_decision")
    assert str(comply.due_date) == on(
        31
    )  # 14 days from receipt on June 18 (347.541 subd. 4): Thursday July 2
    j = library().get(city.id)
    proofs = [x["value"] for x in j.input_choices("issue_certificate", case_state(c.case), at(25))["proofs"]]
    certified = c.step("issue_certificate", "officer", 25, proofs=proofs, number="EX-DD-1")
    c.case.refresh_from_db()
    assert (c.case.designation, c.case.designation_in_effect) == ("dangerous", True)
    certificate = flat(doc_of(certified, "certificate_of_registration"))
    assert "Olive Ostrander" in certificate and "Rexford" in certificate and "proper enclosure" in certificate
    assert "renew its registration every year" in certificate
    assert (
        c.case.obligations.get(deadline_id="owner.comply_after_decision").status == "open"
    )  # not sterilized
    c.step(
        "record_sterilization",
        "officer",
        27,
        sterilized_on=on(26),
        veterinarian="Dr. Vet, 2 Elm St, Example, 218-555-0123",
    )
    assert c.case.obligations.get(deadline_id="owner.sterilize").status == "met"


def test_a_county_sheriffs_deputy_declares_and_the_dog_is_destroyed_after_the_347_56_hearing(
    state_only, make_case, staff
):
    _, county = state_only
    c = make_case(county.id, facts=SERIOUS)
    assert c.case.number.startswith("LC-")
    # the deputy (a police account) declares as the county's animal control authority
    c.step(
        "declare",
        "police",
        1,
        designation="dangerous",
        basis="Bit a person without provocation on public property",
        declarant_telephone="218-555-0199",
        departure_reason="The deputy saw the bite and its injuries",
    )
    c.step("serve_notice", "police", 2, served_on=on(2), method="personal")
    c.step(
        "serve_destruction_notice",
        "police",
        3,
        served_on=on(3),
        incident="On 1 June the dog bit a passer-by on the calf without provocation, causing substantial harm.",
        method="personal service",
    )
    c.step("receive_destruction_hearing_request", "police", 5, received_on=on(5))
    with pytest.raises(Refused) as early:
        c.step("hold_destruction_hearing", "hearing", 6, held_on=on(6))
    assert "missing_step" in [r["code"] for r in early.value.refusals]
    scheduled = c.step(
        "schedule_destruction_hearing",
        "police",
        6,
        hearing_at=at(12, 10).isoformat(),
        place="Lake County Courthouse, room 2",
        hearing_officer=str(staff["hearing"].pk),
    )
    letter = flat(doc_of(scheduled, "destruction_hearing_date_letter"))
    assert "intended destruction of Rexford" in letter
    assert "impartial decision maker" in letter
    assert "Lake County Courthouse, room 2" in letter
    c.step("hold_destruction_hearing", "hearing", 12, held_on=on(12))
    c.step("decide_destruction", "hearing", 13, outcome="destroy_appropriate", reasons="Unprovoked, severe.")
    c.step(
        "destroy",
        "police",
        20,
        facts="Bit a passer-by without provocation, substantial bodily harm",
        unprovoked_harm=True,
    )
    c.case.dog.refresh_from_db()
    assert c.case.dog.status == Dog.Status.DEAD

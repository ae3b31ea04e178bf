"""Cities other than the shipped ones: a pack added with data alone works through the staff app, and a case
whose pack is no longer installed is shown plainly instead of a server error."""

import pytest
from django.test import Client

from dogcase.cases import acts
from dogcase.cases.models import Case, CityAccess, Incident
from dogcase.law.loader import Library
from tests.packs_library import big_lake_pack, packs_folder, use_library, with_fact_values
from tests.staff.conftest import BATTLE_LAKE, client_for, record_bite
from tests.staff.test_intake import intake

pytestmark = pytest.mark.django_db

BIG_LAKE = "big-lake-mn"


@pytest.fixture
def with_big_lake(tmp_path, monkeypatch):
    return use_library(
        monkeypatch, Library(packs_folder(tmp_path / "packs", add={BIG_LAKE: big_lake_pack()}))
    )


def test_a_city_with_the_same_initials_numbers_its_cases_with_its_own_prefix(with_big_lake, make_staff_user):
    officer = make_staff_user("animal_control_officer", cities=(BATTLE_LAKE, BIG_LAKE))
    client = client_for(officer)

    battle = client.post("/incidents/new", intake())
    big = client.post("/incidents/new", intake(jurisdiction=BIG_LAKE, place="Big Lake beach"))

    assert (battle.status_code, big.status_code) == (302, 302)
    numbers = {c.jurisdiction: c.number for c in Case.objects.all()}
    assert numbers[BATTLE_LAKE].startswith("BL-") and numbers[BIG_LAKE].startswith("BG-")
    incidents = {i.jurisdiction: i.number for i in Incident.objects.all()}
    assert incidents[BATTLE_LAKE].startswith("BL-I") and incidents[BIG_LAKE].startswith("BG-I")
    assert client.get(big.url).status_code == 200


def test_case_numbers_continue_after_the_highest_of_their_prefix(officer):
    first = record_bite(officer)
    Case.objects.filter(pk=first.pk).update(jurisdiction="battle-lake-old-mn")  # a pack renamed since
    second = record_bite(officer)
    year = first.number.split("-")[1]
    assert (first.number, second.number) == (f"BL-{year}-0001", f"BL-{year}-0002")


@pytest.fixture
def orphan_case(officer):
    """A case recorded under a pack that has since been removed (or renamed) from the library."""
    case = record_bite(officer)
    for model in (Case, Incident):
        model.objects.filter(jurisdiction=BATTLE_LAKE).update(jurisdiction="old-town-mn")
    case.dog.__class__.objects.filter(pk=case.dog_id).update(jurisdiction="old-town-mn")
    CityAccess.objects.create(user=officer, jurisdiction="old-town-mn")
    case.refresh_from_db()
    return case


PAGES = ["/", "/cases/", "/incidents/", "/dogs/", "/api/v1/cases"]


@pytest.mark.parametrize("url", PAGES)
def test_lists_show_a_case_whose_pack_is_not_installed(orphan_case, officer, url):
    response = client_for(officer).get(url)
    assert response.status_code == 200
    if url in ("/cases/", "/incidents/"):
        assert "law pack old-town-mn is not installed" in response.content.decode()


def test_the_case_page_says_its_pack_is_not_installed(orphan_case, officer):
    client: Client = client_for(officer)
    for url in (
        f"/cases/{orphan_case.number}",
        f"/incidents/{orphan_case.incident.number}",
        f"/dogs/{orphan_case.dog_id}",
        f"/api/v1/cases/{orphan_case.number}",
    ):
        response = client.get(url)
        assert response.status_code in (200, 503), url
        assert "law pack old-town-mn is not installed" in response.content.decode(), url
    act = client.get(f"/cases/{orphan_case.number}/act/declare")
    assert act.status_code == 503
    assert "law pack old-town-mn is not installed" in act.content.decode()


def test_the_sweep_passes_over_a_case_whose_pack_is_not_installed(orphan_case, officer):
    from dogcase.cases import acts

    record_bite(officer)  # a Battle Lake case, swept as usual
    report = acts.sweep().as_dict()
    assert (report["cases"], report["not_installed"]) == (1, 1)


# --- a city's own values of a shared fact: vocabulary, not Django choices ----------------------------------


@pytest.fixture
def big_lake_disfigurement(with_big_lake):
    """Big Lake's law adds an injury value the shared vocabulary lacks (a pack's `fact_values:`)."""
    j = with_big_lake.get(BIG_LAKE)
    j.facts = with_fact_values(j.facts, "injury", {"permanent_disfigurement": "Permanent disfigurement"})
    return with_big_lake


def test_a_city_injury_value_is_recorded_at_intake_without_a_migration(
    big_lake_disfigurement, make_staff_user
):
    officer = make_staff_user("animal_control_officer", cities=(BATTLE_LAKE, BIG_LAKE))
    client = client_for(officer)
    form = client.get("/incidents/new/row/victim?index=0").content.decode()  # a victim block of the form
    assert 'value="permanent_disfigurement"' in form
    assert "Permanent disfigurement (Big Lake only)" in form

    response = client.post(
        "/incidents/new",
        intake(jurisdiction=BIG_LAKE, **{"victim-0-injury": "permanent_disfigurement"}),
    )

    assert response.status_code == 302
    incident = Incident.objects.get(jurisdiction=BIG_LAKE)
    assert incident.victims.get().injury == "permanent_disfigurement"
    assert incident.facts["injury"] == "permanent_disfigurement"  # what the classifier reads
    page = client.get(f"/incidents/{incident.number}").content.decode()
    assert "Permanent disfigurement" in page


def test_a_value_the_citys_law_lacks_is_a_message_on_the_field(big_lake_disfigurement, make_staff_user):
    officer = make_staff_user("animal_control_officer", cities=(BATTLE_LAKE, BIG_LAKE))
    response = client_for(officer).post(
        "/incidents/new",
        intake(**{"victim-0-injury": "permanent_disfigurement"}),  # Battle Lake
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Choose how badly they were hurt. “Permanent disfigurement” is not one of this city&#x27;s" in html
    assert not Incident.objects.exists()


def test_the_act_refuses_a_value_outside_the_citys_vocabulary_naming_the_field(officer):
    dog = acts.record_dog(jurisdiction=BATTLE_LAKE, actor=officer, owners=[], name="Rex")
    with pytest.raises(acts.InvalidInput) as caught:
        acts.record_incident(
            jurisdiction=BATTLE_LAKE,
            actor=officer,
            occurred_at=acts.now(),
            place="Main St",
            place_type="public",
            kind="bite",
            dogs=[dog],
            facts={},
            victims=[{"kind": "human", "name": "Jo", "injury": "permanent_disfigurement"}],
        )
    assert caught.value.field == "victims[0].injury"
    assert caught.value.rule.startswith("must be one of none, minor, substantial_bodily_harm")
    with pytest.raises(acts.InvalidInput, match="place_type: must be one of public, private_other"):
        acts.record_incident(
            jurisdiction=BATTLE_LAKE,
            actor=officer,
            occurred_at=acts.now(),
            place="Main St",
            place_type="park",
            kind="bite",
            dogs=[dog],
            facts={},
        )


def test_injury_place_and_victim_kind_columns_have_no_fixed_choices():
    from dogcase.cases.models import Victim

    for model, name in ((Incident, "place_type"), (Victim, "kind"), (Victim, "injury")):
        field = model._meta.get_field(name)
        assert not field.choices and field.max_length >= 30

"""Offices the law names (issue 21, item 2): Tracy Subd 2 gives the classification to the City Administrator
or the Chief of Police, one person each. A police account acts as the Chief only once the city's administrator
appoints it; every appointment and its end is an event in the city's chain."""

import pytest
from django.test import Client

from dogcase.cases.access import law_actor
from dogcase.cases.models import Event, OfficeHolder
from tests.cases.conftest import BITE, Story

pytestmark = pytest.mark.django_db

CITY = "tracy-mn"


def test_a_police_account_not_appointed_is_refused_the_chiefs_classification(staff, make_staff_user):
    patrol = make_staff_user("police_officer", username="patrol", offices=False)
    s = Story(staff, CITY, BITE)
    assert "chief_of_police" not in law_actor(patrol, CITY).roles
    # the department's acts stay open to every officer
    assert "police_department" in law_actor(patrol, CITY).roles
    refused = s.refused("classify", patrol, 0, designation="vicious", reasonable_cause="Unprovoked bite")
    assert "not_empowered" in [r["code"] for r in refused.refusals]
    assert any("Subd 2" in r["citation"] for r in refused.refusals)
    s.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite")  # the Chief


def test_the_administrator_appoints_and_ends_an_office_on_the_users_page(
    administrator_client, make_staff_user
):
    patrol = make_staff_user("police_officer", username="patrol", offices=False)
    page = administrator_client.get(f"/accounts/users/{patrol.pk}").content.decode()
    assert "Tracy Chief of Police" in page and 'value="tracy-mn:chief_of_police"' in page
    response = administrator_client.post(
        f"/accounts/users/{patrol.pk}", {"action": "offices", "offices": ["tracy-mn:chief_of_police"]}
    )
    assert response.status_code == 302
    assert OfficeHolder.objects.filter(user=patrol, jurisdiction=CITY, office="chief_of_police").exists()
    patrol.refresh_from_db()
    assert "chief_of_police" in law_actor(patrol, CITY).roles
    appointed = Event.objects.get(jurisdiction=CITY, act="office_appointed")
    assert (
        "patrol appointed Tracy Chief of Police" in appointed.summary and appointed.actor.username == "admin"
    )
    administrator_client.post(f"/accounts/users/{patrol.pk}", {"action": "offices"})
    assert not OfficeHolder.objects.filter(user=patrol).exists()
    assert Event.objects.filter(jurisdiction=CITY, act="office_vacated").count() == 1


def test_an_office_is_held_only_by_a_role_the_law_maps_to_it(administrator_client, make_staff_user):
    clerk = make_staff_user("city_clerk", username="desk", offices=False)
    response = administrator_client.post(
        f"/accounts/users/{clerk.pk}", {"action": "offices", "offices": ["tracy-mn:chief_of_police"]}
    )
    assert response.status_code == 400
    assert 'id="offices-error"' in response.content.decode()
    assert not OfficeHolder.objects.filter(user=clerk).exists()
    # a made-up office is refused too
    response = administrator_client.post(
        f"/accounts/users/{clerk.pk}", {"action": "offices", "offices": ["tracy-mn:mayor"]}
    )
    assert response.status_code == 400 and not OfficeHolder.objects.filter(user=clerk).exists()


def test_an_administrator_of_another_city_cannot_appoint_here(make_staff_user):
    patrol = make_staff_user("police_officer", username="patrol", offices=False)
    other = make_staff_user("administrator", username="bl-admin", cities=["battle-lake-mn"])
    client = Client()
    client.force_login(other)
    response = client.post(
        f"/accounts/users/{patrol.pk}", {"action": "offices", "offices": ["tracy-mn:chief_of_police"]}
    )
    assert response.status_code == 400
    assert not OfficeHolder.objects.filter(user=patrol).exists()


def _dashboard(user):
    from django.utils import timezone

    from dogcase.staff import queries

    return queries.dashboard(user, today=timezone.localdate(), now=timezone.now())


def _numbers(user) -> set[str]:
    """The cases whose work the user's dashboard lists, in any of its lists (the rabies observation a bite on
    a person starts is the city's procedure, every officer's: left out)."""
    from dogcase.cases.observations import OBSERVATION_DEADLINE

    out = set()
    for sid, rows in _dashboard(user).rows.items():
        for row in rows:
            if str(getattr(row, "deadline_id", "")).startswith(OBSERVATION_DEADLINE):
                continue
            case = row if sid == "decide" else getattr(row, "case", None)
            if case is not None:
                out.add(case.number)
    return out


def test_the_dashboard_lists_an_office_s_work_to_those_who_hold_it(staff, make_staff_user):
    """Once Tracy's Chief of Police classifies a dog vicious, the city must notify the owner (Subd 2), by its
    City Administrator or the Chief: the work is on the dashboards of the accounts that hold those offices, not
    on every police or clerk account's."""
    patrol = make_staff_user("police_officer", username="patrol", offices=False)
    desk = make_staff_user("city_clerk", username="desk", offices=False)
    tracy = Story(staff, CITY, BITE)
    tracy.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite")
    assert tracy.case.obligations.filter(deadline_id="city.notify_classification").exists()
    assert tracy.case.number in _numbers(staff["police"])  # the Chief
    assert tracy.case.number in _numbers(staff["clerk"])  # the City Administrator
    assert tracy.case.number not in _numbers(patrol)
    assert tracy.case.number not in _numbers(desk)
    OfficeHolder.objects.create(user=patrol, jurisdiction=CITY, office="chief_of_police")
    patrol = type(patrol).objects.get(pk=patrol.pk)  # the offices are read once per user object
    assert tracy.case.number in _numbers(patrol)


def test_an_incident_any_police_account_may_decide_stays_on_every_officer_s_dashboard(staff, make_staff_user):
    """In Tracy the state's declaration (347.50) is open to any law enforcement official, so its incidents to
    decide are every police account's, appointed Chief or not."""
    patrol = make_staff_user("police_officer", username="patrol", offices=False)
    tracy = Story(staff, CITY, BITE)
    assert tracy.case.number in {c.number for c in _dashboard(patrol).rows["decide"]}


def test_which_work_is_an_office_s_alone_is_read_from_the_law():
    from django.utils import timezone

    from dogcase.staff.city_law import city_law

    law = city_law(CITY, timezone.localdate())
    clerk = law.office_only.get("city_clerk", {})
    assert clerk["city.notify_classification"] == {"city_administrator"}
    assert clerk["owner.prove_insurance"] == {"city_administrator"}
    police = law.office_only.get("police_officer", {})
    assert police["city.notify_classification"] == {"chief_of_police"}
    # a step the police department takes (any officer) is nobody's office alone
    assert "act:record_vicious_transfer" not in police
    assert city_law("battle-lake-mn", timezone.localdate()).office_only == {}

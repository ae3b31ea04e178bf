"""Issue 19 item 3: a city's administrator administers that city only. A role applies in every city of a user,
so an administrator of Tracy alone cannot give or take a role of a user who also works for Battle Lake, nor
close their account there; deactivating such a user removes their access to Tracy only. Each change is
recorded in the chain of each of the administrator's cities where something changed, and nowhere else."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dogcase.accounts import manage
from dogcase.cases.models import CityAccess, Event
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

BATTLE_LAKE, TRACY = "battle-lake-mn", "tracy-mn"
ACCOUNT_ACTS = ("account_created", "account_access_changed", "account_deactivated", "account_reactivated")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def administrator(make_staff_user, username, cities):
    user = make_staff_user("administrator", username=username, cities=cities)
    user.is_staff = user.is_superuser = False
    user.save()
    return user


@pytest.fixture
def tracy_admin(make_staff_user):
    return administrator(make_staff_user, "tracy-admin", (TRACY,))


@pytest.fixture
def both_admin(make_staff_user):
    return administrator(make_staff_user, "both-admin", (BATTLE_LAKE, TRACY))


@pytest.fixture
def shared_clerk(make_staff_user):
    """A clerk working for both cities."""
    return make_staff_user("city_clerk", username="shared", cities=(BATTLE_LAKE, TRACY))


def roles_of(user) -> set[str]:
    return set(user.groups.values_list("name", flat=True))


def cities_of(user) -> set[str]:
    return set(CityAccess.objects.filter(user=user).values_list("jurisdiction", flat=True))


def account_events(city=None):
    events = Event.objects.filter(act__in=ACCOUNT_ACTS)
    return events.filter(jurisdiction=city) if city else events


@pytest.mark.parametrize(
    ("roles", "what"),
    [
        (["city_clerk", "administrator"], "giving the administrator role"),
        (["auditor"], "swapping the role"),
        (["city_clerk", "hearing_officer"], "adding a role"),
    ],
)
def test_an_administrator_of_one_city_cannot_change_the_roles_of_a_user_of_another(
    tracy_admin, shared_clerk, roles, what
):
    response = client_for(tracy_admin).post(
        f"/accounts/users/{shared_clerk.pk}", {"roles": roles, "cities": [TRACY]}
    )

    assert response.status_code == 400, what
    assert "do not administer" in response.context["errors"]["roles"]
    assert roles_of(shared_clerk) == {"city_clerk"}
    assert cities_of(shared_clerk) == {BATTLE_LAKE, TRACY}
    assert not account_events().exists()


def test_the_role_refusal_is_explained_on_the_page_without_naming_the_other_city(tracy_admin, shared_clerk):
    page = client_for(tracy_admin).get(f"/accounts/users/{shared_clerk.pk}").content.decode()
    assert "only an administrator of all their cities can change the roles" in page
    assert "Battle Lake" not in page


def test_an_administrator_of_all_the_users_cities_changes_the_roles_audited_in_each(both_admin, shared_clerk):
    response = client_for(both_admin).post(
        f"/accounts/users/{shared_clerk.pk}",
        {"roles": ["city_clerk", "hearing_officer"], "cities": [BATTLE_LAKE, TRACY]},
    )

    assert response.status_code == 302
    assert roles_of(shared_clerk) == {"city_clerk", "hearing_officer"}
    for city in (BATTLE_LAKE, TRACY):
        event = account_events(city).get()
        assert event.data["city"] == city
        assert event.data["roles"] == {"before": ["city_clerk"], "after": ["city_clerk", "hearing_officer"]}
        assert "gave the role Hearing officer" in event.summary


def test_giving_a_city_is_recorded_in_that_city_only(both_admin, make_staff_user):
    clerk = make_staff_user("city_clerk", username="bl-clerk", cities=(BATTLE_LAKE,))

    response = client_for(both_admin).post(
        f"/accounts/users/{clerk.pk}", {"roles": ["city_clerk"], "cities": [BATTLE_LAKE, TRACY]}
    )

    assert response.status_code == 302
    assert cities_of(clerk) == {BATTLE_LAKE, TRACY}
    assert not account_events(BATTLE_LAKE).exists()  # nothing changed in Battle Lake
    event = account_events(TRACY).get()
    assert event.data["access"] == {"before": False, "after": True}
    assert event.data["roles"] == {"before": [], "after": ["city_clerk"]}
    assert "gave access to City of Tracy" in event.summary and "as City clerk" in event.summary


def test_removing_a_city_leaves_the_other_citys_access_and_chain_alone(tracy_admin, shared_clerk):
    response = client_for(tracy_admin).post(
        f"/accounts/users/{shared_clerk.pk}", {"roles": ["city_clerk"], "cities": []}
    )

    assert response.status_code == 302
    assert cities_of(shared_clerk) == {BATTLE_LAKE}
    assert roles_of(shared_clerk) == {"city_clerk"}
    assert not account_events(BATTLE_LAKE).exists()
    event = account_events(TRACY).get()
    assert (event.actor, event.data["city"]) == (tracy_admin, TRACY)
    assert BATTLE_LAKE not in str(event.data) and "Battle Lake" not in event.summary


def test_deactivating_a_user_of_another_city_removes_them_from_the_admins_city_only(
    tracy_admin, shared_clerk
):
    client = client_for(tracy_admin)

    response = client.post(f"/accounts/users/{shared_clerk.pk}", {"action": "deactivate"})

    assert response.status_code == 302 and response["Location"] == "/accounts/users/"
    shared_clerk.refresh_from_db()
    assert shared_clerk.is_active  # still works for Battle Lake
    assert cities_of(shared_clerk) == {BATTLE_LAKE}
    assert roles_of(shared_clerk) == {"city_clerk"}
    assert not account_events(BATTLE_LAKE).exists()
    event = account_events(TRACY).get()
    assert event.act == "account_deactivated" and event.data["city"] == TRACY
    assert "Battle Lake" not in event.summary
    # and the user still logs in, for Battle Lake
    login = Client().post("/accounts/login/", {"username": "shared", "password": PASSWORD})
    assert login.status_code == 302
    assert "Removed the access of shared to your cities" in client.get("/accounts/users/").content.decode()


def test_an_administrator_of_all_the_users_cities_deactivates_the_account_audited_in_each(
    both_admin, shared_clerk
):
    response = client_for(both_admin).post(f"/accounts/users/{shared_clerk.pk}", {"action": "deactivate"})

    assert response.status_code == 302
    shared_clerk.refresh_from_db()
    assert not shared_clerk.is_active and cities_of(shared_clerk) == {BATTLE_LAKE, TRACY}
    assert sorted(account_events().values_list("jurisdiction", "act")) == [
        (BATTLE_LAKE, "account_deactivated"),
        (TRACY, "account_deactivated"),
    ]


def test_an_inactive_user_of_another_city_is_not_reactivated_by_one_citys_administrator(
    tracy_admin, shared_clerk
):
    User.objects.filter(pk=shared_clerk.pk).update(is_active=False)  # closed by an administrator of both
    shared_clerk.refresh_from_db()

    with pytest.raises(manage.AccountProblem) as refused:
        manage.set_active(shared_clerk, actor=tracy_admin, active=True)

    assert refused.value.field == "active"
    shared_clerk.refresh_from_db()
    assert not shared_clerk.is_active and not account_events().exists()


def test_a_user_of_the_administrators_cities_only_is_still_fully_managed(tracy_admin, make_staff_user):
    clerk = make_staff_user("city_clerk", username="tracy-clerk", cities=(TRACY,))
    client = client_for(tracy_admin)

    assert (
        client.post(
            f"/accounts/users/{clerk.pk}", {"roles": ["administrator"], "cities": [TRACY]}
        ).status_code
        == 302
    )
    assert roles_of(clerk) == {"administrator"}
    client.post(f"/accounts/users/{clerk.pk}", {"action": "deactivate"})
    clerk.refresh_from_db()
    assert not clerk.is_active
    assert list(account_events().order_by("pk").values_list("jurisdiction", "act")) == [
        (TRACY, "account_access_changed"),
        (TRACY, "account_deactivated"),
    ]

"""A user administrator (the Administrator role) manages the staff accounts of their own cities from the staff
pages, without the Django admin: creates users, gives and removes roles and cities, deactivates — each change
audited in every city it touches. Users of other cities are out of reach."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dogcase.cases.models import CityAccess, Event
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

BATTLE_LAKE, TRACY = "battle-lake-mn", "tracy-mn"
NEW_PASSWORD = "a long enough new passphrase 2026"


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def admin(make_staff_user):
    """An administrator of Battle Lake only (not a superuser: nothing here needs the Django admin)."""
    user = make_staff_user("administrator", username="bl-admin", cities=(BATTLE_LAKE,))
    user.is_staff = user.is_superuser = False
    user.save()
    return user


def roles_of(user) -> set[str]:
    return set(user.groups.values_list("name", flat=True))


def cities_of(user) -> set[str]:
    return set(CityAccess.objects.filter(user=user).values_list("jurisdiction", flat=True))


def test_an_administrator_creates_a_user_with_roles_and_cities_and_the_user_logs_in(admin):
    response = client_for(admin).post(
        "/accounts/users/new",
        {
            "username": "newclerk",
            "first_name": "Nora",
            "last_name": "Nygaard",
            "password": NEW_PASSWORD,
            "roles": ["city_clerk", "hearing_officer"],
            "cities": [BATTLE_LAKE],
        },
    )
    user = User.objects.get(username="newclerk")
    assert response.status_code == 302 and response.url == f"/accounts/users/{user.pk}"
    assert roles_of(user) == {"city_clerk", "hearing_officer"}
    assert cities_of(user) == {BATTLE_LAKE}
    assert not user.is_staff and not user.is_superuser
    assert (
        Client().post("/accounts/login/", {"username": "newclerk", "password": NEW_PASSWORD}).status_code
        == 302
    )
    event = Event.objects.get(act="account_created")
    assert (event.jurisdiction, event.actor, event.case) == (BATTLE_LAKE, admin, None)
    assert event.data["roles"] == ["city_clerk", "hearing_officer"]
    assert "newclerk" in event.summary and "City clerk, Hearing officer" in event.summary


def test_an_administrator_gives_only_their_own_cities_and_a_weak_password_is_refused_on_its_field(admin):
    client = client_for(admin)
    base = {"username": "x1", "password": NEW_PASSWORD, "roles": ["city_clerk"]}
    response = client.post("/accounts/users/new", {**base, "cities": [TRACY]})
    assert response.status_code == 400
    assert response.context["errors"] == {"cities": "You may give only the cities you work for."}
    response = client.post("/accounts/users/new", {**base, "cities": [BATTLE_LAKE], "password": "short"})
    assert response.status_code == 400
    assert "password" in response.context["errors"]
    response = client.post("/accounts/users/new", {**base, "cities": [BATTLE_LAKE], "roles": []})
    assert response.context["errors"] == {"roles": "Give the user at least one role."}
    assert not User.objects.filter(username="x1").exists()
    assert not Event.objects.filter(act="account_created").exists()
    # the form offers only the administrator's cities
    page = client.get("/accounts/users/new").content.decode()
    assert f'value="{BATTLE_LAKE}"' in page and f'value="{TRACY}"' not in page


def test_the_list_shows_the_users_of_the_administrators_cities_only(admin, make_staff_user):
    make_staff_user("city_clerk", username="both", cities=(BATTLE_LAKE, TRACY))
    tracy_only = make_staff_user("city_clerk", username="tracyclerk", cities=(TRACY,))
    client = client_for(admin)
    page = client.get("/accounts/users/").content.decode()
    assert ">both<" in page and "tracyclerk" not in page
    assert "(and 1 other)" in page  # Tracy, which this administrator does not manage, is counted, not named
    assert client.get(f"/accounts/users/{tracy_only.pk}").status_code == 403
    response = client.post(
        f"/accounts/users/{tracy_only.pk}", {"roles": ["auditor"], "cities": [BATTLE_LAKE]}
    )
    assert response.status_code == 403
    assert roles_of(tracy_only) == {"city_clerk"} and cities_of(tracy_only) == {TRACY}


def test_changing_roles_and_cities_keeps_the_cities_the_administrator_does_not_manage(admin, make_staff_user):
    user = make_staff_user("city_clerk", username="both", cities=(BATTLE_LAKE, TRACY))
    client = client_for(admin)
    # a role applies in Tracy too, which this administrator does not administer (issue 19): refused
    response = client.post(f"/accounts/users/{user.pk}", {"roles": ["auditor"], "cities": []})
    assert response.status_code == 400 and "roles" in response.context["errors"]
    assert roles_of(user) == {"city_clerk"} and cities_of(user) == {BATTLE_LAKE, TRACY}
    response = client.post(f"/accounts/users/{user.pk}", {"roles": ["city_clerk"], "cities": []})
    assert response.status_code == 302
    assert roles_of(user) == {"city_clerk"}
    assert cities_of(user) == {TRACY}  # Battle Lake removed; Tracy is not this administrator's to remove
    event = Event.objects.get(act="account_access_changed")
    assert event.jurisdiction == BATTLE_LAKE
    assert event.data["roles"] == {"before": ["city_clerk"], "after": []}
    assert event.data["access"] == {"before": True, "after": False}
    assert "removed access to City of Battle Lake, Minnesota" in event.summary
    # now out of this administrator's reach
    assert client.get(f"/accounts/users/{user.pk}").status_code == 403


def test_an_administrator_deactivates_a_user_who_then_cannot_log_in(admin, make_staff_user):
    user = make_staff_user("animal_control_officer", username="leaving", cities=(BATTLE_LAKE,))
    session = client_for(user)
    assert session.get("/").status_code == 200
    response = client_for(admin).post(f"/accounts/users/{user.pk}", {"action": "deactivate"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert not user.is_active
    assert session.get("/cases/").status_code == 302  # the open session ends at its next request
    login = Client().post("/accounts/login/", {"username": "leaving", "password": PASSWORD})
    assert login.status_code == 200  # the login form again, not a redirect
    event = Event.objects.get(act="account_deactivated")
    assert (event.jurisdiction, event.actor, event.data["user"]) == (BATTLE_LAKE, admin, user.pk)
    client_for(admin).post(f"/accounts/users/{user.pk}", {"action": "reactivate"})
    user.refresh_from_db()
    assert user.is_active and Event.objects.filter(act="account_reactivated").count() == 1


def test_an_administrator_keeps_their_own_way_in(admin):
    client = client_for(admin)
    response = client.post(f"/accounts/users/{admin.pk}", {"action": "deactivate"})
    assert response.status_code == 400
    response = client.post(f"/accounts/users/{admin.pk}", {"roles": ["city_clerk"], "cities": [BATTLE_LAKE]})
    assert response.context["errors"] == {"roles": "You cannot take away your own administrator role."}
    admin.refresh_from_db()
    assert admin.is_active and "administrator" in roles_of(admin)


def test_only_an_administrator_manages_users_and_sees_the_link(admin, clerk_client):
    assert ">Users</a>" in client_for(admin).get("/").content.decode()
    assert ">Users</a>" not in clerk_client.get("/").content.decode()
    for url in ("/accounts/users/", "/accounts/users/new"):
        response = clerk_client.get(url)
        assert response.status_code == 403
        assert "You may not do this" in response.content.decode()
    assert Client().get("/accounts/users/").status_code == 302  # to the login page


def test_a_superusers_account_is_left_to_the_django_admin(admin, make_staff_user):
    root = make_staff_user("administrator", username="root", cities=(BATTLE_LAKE,))  # a superuser (fixture)
    assert root.is_superuser
    response = client_for(admin).post(f"/accounts/users/{root.pk}", {"action": "deactivate"})
    assert response.status_code == 403
    root.refresh_from_db()
    assert root.is_active

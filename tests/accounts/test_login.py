"""Logging in: failed attempts lock out, sessions end when left idle, staff change their own password, and
the demo accounts refuse a weak password outside development."""

import datetime as dt

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

WRONG = "not the password at all"


@pytest.fixture
def officer(make_staff_user):
    return make_staff_user("animal_control_officer")


def log_in(client: Client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_right_password_logs_in(officer):
    client = Client()
    response = log_in(client, "officer", PASSWORD)
    assert response.status_code == 302
    assert client.get("/").context["user"] == officer


def test_five_failures_lock_the_account_from_that_address_even_for_the_right_password(officer, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 5
    client = Client()
    for _ in range(4):
        assert "username and password didn" in log_in(client, "officer", WRONG).content.decode()
    fifth = log_in(client, "officer", WRONG)
    assert fifth.status_code == 429

    response = log_in(client, "officer", PASSWORD)

    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lock_ends_by_itself(officer, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 3
    settings.DOGCASE_LOGIN_LOCKOUT_SECONDS = 600
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        for _ in range(3):
            log_in(Client(), "officer", WRONG)
        assert log_in(Client(), "officer", PASSWORD).status_code == 429
        clock.shift(dt.timedelta(seconds=601))
        assert log_in(Client(), "officer", PASSWORD).status_code == 302


def test_another_address_is_not_locked_by_one_addresss_failures(officer, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 3
    for _ in range(3):
        log_in(Client(), "officer", WRONG, address="198.51.100.1")

    assert log_in(Client(), "officer", PASSWORD, address="198.51.100.2").status_code == 302


def test_guessing_one_username_from_many_addresses_locks_it(officer, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 2  # the username alone: 4 times that
    for n in range(8):
        log_in(Client(), "officer", WRONG, address=f"198.51.100.{n}")

    assert log_in(Client(), "officer", PASSWORD, address="198.51.100.99").status_code == 429


def test_one_address_trying_many_usernames_is_locked(make_staff_user, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 2
    make_staff_user("city_clerk")
    for n in range(8):
        log_in(Client(), f"guess{n}", WRONG)

    assert log_in(Client(), "clerk", PASSWORD).status_code == 429
    assert log_in(Client(), "clerk", PASSWORD, address="198.51.100.5").status_code == 302


def test_a_success_clears_the_usernames_count(officer, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 3
    for _ in range(2):
        log_in(Client(), "officer", WRONG)
    assert log_in(Client(), "officer", PASSWORD).status_code == 302
    for _ in range(2):
        log_in(Client(), "officer", WRONG)

    assert log_in(Client(), "officer", PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too(make_staff_user, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 2
    make_staff_user("administrator")
    for _ in range(2):
        Client().post("/admin/login/", {"username": "admin", "password": WRONG}, REMOTE_ADDR="203.0.113.7")

    client = Client()
    client.post("/admin/login/", {"username": "admin", "password": PASSWORD}, REMOTE_ADDR="203.0.113.7")
    assert "_auth_user_id" not in client.session


def test_behind_a_proxy_the_configured_header_gives_the_address(officer, settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 2
    settings.DOGCASE_CLIENT_IP_HEADER = "X-Forwarded-For"
    settings.DOGCASE_TRUSTED_PROXIES = ["10.0.0.1"]  # the header is believed only from the proxy (issue 19)
    for _ in range(2):
        Client().post(
            "/accounts/login/",
            {"username": "officer", "password": WRONG},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="spoofed, 198.51.100.1",
        )
    # Every client reaches us from the proxy's address: only the one that failed is locked.
    other = Client().post(
        "/accounts/login/",
        {"username": "officer", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )
    assert other.status_code == 302


def test_behind_a_proxy_a_forged_first_entry_does_not_escape_the_lock(officer, settings):
    """X-Forwarded-For's first entries are whatever the client wrote; only the last is the proxy's own. A client
    who writes a new first entry on every try is still the same client, and still locked."""
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 2
    settings.DOGCASE_CLIENT_IP_HEADER = "X-Forwarded-For"
    settings.DOGCASE_TRUSTED_PROXIES = ["10.0.0.1"]
    for forged in ("203.0.113.1", "203.0.113.2"):
        Client().post(
            "/accounts/login/",
            {"username": "officer", "password": WRONG},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"{forged}, 198.51.100.1",
        )
    again = Client().post(
        "/accounts/login/",
        {"username": "officer", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.3, 198.51.100.1",
    )
    assert again.status_code == 429 and "_auth_user_id" not in again.client.session


# ------------------------------------------------------------------------------------------ idle sessions


def test_a_session_left_idle_is_logged_out(officer, settings):
    settings.DOGCASE_SESSION_IDLE_SECONDS = 1800
    client = Client()
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        log_in(client, "officer", PASSWORD)
        assert client.get("/cases/").status_code == 200
        clock.shift(dt.timedelta(minutes=29))
        assert client.get("/cases/").status_code == 200  # activity moves the idle clock on
        clock.shift(dt.timedelta(minutes=29))
        assert client.get("/cases/").status_code == 200
        clock.shift(dt.timedelta(minutes=31))

        response = client.get("/cases/")

        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        assert "without activity" in client.get(response["Location"]).content.decode()


def test_an_idle_api_session_gets_a_401(officer, settings):
    settings.DOGCASE_SESSION_IDLE_SECONDS = 60
    client = Client()
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        log_in(client, "officer", PASSWORD)
        assert client.get("/api/v1/cases").status_code == 200
        clock.shift(dt.timedelta(seconds=61))
        assert client.get("/api/v1/cases").status_code == 401


def test_sessions_end_after_the_configured_maximum(settings):
    from django.conf import settings as live

    assert live.SESSION_COOKIE_AGE == 43200  # the default: one working day


def test_an_active_session_still_ends_at_the_maximum_after_login(officer, settings):
    # the idle clock writes the session every few minutes; that must not push the maximum on
    settings.DOGCASE_SESSION_IDLE_SECONDS = 1800
    settings.SESSION_COOKIE_AGE = 3 * 3600
    client = Client()
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        log_in(client, "officer", PASSWORD)
        for _ in range(6):  # 2 h 54 min of work, a request every half hour less a minute
            clock.shift(dt.timedelta(minutes=29))
            assert client.get("/cases/").status_code == 200
        clock.shift(dt.timedelta(minutes=29))  # 3 h 23 min after login

        response = client.get("/cases/")

        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# ---------------------------------------------------------------------------------------- own password


def test_the_header_links_to_the_password_page(officer):
    client = Client()
    client.force_login(officer)
    assert 'href="/accounts/password/"' in client.get("/").content.decode()


def test_staff_change_their_own_password_and_stay_logged_in(officer):
    client = Client()
    client.force_login(officer)
    new = "a much longer passphrase 42"

    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )

    assert response.status_code == 302 and response["Location"] == "/accounts/password/done/"
    officer.refresh_from_db()
    assert officer.check_password(new)
    assert client.get("/cases/").status_code == 200  # the session survives its own password change


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (WRONG, "a much longer passphrase 42", "old_password", "incorrect"),
        (PASSWORD, "short", "new_password2", "too short"),
        (PASSWORD, "password1234", "new_password2", "too common"),
    ],
)
def test_a_bad_password_change_is_refused_on_its_field(officer, old, new, field, message):
    client = Client()
    client.force_login(officer)

    response = client.post(
        "/accounts/password/", {"old_password": old, "new_password1": new, "new_password2": new}
    )

    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert f'id="id_{field}-error"' in response.content.decode()
    officer.refresh_from_db()
    assert officer.check_password(PASSWORD)


def test_the_password_page_needs_a_login():
    response = Client().get("/accounts/password/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# ------------------------------------------------------------------------------------------ demo accounts


@pytest.mark.parametrize(
    "password", ["dogcase-demo-only", "short1", "123456789012345", "password1234", "officer2026!"]
)
def test_seed_demo_refuses_a_weak_or_demo_password_when_debug_is_off(settings, monkeypatch, password):
    settings.DEBUG = False
    monkeypatch.setenv("DOGCASE_DEMO_PASSWORD", password)

    with pytest.raises(CommandError, match="DOGCASE_DEMO_PASSWORD"):
        call_command("seed_demo")

    assert not User.objects.exists()


def test_seed_demo_takes_any_password_in_development(settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.setenv("DOGCASE_DEMO_PASSWORD", "short1")

    call_command("seed_demo", stdout=None)

    assert User.objects.get(username="officer").check_password("short1")


def test_an_administrator_lifts_a_lock_by_deleting_its_count(officer, make_staff_user, settings):
    from dogcase.accounts.models import LoginThrottle

    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        log_in(Client(), "officer", WRONG)
    admin = Client()
    admin.force_login(make_staff_user("administrator"))
    locked = LoginThrottle.objects.get(key="user@address:officer@203.0.113.7")
    assert admin.get("/admin/accounts/loginthrottle/").status_code == 200

    admin.post(f"/admin/accounts/loginthrottle/{locked.pk}/delete/", {"post": "yes"})

    assert log_in(Client(), "officer", PASSWORD).status_code == 302

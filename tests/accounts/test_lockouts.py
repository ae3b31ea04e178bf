"""Issue 19 item 9: lockouts an attacker cannot use against staff or owners.

The guess limits stay, but the locks that anybody can cause (a username failed from many addresses, an owner's
code failed from many addresses) do not stop the right password from a browser or an address the user logged
in with before. A lock is told to the user and to the administrators of their cities. The old password on the
password-change form counts like a login."""

import datetime as dt

import pytest
import time_machine
from django.test import Client, RequestFactory
from django.utils import timezone

from dogcase.accounts import throttle
from dogcase.accounts.models import SignInLock
from dogcase.owners import throttle as portal
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

BATTLE_LAKE, TRACY = "battle-lake-mn", "tracy-mn"
WRONG = "not the password at all"
HOME = "203.0.113.7"
NEW_PASSWORD = "a long enough new passphrase 2026"


@pytest.fixture(autouse=True)
def limits(settings):
    settings.DOGCASE_LOGIN_FAILURE_LIMIT = 5
    settings.DOGCASE_LOGIN_LOCKOUT_SECONDS = 900
    settings.DOGCASE_OWNER_SIGN_IN_FAILURE_LIMIT = 5
    settings.DOGCASE_CLIENT_IP_HEADER = ""


@pytest.fixture
def clerk(make_staff_user):
    return make_staff_user("city_clerk", cities=(BATTLE_LAKE,))


def log_in(client: Client, username: str, password: str, address: str = HOME):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def twenty_wrong_from_twenty_addresses(username="clerk"):
    for n in range(20):
        assert log_in(Client(), username, WRONG, address=f"198.51.100.{n}").status_code in (200, 429)


def device_id_of(client: Client) -> str:
    request = RequestFactory().get("/")
    request.COOKIES[throttle.DEVICE_COOKIE] = client.cookies[throttle.DEVICE_COOKIE].value
    return request.get_signed_cookie(throttle.DEVICE_COOKIE, salt=throttle.DEVICE_SALT).split(":")[1]


def with_device_of(client: Client) -> Client:
    """A fresh browser session carrying only the known-device cookie of an earlier login."""
    fresh = Client()
    fresh.cookies[throttle.DEVICE_COOKIE] = client.cookies[throttle.DEVICE_COOKIE].value
    return fresh


# ----------------------------------------------------------------------------------------- staff login


def test_a_spread_attack_locks_a_new_address_but_not_the_address_the_clerk_logged_in_from(clerk):
    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 302
    twenty_wrong_from_twenty_addresses()

    assert log_in(Client(), "clerk", PASSWORD, address="192.0.2.50").status_code == 429  # the limit holds
    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 302


def test_a_known_device_passes_the_spread_lock_from_a_new_address(clerk):
    first = Client()
    assert log_in(first, "clerk", PASSWORD, address=HOME).status_code == 302
    assert first.cookies[throttle.DEVICE_COOKIE]["httponly"]
    twenty_wrong_from_twenty_addresses()

    travelling = with_device_of(first)
    assert log_in(travelling, "clerk", PASSWORD, address="192.0.2.77").status_code == 302
    assert "_auth_user_id" in travelling.session


def test_the_clerks_own_login_does_not_give_the_attacker_a_fresh_allowance(clerk):
    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 302
    twenty_wrong_from_twenty_addresses()
    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 302

    assert log_in(Client(), "clerk", PASSWORD, address="192.0.2.51").status_code == 429


def test_a_known_address_still_allows_only_the_guess_limit(clerk):
    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 302
    for _ in range(5):
        log_in(Client(), "clerk", WRONG, address=HOME)

    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 429


def test_a_known_device_still_allows_only_the_guess_limit(clerk):
    first = Client()
    log_in(first, "clerk", PASSWORD, address=HOME)
    device = with_device_of(first)
    for n in range(5):
        log_in(device, "clerk", WRONG, address=f"192.0.2.{n}")

    assert log_in(device, "clerk", PASSWORD, address="192.0.2.99").status_code == 429


def test_each_browser_is_a_device_of_its_own(clerk):
    laptop, phone = Client(), Client()
    assert log_in(laptop, "clerk", PASSWORD, address=HOME).status_code == 302
    assert log_in(phone, "clerk", PASSWORD, address="192.0.2.60").status_code == 302
    laptop_cookie = laptop.cookies[throttle.DEVICE_COOKIE].value
    assert laptop_cookie != phone.cookies[throttle.DEVICE_COOKIE].value
    twenty_wrong_from_twenty_addresses()
    # guesses from the laptop's cookie lock the laptop only; the phone, elsewhere, still signs in
    stolen = with_device_of(laptop)
    for n in range(5):
        log_in(stolen, "clerk", WRONG, address=f"203.0.113.{n}")
    assert log_in(with_device_of(laptop), "clerk", PASSWORD, address="192.0.2.61").status_code == 429
    assert log_in(with_device_of(phone), "clerk", PASSWORD, address="192.0.2.62").status_code == 302
    # a browser signing in again keeps its device (and so its count)
    again = with_device_of(phone)
    assert log_in(again, "clerk", PASSWORD, address="192.0.2.62").status_code == 302
    assert device_id_of(again) == device_id_of(phone) != device_id_of(laptop)


def test_a_device_cookie_counts_for_its_own_user_and_password_only(clerk, make_staff_user):
    make_staff_user("auditor", cities=(BATTLE_LAKE,))
    first = Client()
    log_in(first, "auditor", PASSWORD, address=HOME)  # the auditor's browser
    mine = Client()
    assert log_in(mine, "clerk", PASSWORD, address="192.0.2.8").status_code == 302  # the clerk's
    twenty_wrong_from_twenty_addresses("clerk")
    assert log_in(with_device_of(first), "clerk", PASSWORD, address="192.0.2.9").status_code == 429

    forged = Client()
    forged.cookies[throttle.DEVICE_COOKIE] = f"{clerk.pk}:0123456789abcdef:0123456789abcdef0123456789abcdef"
    assert log_in(forged, "clerk", PASSWORD, address="192.0.2.9").status_code == 429

    assert log_in(with_device_of(mine), "clerk", PASSWORD, address="192.0.2.9").status_code == 302
    clerk.set_password(NEW_PASSWORD)
    clerk.save()
    # the device was known for the old password; the new one makes it unknown
    assert log_in(with_device_of(mine), "clerk", NEW_PASSWORD, address="192.0.2.10").status_code == 429


def test_the_lock_is_told_to_the_user_at_their_next_login(clerk):
    log_in(Client(), "clerk", PASSWORD, address=HOME)
    twenty_wrong_from_twenty_addresses()
    lock = SignInLock.objects.get(user=clerk)
    assert lock.address == "" and lock.seen_at is None  # many addresses, not yet told

    client = Client()
    response = log_in(client, "clerk", PASSWORD, address=HOME)
    page = client.get(response["Location"]).content.decode()

    assert "Your login was locked once since you last logged in" in page
    assert "from many addresses" in page
    lock.refresh_from_db()
    assert lock.seen_at is not None
    # told once
    again = Client()
    log_in(again, "clerk", PASSWORD, address=HOME)
    assert "Your login was locked" not in again.get("/").content.decode()


def test_the_lock_is_told_to_the_administrators_of_the_users_cities_only(clerk, make_staff_user):
    bl_admin = make_staff_user("administrator", username="bl-admin", cities=(BATTLE_LAKE,))
    tracy_admin = make_staff_user("administrator", username="tracy-admin", cities=(TRACY,))
    for admin in (bl_admin, tracy_admin):
        admin.is_superuser = admin.is_staff = False
        admin.save()
    for _ in range(5):
        log_in(Client(), "clerk", WRONG, address="192.0.2.66")

    bl = Client()
    response = log_in(bl, "bl-admin", PASSWORD, address="192.0.2.1")
    assert (
        "Login locks of staff accounts of your cities since you last logged in: 1 (clerk)"
        in bl.get(response["Location"]).content.decode()
    )
    users_page = bl.get("/accounts/users/").content.decode()
    assert "Login locks in the last 7 days" in users_page and "from the address 192.0.2.66" in users_page

    tracy = Client()
    response = log_in(tracy, "tracy-admin", PASSWORD, address="192.0.2.2")
    assert "Login locks" not in tracy.get(response["Location"]).content.decode()
    assert "Login locks" not in tracy.get("/accounts/users/").content.decode()


def test_a_lock_on_a_name_nobody_has_tells_nobody(clerk):
    twenty_wrong_from_twenty_addresses("nobody-by-this-name")
    assert not SignInLock.objects.exists()


# ------------------------------------------------------------------------------------ password change


def test_wrong_old_passwords_on_the_change_form_lock_it_and_the_login(clerk):
    client = Client()
    client.force_login(clerk)
    for _ in range(5):
        response = client.post(
            "/accounts/password/",
            {"old_password": WRONG, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
            REMOTE_ADDR=HOME,
        )
        assert response.status_code == 200

    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        REMOTE_ADDR=HOME,
    )

    assert response.status_code == 429
    assert "Too many failed logins" in " ".join(response.context["form"].errors["old_password"])
    clerk.refresh_from_db()
    assert clerk.check_password(PASSWORD)
    assert log_in(Client(), "clerk", PASSWORD, address=HOME).status_code == 429


def test_a_password_change_keeps_the_browser_known(clerk):
    client = Client()
    assert log_in(client, "clerk", PASSWORD, address=HOME).status_code == 302
    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        REMOTE_ADDR=HOME,
    )
    assert response.status_code == 302
    twenty_wrong_from_twenty_addresses()

    assert log_in(with_device_of(client), "clerk", NEW_PASSWORD, address="192.0.2.40").status_code == 302


# ------------------------------------------------------------------------------------------ owner portal

CODE = "ABCD-EFGH-JKMN"


def test_five_wrong_answers_lock_the_code_from_that_address_only():
    now = timezone.now()
    for _ in range(5):
        assert portal.locked_until(CODE, "198.51.100.1", now) is None
        portal.record_failure(CODE, "198.51.100.1", now)

    assert portal.locked_until(CODE, "198.51.100.1", now) is not None
    assert portal.locked_until(CODE, "192.0.2.1", now) is None  # the owner, elsewhere, is not locked out


def test_guessing_a_code_from_many_addresses_is_slowed_but_the_owners_address_gets_through():
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        now = timezone.now()
        portal.record_success(CODE, "192.0.2.10", now)  # the owner signed in from home before
        for n in range(20):
            portal.record_failure(CODE, f"198.51.100.{n}", now)

        assert portal.locked_until(CODE, "198.51.100.200", now) is not None  # a new address: locked
        assert portal.locked_until(CODE, "192.0.2.10", now) is None
        # slower: the spread lock outlasts the per-address one
        clock.shift(dt.timedelta(minutes=20))
        assert portal.locked_until(CODE, "198.51.100.200", timezone.now()) is not None
        clock.shift(dt.timedelta(minutes=41))
        assert portal.locked_until(CODE, "198.51.100.200", timezone.now()) is None


def test_the_owners_known_address_still_allows_only_five_wrong_answers():
    now = timezone.now()
    portal.record_success(CODE, "192.0.2.10", now)
    for _ in range(5):
        portal.record_failure(CODE, "192.0.2.10", now)

    assert portal.locked_until(CODE, "192.0.2.10", now) is not None

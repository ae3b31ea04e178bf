"""Shared fixtures: one named actor per staff role, and a logged-in client for each."""

import os

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from hypothesis import settings as hypothesis_settings

from dogcase.cases.models import CityAccess
from dogcase.cases.roles import ROLES_BY_GROUP

CITIES = ("battle-lake-mn", "tracy-mn")

PASSWORD = "correct horse battery staple"

# Every property test runs without Hypothesis's 200 ms per-example deadline: these machines are shared, and
# one slow example on a loaded machine is not a failure of the clock (speed is for the benchmarks).
hypothesis_settings.register_profile("dogcase", deadline=None)
hypothesis_settings.load_profile("dogcase")


@pytest.fixture(autouse=True, scope="session")
def flush_passes_the_event_triggers():
    """A transactional test ends by emptying every table (Django's flush); the triggers that keep events
    append-only refuse that, as they should in any real database. Around the flush only, they are dropped
    and put back (dogcase.cases.append_only)."""
    from django.core.management.commands import flush

    from dogcase.cases import append_only

    original = flush.sql_flush

    def sql_flush(style, connection, *args, **kwargs):
        statements = original(style, connection, *args, **kwargs)
        if not statements:
            return statements
        vendor = connection.vendor
        return [*append_only.remove_sql(vendor), *statements, *append_only.install_sql(vendor)]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush, "sql_flush", sql_flush)
        yield


# What each city supplies for its documents beside its law pack (dogcase.documents.models.CityOffice): the
# addresses and telephones of the offices its pack names without them. Test values.
OFFICE_ADDRESS = "100 Test Avenue"
OFFICE_TELEPHONE = "218-555-0001"


@pytest.fixture(autouse=True)
def city_offices(request):
    """Every database test finds the cities' offices supplied, as a deployed city has them, so that the
    documents a step issues can be filled (a test of a missing one deletes the rows)."""
    if not ({"db", "transactional_db", "django_db_setup"} & set(request.fixturenames)) and not (
        request.node.get_closest_marker("django_db")
    ):
        return
    request.getfixturevalue("transactional_db" if _transactional(request) else "db")
    from django.db import connection

    from dogcase.documents.models import CityOffice
    from dogcase.law import library

    if CityOffice._meta.db_table not in connection.introspection.table_names():
        return  # a database a migration test left at an older state: nothing to issue there

    for city, j in library().jurisdictions.items():
        for office in [*(getattr(j, "offices", None) or {}), "letterhead"]:
            CityOffice.objects.get_or_create(
                jurisdiction=city,
                office=office,
                defaults={"address": f"{OFFICE_ADDRESS}, {j.name}", "telephone": OFFICE_TELEPHONE},
            )


def _transactional(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return "transactional_db" in request.fixturenames or bool(marker and marker.kwargs.get("transaction"))


@pytest.fixture(autouse=True)
def test_date():
    """DOGCASE_TEST_DATE=YYYY-MM-DD runs every test as if on that day, at 10:00 in the city, the clock ticking:
    deadlines move with weekends and holidays, so a test that passes only on some days shows itself."""
    day = os.getenv("DOGCASE_TEST_DATE")
    if not day:
        yield
        return
    import datetime as dt
    from zoneinfo import ZoneInfo

    import time_machine

    start = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(10), tzinfo=ZoneInfo("America/Chicago"))
    with time_machine.travel(start, tick=True):
        yield


@pytest.fixture(autouse=True)
def no_hearings_kept():
    """The hearings kept per case version (dogcase.cases.hearings) start empty in each test: a test's rows are
    rolled back, and the next test's case may have the same id and version with other acts."""
    from dogcase.cases import hearings

    hearings.forget_kept_hearings()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The production hasher is slow on purpose; tests hash many passwords and need none of that strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_staff_user(db):
    """Create a user holding one role (a Django Group named after the role), working for the given cities
    (default: both demo cities)."""

    def make(group_name: str, username: str | None = None, cities=CITIES, offices: bool = True) -> User:
        """`offices`: the user holds the offices of its cities its role maps to (a city's Chief of Police, as
        its administrator would appoint; dogcase.demo.offices), unless False."""
        from dogcase.demo.offices import appoint_by_role

        role = ROLES_BY_GROUP[group_name]
        user = User.objects.create_user(username=username or role.demo_username, password=PASSWORD)
        if group_name == "administrator":
            user.is_staff = user.is_superuser = True
            user.save()
        user.groups.add(Group.objects.get_or_create(name=group_name)[0])
        for city in cities:
            CityAccess.objects.create(user=user, jurisdiction=city)
        if offices:
            appoint_by_role(user, cities)
        return user

    return make


@pytest.fixture
def login_as(make_staff_user):
    """A test client logged in as a fresh user holding the given role."""

    def login(group_name: str) -> Client:
        client = Client()
        client.force_login(make_staff_user(group_name))
        return client

    return login


@pytest.fixture
def officer_client(login_as) -> Client:
    return login_as("animal_control_officer")


@pytest.fixture
def police_client(login_as) -> Client:
    return login_as("police_officer")


@pytest.fixture
def clerk_client(login_as) -> Client:
    return login_as("city_clerk")


@pytest.fixture
def hearing_officer_client(login_as) -> Client:
    return login_as("hearing_officer")


@pytest.fixture
def council_clerk_client(login_as) -> Client:
    return login_as("council_clerk")


@pytest.fixture
def auditor_client(login_as) -> Client:
    return login_as("auditor")


@pytest.fixture
def administrator_client(login_as) -> Client:
    return login_as("administrator")


@pytest.fixture
def staff(make_staff_user):
    """One user per role, working for both cities."""
    return {
        "officer": make_staff_user("animal_control_officer"),
        "police": make_staff_user("police_officer"),
        "clerk": make_staff_user("city_clerk"),
        "hearing": make_staff_user("hearing_officer"),
        "council": make_staff_user("council_clerk"),
        "auditor": make_staff_user("auditor"),
        "admin": make_staff_user("administrator"),
    }

"""The dashboards find a role's obligations by city and deadline id, read from the law (which the index
obligation_active_city_deadline serves), before testing the row's own roles. On the demo data of both cities,
at every stage a case reaches: the deadline ids the law gives a role hold every obligation that names the
role, so the narrowing loses nothing and each list holds exactly what the role's own test picks."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from dogcase.cases.models import Case, Obligation
from dogcase.cases.observations import OBSERVATION_DEADLINE
from dogcase.law import library
from dogcase.staff import queries
from dogcase.staff.city_law import city_law

pytestmark = pytest.mark.django_db

ROLES = ("animal_control_officer", "police_officer", "city_clerk", "hearing_officer", "council_clerk")


@pytest.fixture
def demo(settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)
    call_command("seed_demo", stdout=None)
    assert Case.objects.filter(status=Case.Status.OPEN).count() >= 10


def _active():
    return Obligation.objects.filter(status__in=queries.ACTIVE)


def test_every_role_named_on_an_obligation_is_given_its_deadline_by_the_law(demo):
    today = timezone.localdate()
    named = 0
    # a rabies observation's row is the city's procedure, not the law's (its roles are its pack section's)
    for ob in _active().exclude(staff_roles="").exclude(deadline_id__startswith=OBSERVATION_DEADLINE):
        law = city_law(ob.jurisdiction, today)
        for role in ob.staff_roles.strip(",").split(","):
            named += 1
            assert ob.deadline_id in law.by_role.get(role, ()), (ob.jurisdiction, ob.deadline_id, role)
    assert named >= 20  # the demo's cases have obligations of several roles


def test_a_roles_obligations_by_deadline_are_those_its_roles_name(demo):
    today = timezone.localdate()
    cities = [c for c in sorted(library().jurisdictions) if _active().filter(jurisdiction=c).exists()]
    assert {"battle-lake-mn", "tracy-mn"} <= set(cities)
    found = 0
    for role in ROLES:
        for city in cities:
            exact = set(
                _active().filter(Q(jurisdiction=city), queries._of_roles({role})).values_list("pk", flat=True)
            )
            by_law = set(
                _active().filter(queries._roles_where([city], {role}, today)).values_list("pk", flat=True)
            )
            assert by_law == exact, (city, role)
            found += len(exact)
    assert found >= 20
    # a role the law gives no step finds nothing
    assert not _active().filter(queries._roles_where(cities, {"no_such_role"}, today)).exists()


@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_sqlite_reads_a_list_by_city_and_deadline_through_the_index(demo):
    today = timezone.localdate()
    qs = (
        queries._active_obligations_in(["battle-lake-mn"])
        .filter(queries._roles_where(["battle-lake-mn"], {"city_clerk"}, today))
        .order_by()
        .values("pk")
    )
    with connection.cursor() as cur:
        sql, params = qs.query.sql_with_params()
        cur.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " ".join(str(row[-1]) for row in cur.fetchall())
    assert "obligation_active_city_deadline" in plan, plan

"""Two people acting on one case at the same moment: one act lands, the other is told (PostgreSQL, where
connections really run in parallel; SQLite's test database is one in-memory connection)."""

import threading

import pytest
from django.db import connection

from dogcase.cases import acts
from dogcase.cases.audit import verify_chain
from tests.cases.conftest import Story, at

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs a server database")


@pytest.mark.django_db(transaction=True)
def test_simultaneous_acts_on_one_case_one_lands_the_other_is_told(staff):
    s = Story(
        staff,
        "battle-lake-mn",
        {
            "bit": True,
            "victim": "human",
            "injury": "minor",
            "place": "public",
            "provoked": False,
            "victim_conduct": [],
            "law_enforcement_dog": False,
        },
    )
    version = s.case.version
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def act(user, designation):
        try:
            barrier.wait()
            acts.take_step(
                s.case,
                "declare",
                actor=user,
                inputs={"designation": designation, "basis": "Bite"},
                expected_version=version,
                at=at(0, 12),
            )
            outcomes.append("landed")
        except acts.StaleCase:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=act, args=(staff["officer"], "potentially_dangerous")),
        threading.Thread(target=act, args=(staff["police"], "dangerous")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["landed", "stale"]
    assert s.case.events.filter(act="declare").count() == 1
    assert verify_chain().ok

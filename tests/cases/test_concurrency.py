"""Two people acting on one case at the same moment: one act lands, the other is told (PostgreSQL, where
connections really run in parallel; SQLite's test database is one in-memory connection)."""

import threading

import pytest
from django.db import connection, transaction

from dogcase.cases import acts, append_only
from dogcase.cases.acts import steps
from dogcase.cases.audit import verify_chain
from dogcase.cases.models import Event
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


def _held_inside(monkeypatch, outcomes: list[str]):
    """Make the next act pause inside its transaction (its chain locked, its event written) until released.
    A pause never released is written into `outcomes` (an assert in this thread would be only a warning)."""
    inside, release = threading.Event(), threading.Event()
    original = steps.recompute_obligations

    def paused(case, **kwargs):
        result = original(case, **kwargs)
        if threading.current_thread().name == "holder":
            inside.set()
            if not release.wait(20):
                outcomes.append("holder never released")
        return result

    monkeypatch.setattr(steps, "recompute_obligations", paused)
    return inside, release


def _acts_beside_a_held_act(monkeypatch, holder_case, holder_user, other) -> list[str]:
    """Hold an act on `holder_case` inside its transaction; meanwhile run `other()` with a short lock timeout
    in another connection. Returns what happened to each."""
    outcomes: list[str] = []
    inside, release = _held_inside(monkeypatch, outcomes)

    def hold():
        try:
            acts.take_step(
                holder_case,
                "declare",
                actor=holder_user,
                inputs={"designation": "dangerous", "basis": "Bite"},
                expected_version=holder_case.version,
                at=at(1, 12),
            )
            outcomes.append("holder landed")
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test compares
            outcomes.append(f"holder failed: {exc}")
        finally:
            connection.close()

    def beside():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '3s'")
            other()
            outcomes.append("other landed")
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test compares
            outcomes.append(f"other failed: {exc}")
        finally:
            connection.close()

    holder = threading.Thread(target=hold, name="holder")
    holder.start()
    assert inside.wait(20)
    other_thread = threading.Thread(target=beside)
    other_thread.start()
    other_thread.join(30)
    release.set()
    holder.join(30)
    assert not other_thread.is_alive() and not holder.is_alive()
    return outcomes


BITE = {
    "bit": True,
    "victim": "human",
    "injury": "minor",
    "place": "public",
    "provoked": False,
    "victim_conduct": [],
    "law_enforcement_dog": False,
}


@pytest.mark.django_db(transaction=True)
def test_acts_in_different_jurisdictions_do_not_share_a_lock(staff, monkeypatch):
    battle_lake = Story(staff, "battle-lake-mn", BITE)
    tracy = Story(staff, "tracy-mn", BITE)

    def in_tracy():
        acts.take_step(
            tracy.case,
            "classify",
            actor=staff["police"],
            inputs={"designation": "vicious", "reasonable_cause": "Unprovoked bite"},
            expected_version=tracy.case.version,
            at=at(1, 12),
        )
        acts.record_person(jurisdiction="tracy-mn", actor=staff["officer"], full_name="Tess", at=at(1, 12))

    outcomes = _acts_beside_a_held_act(monkeypatch, battle_lake.case, staff["officer"], in_tracy)
    # the Tracy acts landed while the Battle Lake act still held its lock
    assert outcomes == ["other landed", "holder landed"]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_acts_on_different_cases_of_one_city_do_not_wait_for_each_other(staff, monkeypatch):
    first = Story(staff, "battle-lake-mn", BITE)
    second = Story(staff, "battle-lake-mn", BITE)

    def on_the_second_case():
        acts.take_step(
            second.case,
            "declare",
            actor=staff["police"],
            inputs={"designation": "potentially_dangerous", "basis": "Bite"},
            expected_version=second.case.version,
            at=at(1, 12),
        )

    outcomes = _acts_beside_a_held_act(monkeypatch, first.case, staff["officer"], on_the_second_case)
    assert outcomes == ["other landed", "holder landed"]
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_a_second_act_on_the_same_case_waits_for_the_first(staff, monkeypatch):
    """The control: the same harness does see a lock where there is one."""
    s = Story(staff, "battle-lake-mn", BITE)

    def on_the_same_case():
        with transaction.atomic():
            acts.lock_case(s.case.pk)

    outcomes = _acts_beside_a_held_act(monkeypatch, s.case, staff["officer"], on_the_same_case)
    assert outcomes[0].startswith("other failed") and "lock" in outcomes[0]


@pytest.mark.django_db(transaction=True)
def test_event_numbers_go_on_past_events_restored_without_their_sequence(staff):
    """A logical restore loads events but not the sequence that numbered them: the next event still gets a
    number of its own."""
    Story(staff, "tracy-mn", BITE)
    highest = Event.objects.order_by("-seq").values_list("seq", flat=True).first()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT setval('{append_only.SEQUENCE}', 1)")
    person = acts.record_person(jurisdiction="tracy-mn", actor=staff["officer"], full_name="After", at=at(1))
    assert Event.objects.get(act="record_person", data__id=person.pk).seq == highest + 1
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_verify_reads_one_state_while_acts_commit_between_its_checks(staff, monkeypatch):
    from dogcase.cases import audit
    from dogcase.ops import integrity

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
    real_events_by_chain = audit._events_by_chain
    failures: list[Exception] = []

    def an_act_commits_meanwhile(chunk_size):
        # another connection declares the dog (a new event in the case's chain, its head moved) after the
        # chains' heads were read and before their events are
        def declare():
            try:
                acts.take_step(
                    s.case,
                    "declare",
                    actor=staff["officer"],
                    inputs={"designation": "potentially_dangerous", "basis": "Bite"},
                    expected_version=s.case.version,
                    at=at(0, 12),
                )
            except Exception as exc:  # noqa: BLE001 - reported by the assertion below
                failures.append(exc)
            finally:
                connection.close()

        t = threading.Thread(target=declare)
        t.start()
        t.join()
        return real_events_by_chain(chunk_size)

    monkeypatch.setattr(audit, "_events_by_chain", an_act_commits_meanwhile)

    report = integrity.verify_all()

    assert not failures
    assert Event.objects.filter(case=s.case, act="declare").exists()  # the act did commit
    assert report["ok"], report["problems"]

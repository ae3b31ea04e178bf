"""The incremental sweep: it recomputes only the cases whose time ran out or whose law changed, and leaves the
obligations and tasks exactly as a sweep that recomputes every case would (on the demo data, over months)."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from dogcase.cases.acts import obligations as acts
from dogcase.cases.models import Case, Event, Obligation, Task
from tests.cases.conftest import SERIOUS, at, on


@pytest.fixture
def demo(db, settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)
    call_command("seed_demo", stdout=None)
    assert Case.objects.filter(status=Case.Status.OPEN).count() >= 10


def _snapshot():
    obligations = sorted(
        Obligation.objects.values_list(
            "case__number",
            "deadline_id",
            "status",
            "due_date",
            "due_at",
            "late",
            "met_by",
            "staff_roles",
            "what",
            "updated_at",
        )
    )
    details = sorted(
        (n, d, repr(detail))
        for n, d, detail in Obligation.objects.values_list("case__number", "deadline_id", "detail")
    )
    tasks = sorted(
        Task.objects.values_list(
            "case__number",
            "obligation__deadline_id",
            "key",
            "text",
            "citation",
            "staff_roles",
            "created_at",
            "done_at",
        )
    )
    events = sorted(
        Event.objects.filter(act="raise_task").values_list("case__number", "at", "summary", "data")
    )
    return obligations, details, tasks, [(n, a, s, repr(d)) for n, a, s, d in events]


class _Undo(Exception):
    def __init__(self, result):
        self.result = result


def _sweeps(instants, *, full: bool):
    """Sweep at each instant; what the records were after each (then undone, for the other run)."""
    try:
        with transaction.atomic():
            out = []
            for instant in instants:
                report = acts.sweep(at=instant, full=full).as_dict()
                counts = {k: report[k] for k in ("cases", "overdue", "tasks_raised", "not_installed")}
                out.append((instant, counts, _snapshot()))
            raise _Undo(out)
    except _Undo as undo:
        return undo.result


def test_the_incremental_sweep_leaves_what_a_full_recompute_leaves_on_the_demo_data(demo):
    start = timezone.now()
    offsets = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 400, 15]  # the last goes back in time
    instants = [start + dt.timedelta(days=d, hours=1) for d in offsets]
    incremental = _sweeps(instants, full=False)
    full = _sweeps(instants, full=True)
    raised = sum(counts["tasks_raised"] for _, counts, _ in full)
    assert raised > 0  # the demo data has times running out over these months
    for (instant, inc_counts, inc_records), (_, full_counts, full_records) in zip(
        incremental, full, strict=True
    ):
        assert inc_counts == full_counts, instant
        assert inc_records == full_records, instant


def test_a_full_sweep_after_the_incremental_one_finds_nothing_to_do(demo):
    later = timezone.now() + dt.timedelta(days=30)
    first = acts.sweep(at=later)
    assert first.recomputed < first.cases  # only the cases whose time ran out
    again = acts.sweep(at=later, full=True)
    assert (again.changes, again.tasks_raised, again.overdue) == (0, 0, first.overdue)


def test_a_sweep_with_nothing_due_recomputes_nothing_and_takes_no_audit_lock(demo, monkeypatch):
    later = timezone.now() + dt.timedelta(days=3)
    acts.sweep(at=later)
    locks = []
    real_lock = acts.lock_case
    monkeypatch.setattr(acts, "lock_case", lambda *a, **k: locks.append(1) or real_lock(*a, **k))
    events = Event.objects.count()
    report = acts.sweep(at=later + dt.timedelta(minutes=5))
    assert (report.recomputed, report.tasks_raised, report.changes) == (0, 0, 0)
    assert report.cases == Case.objects.filter(status=Case.Status.OPEN).count()
    assert locks == [] and Event.objects.count() == events


def test_the_sweep_queries_do_not_grow_with_the_cases(demo, django_assert_max_num_queries):
    later = timezone.now() + dt.timedelta(days=3)
    acts.sweep(at=later)
    # the open cases by law with their overdue obligations, the cities' choices of what their law leaves to
    # them (all cities at once), and the rows whose time came with the cases computed as of a later instant
    with django_assert_max_num_queries(3):
        acts.sweep(at=later + dt.timedelta(minutes=5))


def test_a_time_running_out_is_swept_from_its_row_alone(story):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    # the act recomputed its case in its own transaction, with the law in force at its instant
    s.case.refresh_from_db()
    assert s.case.obligations_at == at(1, 11)
    assert s.case.law_fingerprint == acts.law_fingerprint(acts.jurisdiction_of(s.case), at(1, 11))
    first = s.case.obligations.exclude(sweep_at=None).order_by("sweep_at", "id").first()
    assert first.status in ("open", "not_yet")
    before = acts.sweep(at=first.sweep_at - dt.timedelta(microseconds=1))
    assert before.recomputed == 0
    first.refresh_from_db()
    assert first.status in ("open", "not_yet")
    after = acts.sweep(at=first.sweep_at)
    assert after.recomputed == 1 and after.changes >= 1
    first.refresh_from_db()
    assert first.status in ("overdue", "lapsed", "available")
    # the request for a hearing is a right: it lapses, and the sweep has no more work on it
    request = s.case.obligations.get(deadline_id="owner.request_hearing")
    acts.sweep(at=request.sweep_at)
    request.refresh_from_db()
    assert request.status == "lapsed" and request.sweep_at is None


def test_an_overdue_obligation_an_act_found_gets_its_tasks_at_the_next_sweep(story):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    # the notice recorded late: at the act, the owner's times are computed as of day 40
    s.step(
        "serve_notice", "officer", 40, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    overdue = s.case.obligations.filter(status="overdue")
    assert overdue.exists() and all(o.sweep_at is not None for o in overdue)
    report = acts.sweep(at=at(40, 12))
    assert report.recomputed == 0 and report.tasks_raised >= overdue.count()
    assert not s.case.obligations.filter(status="overdue", sweep_at__isnull=False).exists()
    assert acts.sweep(at=at(41)).tasks_raised == 0


def test_a_change_of_law_recomputes_its_cases_in_batches_with_progress(demo, monkeypatch):
    later = timezone.now() + dt.timedelta(days=3)
    acts.sweep(at=later)
    open_cases = Case.objects.filter(status=Case.Status.OPEN).count()
    # a new version of the packs (here: of the code that writes the rows): every fingerprint differs
    monkeypatch.setattr(acts, "OBLIGATION_ROWS_VERSION", "new")
    monkeypatch.setattr(acts, "_CONTENT_HASHES", {})
    monkeypatch.setattr(acts, "SWEEP_BATCH", 4)
    lines: list[str] = []
    report = acts.sweep(at=later + dt.timedelta(minutes=5), progress=lines.append)
    assert report.law_changed == report.recomputed == open_cases
    assert report.tasks_raised == 0  # the same law in substance: nothing new is overdue
    assert lines[-1] == f"law changed: recomputed {open_cases} of {open_cases} cases"
    assert len(lines) == -(-open_cases // 4)
    fingerprints = set(Case.objects.filter(status=Case.Status.OPEN).values_list("law_fingerprint", flat=True))
    assert len(fingerprints) == len(set(Case.objects.values_list("jurisdiction", flat=True)))
    assert acts.sweep(at=later + dt.timedelta(minutes=6)).law_changed == 0


def test_a_row_made_overdue_after_the_sweep_began_keeps_its_mark_for_the_next_sweep(story):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 40, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    due = s.case.obligations.filter(status="overdue").first()
    late = s.case.obligations.exclude(pk=due.pk).exclude(status="overdue").first()
    sweep_at = at(40, 12)
    # as if an act committed while the sweep ran found a second one overdue an instant after the sweep's start
    Obligation.objects.filter(pk=late.pk).update(
        status="overdue", sweep_at=sweep_at + dt.timedelta(minutes=1)
    )

    acts.sweep(at=sweep_at)

    assert due.task_set.exists()
    late.refresh_from_db()
    assert late.sweep_at is not None and not late.task_set.exists()
    acts.sweep(at=sweep_at + dt.timedelta(days=1))
    late.refresh_from_db()
    assert late.sweep_at is None and late.task_set.exists()


def test_a_task_key_longer_than_its_column_is_kept_whole_by_its_hash(story):
    long_a = "x" * 190 + ":first-consequence"
    long_b = "x" * 190 + ":other-consequence"
    assert acts.task_key(long_a) != acts.task_key(long_b)
    assert len(acts.task_key(long_a)) <= 200 and acts.task_key("short:key") == "short:key"


def test_a_change_of_law_that_moves_a_time_is_recorded_in_the_cases_chain(story, monkeypatch):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    row = s.case.obligations.exclude(due_date=None).first()
    right = row.due_date
    # as the rows stood under the earlier law: another due date
    Obligation.objects.filter(pk=row.pk).update(due_date=right - dt.timedelta(days=3))
    monkeypatch.setattr(acts, "OBLIGATION_ROWS_VERSION", "new")
    monkeypatch.setattr(acts, "_CONTENT_HASHES", {})

    report = acts.sweep(at=at(2))

    assert report.law_changed >= 1
    event = Event.objects.get(case=s.case, act="recompute_deadlines")
    assert event.summary.startswith("The law in force changed")
    assert row.what in event.summary and row.deadline_id not in event.summary
    assert [c["deadline"] for c in event.data["changes"]] == [row.deadline_id]
    row.refresh_from_db()
    assert row.due_date == right
    from dogcase.cases.audit import verify_chain

    assert verify_chain().ok


def _cases(story, count: int) -> None:
    """`count` cases at different points: Battle Lake's with the owner's times overdue (tasks raised by the
    settling sweep) and Tracy's just opened, their clocks still running."""
    for i in range(count):
        if i % 2:
            story("tracy-mn")
            continue
        s = story("battle-lake-mn", SERIOUS)
        s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
        s.step(
            "serve_notice",
            "officer",
            1,
            served_on=on(1),
            method="personal",
            served_owner="O",
            received_on=on(1),
        )


def _quiet_sweep_work(monkeypatch, instant) -> tuple[int, int, int, dict]:
    """A sweep with nothing changed since the last one: its queries, the law fingerprints it computed, the
    model rows it built in Python, and its report."""
    from django.db import connection
    from django.db.models.signals import post_init

    fingerprints, built, queries = [], [], []
    real = acts.law_fingerprint
    monkeypatch.setattr(acts, "law_fingerprint", lambda *a, **k: fingerprints.append(1) or real(*a, **k))

    def count_rows(sender, **kwargs):
        built.append(sender)

    def count_queries(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    post_init.connect(count_rows)
    try:
        with connection.execute_wrapper(count_queries):
            report = acts.sweep(at=instant)
    finally:
        post_init.disconnect(count_rows)
        monkeypatch.setattr(acts, "law_fingerprint", real)
    return len(queries), len(fingerprints), len(built), report.as_dict()


def test_the_sweep_with_nothing_changed_does_the_same_work_for_three_times_the_cases(story, monkeypatch):
    # whatever the number of cases, what a quiet sweep decides is decided in a bounded number of set-based
    # queries: no query, law fingerprint or row built in Python per case or per obligation
    settle = at(40, 12)
    _cases(story, 2)
    acts.sweep(at=settle)
    small = _quiet_sweep_work(monkeypatch, settle + dt.timedelta(minutes=5))
    _cases(story, 4)
    acts.sweep(at=settle)
    large = _quiet_sweep_work(monkeypatch, settle + dt.timedelta(minutes=10))
    assert small[3]["cases"] == 2 and large[3]["cases"] == 6
    assert large[3]["overdue"] == 3 * small[3]["overdue"] > 0  # the same set, three times over
    for report in (small[3], large[3]):
        assert (report["recomputed"], report["tasks_raised"], report["changes"]) == (0, 0, 0)
    assert large[:3] == small[:3]
    _queries, fingerprints, built = large[:3]
    from dogcase.law import library

    # one fingerprint per installed jurisdiction, at most (a city's own pack may sit beside the shipped ones)
    assert fingerprints <= len(library().jurisdictions) and built == 0


def _counted(city: str | None = None) -> dict[str, int]:
    """The sweep report's counts straight from the rows: the open cases of installed packs, those of a pack not
    installed, and the overdue obligations of the former."""
    from dogcase.law import library

    installed = [j for j in library().jurisdictions if not city or j == city]
    open_cases = Case.objects.filter(status=Case.Status.OPEN)
    if city:
        open_cases = open_cases.filter(jurisdiction=city)
    swept = open_cases.filter(jurisdiction__in=installed)
    return {
        "cases": swept.count(),
        "not_installed": open_cases.exclude(jurisdiction__in=installed).count(),
        "overdue": Obligation.objects.filter(status="overdue", case__in=swept).count(),
    }


def test_the_report_counts_open_cases_and_their_overdue_obligations_whether_or_not_it_recomputed(story):
    settle = at(40, 12)
    _cases(story, 6)  # three Battle Lake cases whose owner's times run out, three Tracy cases just opened
    report = acts.sweep(at=settle)  # times ran out: the overdue obligations are counted after the recompute
    assert report.recomputed > 0
    assert {k: getattr(report, k) for k in ("cases", "not_installed", "overdue")} == _counted()
    assert report.overdue > 0

    def quiet(minutes: int, city: str | None = None) -> dict[str, int]:
        swept = acts.sweep(at=settle + dt.timedelta(minutes=minutes), jurisdiction=city)
        assert (swept.recomputed, swept.tasks_raised, swept.changes) == (0, 0, 0), city
        return {k: getattr(swept, k) for k in ("cases", "not_installed", "overdue")}

    # a case closed behind the application's back keeps its overdue rows: they are not an open case's
    closed, moved = Case.objects.filter(jurisdiction="battle-lake-mn").order_by("pk")[:2]
    Case.objects.filter(pk=closed.pk).update(status=Case.Status.CLOSED)
    closed_overdue = Obligation.objects.filter(status="overdue", case=closed).count()
    assert closed_overdue > 0
    assert quiet(5) == _counted() == {**_counted(), "overdue": report.overdue - closed_overdue}
    # and one moved to a pack no longer installed: its open case is counted apart, its obligations not at all
    Case.objects.filter(pk=moved.pk).update(jurisdiction="old-town-mn")
    moved_overdue = Obligation.objects.filter(status="overdue", case=moved).count()
    assert moved_overdue > 0
    for city in (None, "battle-lake-mn", "tracy-mn", "old-town-mn"):
        assert quiet(10, city) == _counted(city), city
    expected = {"cases": report.cases - 2, "not_installed": 1}
    assert _counted() == {**expected, "overdue": report.overdue - closed_overdue - moved_overdue}

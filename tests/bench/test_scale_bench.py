"""The scale benchmark's parts on a small data set: correctness only, no timing. The raw query it compares
the sweep with must find the sweep's own overdue obligations, the one it compares the day's reminders with the
reminders' own, and every page it measures must answer."""

import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from bench import reminders_scale, scale, scale_writers
from dogcase.cases.models import Case


@pytest.fixture
def data_set(db):
    call_command(
        "seed_scale", dogs=400, incidents=40, cases=24, seed=3, stdout=io.StringIO(), stderr=io.StringIO()
    )


def test_the_raw_query_finds_the_obligations_the_sweep_marks_overdue(data_set, capsys):
    scale.touch_cases(0.05)
    at = timezone.now()
    raw, _ = scale.raw_overdue(at)
    swept = scale.run_sweep(at)
    assert swept["queries"] > 0 and swept["report"]["cases"] > 0
    assert raw and raw == scale.swept_overdue()


def test_a_sweep_round_times_the_command_beside_both_raw_queries_and_tables_it(data_set, capsys):
    scale.run_sweep(timezone.now())  # caught up: the round's runs find nothing changed
    row = scale.sweep_round("nothing changed", raw_reps=2, repeat=3)
    assert row["runs"] == 3 and row["same_set"] and row["overdue"] > 0
    assert row["raw_reminders_seconds"] > 0 and row["sweep_seconds"] > 0
    floor = row["raw_seconds"] + row["raw_reminders_seconds"]
    assert row["ratio_with_reminders"] == pytest.approx(row["sweep_seconds"] / floor)
    text = scale.table(
        {
            "parameters": {"dogs": 400, "incidents": 40, "cases": 24, "seed": 3},
            "environment": {"postgresql": "-", "cpus": 1},
            "sweep": [row],
            "pages": [],
            "writers": [],
        }
    )
    assert "| nothing changed (median of 3) |" in text and f"{row['ratio_with_reminders']:,.1f}×" in text


def test_an_act_on_a_share_of_the_cases_touches_them(data_set):
    undeclared = Case.objects.filter(jurisdiction="battle-lake-mn", designation="")
    before = {c.pk: c.version for c in undeclared}
    assert before
    touched = scale.touch_cases(0.1)
    assert touched["wanted"] == 2 and touched["errors"] == 0
    assert touched["touched"] == min(2, len(before))
    after = Case.objects.filter(pk__in=before)
    assert sum(c.version == before[c.pk] + 1 and c.designation != "" for c in after) == touched["touched"]


def test_every_page_measured_answers_for_its_role(data_set):
    rows, chosen = scale.measure_pages(reps=1, budget=0)
    assert {r["status"] for r in rows} == {200}
    assert {r["role"] for r in rows} == set(scale.ROLE_USERS)
    assert all(r["queries"] > 0 and r["bytes"] > 0 for r in rows)
    assert chosen["case"].startswith("BL-")
    text = scale.table(
        {
            "parameters": {"dogs": 400, "incidents": 40, "cases": 24, "seed": 3},
            "environment": {"postgresql": "-", "cpus": 1},
            "sweep": [],
            "pages": rows,
            "writers": [],
        }
    )
    assert "| dashboard (clerk) |" in text and "| Law page (officer) |" in text


def test_the_writers_find_fresh_incidents_to_act_on(data_set):
    pool = scale_writers.writer_pool()
    assert pool and {city for _, city in pool} <= {"battle-lake-mn", "tracy-mn"}


def test_the_reminders_of_the_day_are_measured_on_the_data_set_as_it_is(data_set, capsys):
    cases = Case.objects.count()
    result = reminders_scale.run(None, rounds=1)
    (size,) = result["sizes"]
    assert result["built_cases"] == 0 and Case.objects.count() == cases
    assert size["same_set"] and size["same_rows"] and size["reminders"] == sum(size["due"].values()) > 0
    assert size["messages_written_again"] == 0 and size["queries"]["reminder_rows"] == 1
    text = scale.table(
        {
            "parameters": {"dogs": 400, "incidents": 40, "cases": 24, "seed": 3},
            "environment": {"postgresql": "-", "cpus": 1},
            "sweep": [],
            "reminders": result,
            "pages": [],
            "writers": [],
        }
    )
    assert "| reminder_rows |" in text and "| raw SQL: the same rows |" in text


def test_the_cpus_use_is_the_share_of_ticks_between_the_first_start_and_the_last_end():
    """What the machine's CPUs did while the writers wrote: the earliest start and the latest end of the
    writers' readings, the writers' own CPU seconds as a share of all the busy CPU seconds."""
    hz = scale.os.sysconf("SC_CLK_TCK")
    starts = [(1000, 5000), (1010, 5010)]
    ends = [(1000 + 3 * hz, 5000 + 4 * hz), (1000 + 2 * hz, 5000 + 3 * hz)]
    use = scale_writers.cpu_use(starts, ends, writers_cpu=1.5)
    assert use["busy"] == 0.75 and use["cpu_seconds"] == 3 and use["writers_share"] == 0.5
    assert scale_writers.cpu_use([None], ends, 1.0) is None
    busy, total = scale_writers.cpu_ticks()
    assert 0 < busy <= total

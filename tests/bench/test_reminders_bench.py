"""`make bench-reminders` on a few dozen cases (the demo, then one more copy of its stories): the raw query
finds the obligations reminder_rows selects (the same rows, columns and order), every distance of the day has some, the second run of the day
writes nothing, and the figures are written. Correctness only: no figure is judged here (timing is the
benchmark's, never a test's)."""

import json

import pytest

from bench import reminders_scale


@pytest.fixture
def demo_users(db, settings, monkeypatch):
    settings.DEBUG = True  # the benchmark's builder seeds the demo, with its development password
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)


def test_the_reminders_benchmark_finds_the_same_set_at_two_sizes(demo_users, tmp_path, capsys):
    out = tmp_path / "bench-reminders.json"
    assert reminders_scale.main(["24", "--rounds", "1", "--out", str(out)]) == 0
    figures = json.loads(out.read_text())
    sizes = figures["sizes"]
    assert len(sizes) == 2 and sizes[0]["open_cases"] < sizes[1]["open_cases"]
    for size in sizes:
        assert size["same_set"] and size["same_rows"] and size["only_raw"] == size["only_product"] == 0
        assert size["reminders"] == sum(size["due"].values())
        assert len(size["due"]) >= 4 and all(n >= 1 for n in size["due"].values()), size["due"]
        assert size["messages_written_again"] == 0
        assert size["queries"]["reminder_rows"] == 1 and size["queries"]["raw_ids"] == 1
        assert size["send_again_counts"] == size["first_send"]["counts"]
        assert all(ms > 0 for ms in size["ms"].values())
    assert figures["same_set"] and figures["nothing_written_again"]
    printed = capsys.readouterr().out
    assert "the same set: ok" in printed and "reminder_rows <= 1.5x the raw query of the same rows" in printed

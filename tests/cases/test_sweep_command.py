"""`dogcase sweep`: what the daily run prints, and its errors on bad input."""

import json

import pytest

from dogcase import cli
from tests.cases.conftest import SERIOUS, on


def test_the_sweep_command_reports_what_it_raised(story, capsys):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    s.step(
        "serve_notice", "officer", 1, served_on=on(1), method="personal", served_owner="O", received_on=on(1)
    )
    assert cli.main(["sweep", "--at", "2026-07-15T08:00:00-05:00", "--city", "battle-lake-mn"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["cases"] == 1 and first["overdue"] >= 1 and first["tasks_raised"] >= 2
    assert cli.main(["sweep", "--at", "2026-07-15T09:00:00-05:00"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["tasks_raised"] == 0  # each task is raised once
    assert s.case.tasks.count() == first["tasks_raised"]


@pytest.mark.parametrize("value", ["yesterday", "2026-07-15T08:00:00"])
def test_a_bad_instant_is_refused_naming_the_option(db, capsys, value):
    with pytest.raises(SystemExit) as info:
        cli.main(["sweep", "--at", value])
    assert info.value.code == 2
    assert json.loads(capsys.readouterr().err)["error"]["field"] == "--at"


def test_the_daily_sweep_recomputes_only_what_ran_out_and_full_recomputes_every_case(story, capsys):
    s = story("battle-lake-mn", SERIOUS)
    s.step("declare", "officer", 0, designation="dangerous", basis="Serious bite")
    assert cli.main(["sweep", "--at", "2026-06-01T12:00:00-05:00"]) == 0
    quiet = json.loads(capsys.readouterr().out)
    assert (quiet["cases"], quiet["recomputed"], quiet["law_changed"]) == (1, 0, 0)
    assert cli.main(["sweep", "--full", "--at", "2026-06-01T12:00:00-05:00"]) == 0
    full = json.loads(capsys.readouterr().out)
    assert (full["cases"], full["recomputed"], full["changes"], full["tasks_raised"]) == (1, 1, 0, 0)

"""`dogcase deadline` without --designation: where the provisions differ by designation, each designation is
answered on its own (JSON out), and a note names --designation and its choices."""

import json

from dogcase.cli import main

EVENTS = ["--event", "notice_sent=2027-01-14", "--event", "notice_date=2027-01-15"]


def test_without_designation_each_designation_is_answered_and_the_option_is_named(capsys):
    assert main(["deadline", "owner.request_hearing", "-j", "tracy-mn", *EVENTS]) == 0
    captured = capsys.readouterr()
    answer = json.loads(captured.out)

    assert answer["status"] == "by_designation" and answer["due"] is None
    parts = {a["designation"]: a for a in answer["by_designation"]}
    assert parts["dangerous"]["due"] == "2027-01-29"  # 347.541: 14 days from the notice of 15 January
    assert parts["vicious"]["set_by"] == ["tracy-mn:4.A.request"]
    assert parts["vicious"]["what"] != parts["dangerous"]["what"]
    assert "--designation" in captured.err
    for choice in answer["designations"]:
        assert choice in captured.err


def test_with_designation_one_answer_and_no_note(capsys):
    assert (
        main(["deadline", "owner.request_hearing", "-j", "tracy-mn", *EVENTS, "--designation", "vicious"])
        == 0
    )
    captured = capsys.readouterr()
    answer = json.loads(captured.out)

    assert answer["status"] == "determined"
    assert answer["set_by"] == ["tracy-mn:4.A.request"]
    assert captured.err == ""


def test_a_deadline_set_alike_for_every_designation_is_one_answer(capsys):
    # Tracy's report to the police (Subd 10) is set by one provision: nothing to answer apart
    assert (
        main(
            [
                "deadline",
                "owner.report_to_police",
                "-j",
                "tracy-mn",
                "--event",
                "dog_unconfined_or_attack=2026-11-01T01:30:00-05:00",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    answer = json.loads(captured.out)

    assert answer["status"] == "determined"
    assert answer["due"] == "2026-11-01T01:30:00-06:00"
    assert captured.err == ""

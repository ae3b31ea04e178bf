"""The `dogcase` command: law questions from the shell, JSON out, exit 2 naming the field on bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dogcase.cli import main
from tests.incident_facts import UNPROVOKED_BITE_IN_PUBLIC


def run(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def fails(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    assert exit_info.value.code == 2
    return json.loads(capsys.readouterr().err)["error"]


@pytest.fixture
def facts_file(tmp_path):
    path = tmp_path / "facts.json"
    path.write_text(json.dumps({"incident_date": "2026-03-02", "facts": UNPROVOKED_BITE_IN_PUBLIC}))
    return path


def test_classify_reads_a_facts_file_and_uses_the_incident_dates_law(capsys, facts_file):
    answer = run(capsys, "classify", str(facts_file), "-j", "tracy-mn")

    assert answer["law"]["as_of"] == "2026-03-02"
    assert set(answer["eligible"]) == {"potentially_dangerous", "vicious"}


def test_deadline_gives_the_owner_the_later_of_two_provisions(capsys):
    # § 90.15 (B)(2)(b): 14 days from the notice (Friday 3 May 2024: 17 May); (H): from its receipt if later
    answer = run(
        capsys,
        "deadline",
        "owner.request_hearing",
        "-j",
        "battle-lake-mn",
        "--designation",
        "potentially_dangerous",
        "--event",
        "notice_date=2024-05-03",
        "--event",
        "notice_received=2024-05-06",
    )

    assert len(answer["entries"]) == 2
    assert answer["due"] == "2024-05-20"
    assert answer["set_by"] == ["battle-lake-mn:H.deadline"]


def test_deadline_for_one_designation_combines_only_the_provisions_that_concern_it(capsys):
    events = ["--event", "notice_sent=2026-03-02", "--event", "notice_date=2026-03-02"]
    every = run(capsys, "deadline", "owner.request_hearing", "-j", "tracy-mn", *events)
    dangerous_dog = run(
        capsys,
        "deadline",
        "owner.request_hearing",
        "-j",
        "tracy-mn",
        *events,
        "--designation",
        "dangerous",
    )

    # Tracy's five business days (Subd 4.A, for vicious dogs) do not set a state dangerous dog's time; asked
    # without a designation, each designation is answered on its own
    assert every["status"] == "by_designation" and every["due"] is None
    parts = {a["designation"]: a for a in every["by_designation"]}
    assert {e["provision"]["provision"] for e in parts["vicious"]["entries"]} == {"tracy-mn:4.A.request"}
    assert parts["dangerous"]["due"] == "2026-03-16"
    assert {e["provision"]["provision"] for e in dangerous_dog["entries"]} == {"mn-statute:347.541.1"}
    assert dangerous_dog["due"] == "2026-03-16"


def test_deadline_with_an_unknown_designation_exits_2_naming_the_option(capsys):
    error = fails(
        capsys,
        "deadline",
        "owner.request_hearing",
        "-j",
        "tracy-mn",
        "--event",
        "notice_date=2026-03-02",
        "--designation",
        "feral",
    )

    assert error["field"] == "--designation"
    assert "unknown designation 'feral'" in error["rule"]


def test_law_show_states_the_date_and_the_layers(capsys):
    answer = run(capsys, "law", "show", "tracy-mn", "--on", "2016-01-04")

    assert answer["on"] == "2016-01-04"
    assert [layer["pack"] for layer in answer["layers"]] == ["mn-statute", "tracy-mn"]
    city = answer["layers"][1]["provisions"]
    assert "tracy-mn:12" not in {p["provision"] for p in city}  # Subd 12 is in force from 2017-05-22


def test_law_conflicts_lists_the_insurance_amounts(capsys):
    answer = run(capsys, "law", "conflicts", "tracy-mn", "--on", "2026-11-30")

    insurance = next(c for c in answer["conflicts"] if c["topic"] == "requirement liability_coverage")
    assert (insurance["city"]["value"], insurance["state"]["value"]) == ("$50,000", "$300,000")


def test_law_conflicts_lists_the_unlawful_versus_wilful_trespass_of_battle_lake(capsys):
    answer = run(capsys, "law", "conflicts", "battle-lake-mn", "--on", "2026-11-30")

    trespass = next(c for c in answer["conflicts"] if c["city"]["provision"] == "battle-lake-mn:F.1")
    assert trespass["state"]["provision"] == "mn-statute:347.51.5.a"
    assert "unlawful trespass" in trespass["summary"] and "wilful trespass" in trespass["summary"]


def test_law_defects_names_the_missing_penalty_section_of_battle_lake(capsys):
    answer = run(capsys, "law", "defects", "battle-lake-mn")

    penalty = [d for d in answer["battle-lake-mn"] if "battle-lake-mn:penalty" in d["provisions"]]
    assert [d["kind"] for d in penalty] == ["missing_text"]
    assert "§ 90.99" in penalty[0]["text"]


def test_law_check_validates_every_pack(capsys):
    answer = run(capsys, "law", "check")

    assert answer["ok"] is True
    assert {"mn-statute", "tracy-mn", "battle-lake-mn"} <= set(answer["packs"])
    assert answer["packs"]["tracy-mn"]["provisions"] > 0


def test_law_check_refuses_two_packs_with_one_case_prefix(capsys, tmp_path, monkeypatch):
    from dogcase.law.loader import Library
    from tests.packs_library import big_lake_pack, packs_folder

    folder = packs_folder(tmp_path / "packs", add={"big-lake-mn": big_lake_pack().replace("BG", "BL", 1)})
    monkeypatch.setattr("dogcase.law.load_all", lambda root=None: Library(folder))

    error = fails(capsys, "law", "check")

    assert error["field"].endswith("big-lake-mn/pack.yaml") or error["field"].endswith(
        "battle-lake-mn/pack.yaml"
    )
    assert "case_prefix 'BL'" in error["rule"]
    assert (
        "battle-lake-mn" in error["field"] + error["rule"] and "big-lake-mn" in error["field"] + error["rule"]
    )


def test_law_list_names_the_jurisdictions(capsys):
    answer = run(capsys, "law", "list")

    assert {"mn-statute", "tracy-mn", "battle-lake-mn"} <= {j["id"] for j in answer}


def test_malformed_json_file_exits_2_naming_the_file_argument(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"incident_date": "2026-03-02",')

    error = fails(capsys, "classify", str(path), "-j", "tracy-mn")

    assert error["field"] == "FACTS"
    assert "not valid JSON" in error["rule"]


def test_unknown_jurisdiction_exits_2(capsys, facts_file):
    error = fails(capsys, "classify", str(facts_file), "-j", "nowhere-mn")

    assert error["field"] == "jurisdiction"
    assert "nowhere-mn" in error["rule"]


def test_impossible_as_of_date_exits_2_naming_the_option(capsys, facts_file):
    error = fails(capsys, "classify", str(facts_file), "-j", "tracy-mn", "--as-of", "2026-02-30")

    assert error["field"] == "--as-of"


def test_unknown_fact_exits_2_naming_the_fact(capsys, tmp_path):
    path = tmp_path / "facts.json"
    path.write_text(json.dumps({"incident_date": "2026-03-02", "facts": {"barked": True}}))

    error = fails(capsys, "classify", str(path), "-j", "tracy-mn")

    assert error["field"] == "facts.barked"


def test_a_file_that_is_not_text_exits_2(capsys, tmp_path):
    path = tmp_path / "facts.json"
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(SystemExit) as exit_:
        main(["classify", str(path), "-j", "tracy-mn"])
    assert exit_.value.code == 2
    assert "not UTF-8" in json.loads(capsys.readouterr().err)["error"]["rule"]


def test_as_of_that_contradicts_the_files_incident_date_exits_2(capsys, facts_file):
    with pytest.raises(SystemExit) as exit_:
        main(["classify", str(facts_file), "-j", "tracy-mn", "--as-of", "1999-01-01"])
    assert exit_.value.code == 2
    assert json.loads(capsys.readouterr().err)["error"]["field"] == "--as-of"


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["law", "defects", "nowhere-mn"], "jurisdiction"),
        (["law", "show", "tracy-mn", "--on", "9999-01-01"], "on"),
    ],
)
def test_law_commands_exit_2_on_bad_input(capsys, argv, field):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert json.loads(capsys.readouterr().err)["error"]["field"] == field


def test_installed_console_script_runs():
    script = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "dogcase"
    if not script.exists():
        pytest.skip(f"{script} is not installed (pip install -e .)")

    result = subprocess.run(  # noqa: S603 — our own console script, fixed arguments
        [str(script), "law", "list"], capture_output=True, text=True, timeout=60, check=False
    )

    assert result.returncode == 0, result.stderr
    assert "tracy-mn" in {j["id"] for j in json.loads(result.stdout)}


def test_law_check_warns_when_a_pack_has_no_table_tests(capsys, tmp_path):
    from tests.law.lakeview import install_lakeview

    folder = install_lakeview(tmp_path / "packs", shipped=("mn-statute",))
    assert main(["law", "check", "--packs", str(folder)]) == 0
    captured = capsys.readouterr()
    answer = json.loads(captured.out)

    assert answer["ok"] is True
    assert set(answer["packs"]) == {"mn-statute", "lakeview-mn"}
    no_tests = [w for w in answer["warnings"] if "no cases.yaml" in w["warning"]]
    assert [w["pack"] for w in no_tests] == ["lakeview-mn"]
    assert "warning: packs/lakeview-mn/pack.yaml: no cases.yaml" in captured.err


def test_law_check_of_the_shipped_packs_warns_only_of_what_the_city_must_supply_or_confirm(
    capsys, monkeypatch
):
    """An office's address or telephone the texts do not give (null in the pack: a document that uses it cannot
    be issued until the city writes it), and a state element a city document leaves to the state's wording."""
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", "")  # the shipped packs alone
    warnings = [w["warning"] for w in run(capsys, "law", "check")["warnings"]]
    assert any("city_clerk_treasurer: address not given" in w for w in warnings)
    unexpected = [
        w for w in warnings if not ("not given — " in w or "the state document's wording is appended" in w)
    ]
    assert unexpected == []


def test_the_law_texts_document_is_the_one_the_packs_generate(capsys, monkeypatch):
    """docs/law-texts.md lists every defect of the shipped packs: regenerate it with
    `DOGCASE_SITE_PACKS_DIR= dogcase law defects --markdown > docs/law-texts.md` when a pack's defects change
    (a server's own packs, if any, are left out)."""
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", "")
    assert main(["law", "defects", "--markdown"]) == 0
    generated = capsys.readouterr().out
    stored = (Path(__file__).resolve().parent.parent / "docs" / "law-texts.md").read_text(encoding="utf-8")
    assert generated == stored


def test_output_into_a_reader_that_stops_early_ends_quietly():
    """`dogcase law show … | head`: the reader closes the pipe after a few lines; dogcase stops without a
    BrokenPipeError traceback."""
    process = subprocess.Popen(  # noqa: S603 - our own command, no shell
        [sys.executable, "-m", "dogcase", "law", "show", "battle-lake-mn"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout.read(100)  # the first lines arrive
    process.stdout.close()  # … and the reader goes away, as `head` does
    stderr = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
    assert stderr == ""
    assert process.returncode == 141

"""`dogcase city add --state-only` and `dogcase city list`: a city or county with no ordinance of its own, written
into the site's packs folder, loaded beside the shipped packs; every bad answer refused naming its option, and
nothing written."""

import datetime as dt

import pytest

from dogcase.law.loader import PACKS_DIR, Library, load_all
from tests.test_cli import fails, run

OBSERVES = ["--observes", "indigenous_peoples_day=yes", "--observes", "day_after_thanksgiving=no"]


@pytest.fixture
def site(tmp_path, monkeypatch):
    folder = tmp_path / "site-packs"
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", str(folder))
    return folder


def test_a_city_added_state_only_loads_beside_the_shipped_packs(capsys, site):
    added = run(capsys, "city", "add", "Example, MN", "--state-only", *OBSERVES)["added"]
    assert added == {
        "id": "example-mn",
        "name": "City of Example, Minnesota",
        "short_name": "Example",
        "kind": "city",
        "case_prefix": "EX",
        "file": str(site / "example-mn" / "pack.yaml"),
    }
    lib = Library(PACKS_DIR, site)
    j = lib.get("example-mn")
    assert dict(j.pack.observes) == {"indigenous_peoples_day": True, "day_after_thanksgiving": False}
    # the day after Thanksgiving 2026 is a working day in Example: a period ending then is not moved
    assert j.calendar.holiday_on(dt.date(2026, 11, 27)) is None
    assert j.calendar.holiday_on(dt.date(2026, 10, 12)) is not None  # Indigenous Peoples Day
    # the server's library (load_all) reads the site's folder too
    assert "example-mn" in load_all().jurisdictions
    listed = {c["id"]: c for c in run(capsys, "city", "list")}
    assert (
        listed["example-mn"]["added_on_this_server"] and listed["example-mn"]["law"] == "the state law alone"
    )
    assert not listed["tracy-mn"]["added_on_this_server"]
    assert listed["tracy-mn"]["law"] == "its own and the state's"
    # a pack with no text of its own has nothing to table-test: the law check does not ask for cases.yaml
    assert not [w for w in lib.warnings() if w["pack"] == "example-mn" and "cases.yaml" in w["warning"]]


def test_a_county_gets_its_sheriff_as_the_authority_and_a_prefix_of_its_own(capsys, site):
    run(capsys, "city", "add", "Lake", "--county", "--state-only", *OBSERVES)
    second = run(capsys, "city", "add", "Lakeland, MN", "--state-only", *OBSERVES)["added"]
    lib = Library(PACKS_DIR, site)
    lake = lib.get("lake-county-mn")
    assert lake.pack.kind == "county" and lake.pack.case_prefix == "LC"
    assert lake.offices["animal_control_authority"]["name"] == "Lake County Sheriff's Office"
    assert second["case_prefix"] == "LA" and second["case_prefix"] != lake.pack.case_prefix


@pytest.mark.parametrize(
    ("argv", "field", "words"),
    [
        (["Example, MN", *OBSERVES], "--state-only", "law pack"),
        (["Example, MN", "--state-only"], "--observes", "--observes day_after_thanksgiving=yes|no"),
        (["Example, MN", "--state-only", "--observes", "christmas=no"], "--observes", "not a holiday"),
        (
            [
                "Example, MN",
                "--state-only",
                "--observes",
                "indigenous_peoples_day=maybe",
                OBSERVES[2],
                OBSERVES[3],
            ],
            "--observes",
            "answer yes or no",
        ),
        (["Tracy, MN", "--state-only", "--id", "tracy-mn", *OBSERVES], "--id", "already a jurisdiction"),
        (["Example, MN", "--state-only", "--id", "Example MN", *OBSERVES], "--id", "lower-case"),
        (
            ["Example, MN", "--state-only", "--case-prefix", "BL", *OBSERVES],
            "--case-prefix",
            "battle-lake-mn",
        ),
        (["Example, MN", "--state-only", "--case-prefix", "1X", *OBSERVES], "--case-prefix", "starting with"),
        ([", MN", "--state-only", *OBSERVES], "NAME", "name"),
    ],
)
def test_each_bad_answer_names_its_option_and_writes_nothing(capsys, site, argv, field, words):
    error = fails(capsys, "city", "add", *argv)
    assert error["field"] == field and words in error["rule"]
    assert not site.exists() or not [p for p in site.iterdir() if not p.name.startswith(".")]


def test_a_site_pack_may_not_take_a_shipped_packs_name(site):
    (site / "tracy-mn").mkdir(parents=True)
    (site / "tracy-mn" / "pack.yaml").write_text((PACKS_DIR / "tracy-mn" / "pack.yaml").read_text())
    from dogcase.law.errors import PackError

    with pytest.raises(PackError, match="shipped with dogcase"):
        Library(PACKS_DIR, site)


def test_the_same_city_twice_is_refused(capsys, site):
    run(capsys, "city", "add", "Example, MN", "--state-only", *OBSERVES)
    error = fails(capsys, "city", "add", "Example, MN", "--state-only", *OBSERVES)
    assert error["field"] == "--id" and "already a jurisdiction" in error["rule"]

"""What changed between two versions of the law packs, in words (dogcase.law.changes), and a pack written on a
running process taken into use without a restart — or refused, the law in use kept (loader.reload_if_changed)."""

from __future__ import annotations

import os
import shutil

import pytest

from dogcase.law import changes, loader
from dogcase.law.errors import PackError

TRACY = "tracy-mn/pack.yaml"
NOTIFY_PERIOD = (
    "      trigger: classification\n      period: {amount: 3, unit: calendar_days}",
    "      trigger: classification\n      period: {amount: 5, unit: calendar_days}",
)


@pytest.fixture
def texts():
    return changes.law_texts(loader.PACKS_DIR)


def _edited(texts, name, old, new):
    assert texts[name].count(old) == 1, f"{old!r} is not once in {name}"
    return {**texts, name: texts[name].replace(old, new)}


def test_the_same_files_change_nothing_and_a_comment_changes_nothing(texts):
    assert changes.what_changed(texts, texts) == []
    commented = {**texts, TRACY: "# a comment\n" + texts[TRACY]}
    assert changes.what_changed(texts, commented) == []
    assert changes.fingerprint(commented) != changes.fingerprint(texts)


def test_a_period_changed_is_named_by_its_citation_with_both_times(texts):
    found = changes.what_changed(texts, _edited(texts, TRACY, *NOTIFY_PERIOD))
    assert [str(c) for c in found] == [
        "tracy-mn: Tracy City Code § 8.31, Subd 3: its time: 3 calendar days (the first day not counted, a last "
        "day on a weekend or legal holiday moved to the next working day) → 5 calendar days (the first day not "
        "counted, a last day on a weekend or legal holiday moved to the next working day)"
    ]


def test_who_may_take_a_step_is_named_by_the_roles_labels(texts):
    edited = _edited(
        texts,
        TRACY,
        '    provisions: ["3", 3.notice, 4.A.request]\n    documents: [vicious_classification]\n'
        "    roles: [city_administrator, chief_of_police]",
        '    provisions: ["3", 3.notice, 4.A.request]\n    documents: [vicious_classification]\n'
        "    roles: [city_administrator, city_council]",
    )
    assert [c.what for c in changes.what_changed(texts, edited)] == [
        "the step “Notify the owner in writing of the classification”: who may take it: now also Tracy City "
        "Council; no longer Tracy Chief of Police"
    ]


def test_a_pack_added_or_removed_is_said(texts):
    without = {k: v for k, v in texts.items() if k != TRACY}
    assert [str(c) for c in changes.what_changed(without, texts)] == ["tracy-mn: the pack was added"]
    assert [str(c) for c in changes.what_changed(texts, without)] == ["tracy-mn: the pack was removed"]


@pytest.fixture
def packs(tmp_path):
    """A copy of the shipped packs, read by this process as if it were the shipped folder."""
    folder = tmp_path / "packs"
    shutil.copytree(loader.PACKS_DIR, folder, ignore=shutil.ignore_patterns("__pycache__"))
    yield folder
    loader.forget_loaded()


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    info = path.stat()  # a new mtime even within the file system's time resolution
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))


def test_a_pack_written_on_a_running_process_is_used_and_a_broken_one_is_refused(packs):
    root = str(packs)
    first = loader.load_all(root)
    assert loader.reload_if_changed(root) is None
    tracy = packs / TRACY
    good = tracy.read_text(encoding="utf-8")
    _write(tracy, good.replace(*NOTIFY_PERIOD))
    taken = loader.reload_if_changed(root)
    assert taken is not None and taken.error is None
    assert taken.before is first and taken.after is loader.load_all(root) and taken.after is not first
    assert [c.pack for c in taken.changes] == ["tracy-mn"]
    versions = taken.after.packs["tracy-mn"].provisions["3"].versions
    assert versions[0].effect["period"]["amount"] == 5
    assert loader.reload_if_changed(root) is None

    _write(tracy, good + "\nprocedure: [unclosed\n")
    refused = loader.reload_if_changed(root)
    assert isinstance(refused.error, PackError) and "tracy-mn/pack.yaml" in refused.error.file
    assert loader.load_all(root) is taken.after  # the law in use is kept
    assert loader.reload_if_changed(root) is None  # not tried again until written again

    _write(tracy, good)
    back = loader.reload_if_changed(root)
    assert (
        back.error is None
        and back.after.packs["tracy-mn"].provisions["3"].versions[0].effect["period"]["amount"] == 3
    )
    assert loader.loaded_texts(root)[TRACY] == good

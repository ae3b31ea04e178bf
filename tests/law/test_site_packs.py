"""The server's own packs (DOGCASE_SITE_PACKS_DIR) are read beside the shipped ones. The whole suite runs once with
an extra city installed so (scripts/test-all.sh): this test says that run really has it."""

import os
from pathlib import Path

import pytest

from dogcase.law import library
from dogcase.law.loader import PACKS_DIR, Library, site_packs_dir

EXPECTED = os.getenv("DOGCASE_EXPECT_SITE_PACKS", "")


@pytest.mark.skipif(not EXPECTED, reason="this run installs no pack of its own (DOGCASE_EXPECT_SITE_PACKS)")
def test_the_run_serves_the_packs_installed_beside_the_shipped_ones():
    site = site_packs_dir()
    installed = {pid for pid, p in library().packs.items() if site and Path(p.folder).parent == site}
    assert set(EXPECTED.split(",")) <= installed


def test_the_site_folder_is_the_var_folders_unless_named(monkeypatch, tmp_path):
    monkeypatch.delenv("DOGCASE_SITE_PACKS_DIR", raising=False)
    monkeypatch.setenv("DOGCASE_VAR_DIR", str(tmp_path / "var"))
    assert site_packs_dir() == tmp_path / "var" / "packs"
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", "")
    assert site_packs_dir() is None
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", str(tmp_path / "mine"))
    assert site_packs_dir() == tmp_path / "mine"
    # a folder not made yet holds no pack: the shipped ones load alone
    assert set(Library(PACKS_DIR, tmp_path / "mine").packs) == set(Library(PACKS_DIR).packs)


def test_a_site_pack_cannot_be_a_state(tmp_path):
    site = tmp_path / "site"
    (site / "other-state").mkdir(parents=True)
    text = (PACKS_DIR / "mn-statute" / "pack.yaml").read_text(encoding="utf-8")
    text = text.replace("id: mn-statute", "id: other-state", 1).replace(
        "case_prefix: MN", "case_prefix: OS", 1
    )
    (site / "other-state" / "pack.yaml").write_text(text, encoding="utf-8")
    from dogcase.law.errors import PackError

    with pytest.raises(PackError, match="city or a county"):
        Library(PACKS_DIR, site)

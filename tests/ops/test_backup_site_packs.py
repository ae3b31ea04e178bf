"""A backup keeps the law packs of the cities added on the server (`dogcase city add`): a city's law is its data.
Restore writes them back into the site's folder, never over a file that is there."""

import pytest

from dogcase.law.sitepacks import add_state_only
from dogcase.ops.backup import _restore_site_packs, backup

pytestmark = pytest.mark.django_db(transaction=True)

OBSERVES = {"indigenous_peoples_day": "yes", "day_after_thanksgiving": "no"}


def test_the_site_packs_are_backed_up_and_written_back(tmp_path, monkeypatch):
    site = tmp_path / "site"
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", str(site))
    added = add_state_only("Example, MN", site=site, observes=OBSERVES)
    (site / "example-mn" / "es.yaml").write_text('"Declare the dog": "Declarar al perro"\n', encoding="utf-8")

    manifest = backup(tmp_path / "backup")
    assert sorted(e["name"] for e in manifest["site_packs"]) == ["example-mn/es.yaml", "example-mn/pack.yaml"]
    assert (tmp_path / "backup" / "packs" / "example-mn" / "pack.yaml").read_text() == added.file.read_text()

    # a new server: its site folder is empty, and gets the packs back
    fresh = tmp_path / "fresh-site"
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", str(fresh))
    assert _restore_site_packs(tmp_path / "backup", manifest) == []
    assert (fresh / "example-mn" / "pack.yaml").read_text() == added.file.read_text()

    # a file that differs is left as it is, and said
    (fresh / "example-mn" / "es.yaml").write_text('"Declare the dog": "otra cosa"\n', encoding="utf-8")
    problems = _restore_site_packs(tmp_path / "backup", manifest)
    assert [p["file"].endswith("example-mn/es.yaml") for p in problems] == [True]
    assert "otra cosa" in (fresh / "example-mn" / "es.yaml").read_text()


def test_a_server_without_packs_of_its_own_backs_up_none(tmp_path, monkeypatch):
    monkeypatch.setenv("DOGCASE_SITE_PACKS_DIR", "")
    assert backup(tmp_path / "backup")["site_packs"] == []

"""The statewide data set is built again when the code that shapes its rows changes, not for an index: a
migration of indexes alone is applied to the data set when it is reused."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from bench import scale

ARGS = argparse.Namespace(dogs=1000, incidents=100, cases=10, seed=1)
INDEX = """from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cases", "0001_initial")]
    operations = [
        migrations.AddIndex(model_name="event", index=models.Index(fields=["act", "at"], name="event_act_at")),
    ]
"""
FIELD = """from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cases", "0001_initial")]
    operations = [
        migrations.AddIndex(model_name="event", index=models.Index(fields=["act", "at"], name="event_act_at")),
        migrations.AddField(model_name="event", name="extra", field=models.TextField(default="")),
    ]
"""


def test_the_shipped_index_migrations_are_told_from_the_others():
    migrations = scale.ROOT / "dogcase" / "cases" / "migrations"
    assert scale.index_only(migrations / "0011_event_indexes_for_dashboards.py")
    assert not scale.index_only(migrations / "0001_initial.py")


def test_an_index_keeps_the_data_set_a_field_builds_it_again(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    folder = root / "dogcase" / "cases" / "migrations"
    folder.mkdir(parents=True)
    shutil.copy(scale.ROOT / "dogcase" / "cases" / "migrations" / "0001_initial.py", folder)
    (root / "dogcase" / "demo").mkdir()
    shutil.copy(scale.ROOT / "dogcase" / "demo" / "scale.py", root / "dogcase" / "demo" / "scale.py")
    monkeypatch.setattr(scale, "ROOT", root)
    before = scale.seeded_name(ARGS)
    (folder / "0099_index.py").write_text(INDEX)
    assert scale.seeded_name(ARGS) == before
    (folder / "0099_index.py").write_text(FIELD)
    assert scale.seeded_name(ARGS) != before
    (folder / "0099_index.py").unlink()
    (root / "dogcase" / "demo" / "scale.py").write_text("# another way of seeding\n")
    assert scale.seeded_name(ARGS) != before


def test_a_migration_with_no_operations_is_not_an_index_one(tmp_path: Path):
    path = tmp_path / "0002_empty.py"
    path.write_text("class Migration:\n    operations = []\n")
    assert not scale.index_only(path)

"""The keys an import finds records by live in a temporary table, not in memory (dogcase.imports.lookups): a
record of an earlier chunk of rows is found as one of the same chunk is, the sketch that spares the table the
keys it has not only ever spares a query, and the table is gone once the walk is over."""

from __future__ import annotations

import pytest
from django.db import connection

from dogcase.cases.models import Dog, Person, Premises
from dogcase.imports import lookups, walk
from tests.imports.conftest import checked, imported

pytestmark = pytest.mark.django_db

HEADER = ["Dog name", "Breed", "Sex", "Microchip", "Owner name", "Owner address", "Owner city"]
ROWS = [
    ["Max", "Husky", "M", "900001000000001", "Jo Park", "1 Elm St", "Battle Lake"],
    ["Bella", "Beagle", "F", "900001000000002", "Sam Lee", "2 Oak St", "Battle Lake"],
    ["Kira", "Mix", "F", "900001000000003", "Al Ray", "3 Fir St", "Battle Lake"],
    ["Rex", "Boxer", "M", "900001000000004", "jo  park", "1 Elm St.", "Battle Lake"],  # row 2's owner
    ["Max", "Husky", "M", "900001-000-000-001", "Jo Park", "1 Elm St", "Battle Lake"],  # row 2's chip
]
CREATED = {"dog": 4, "person": 3, "premises": 3}
LINKED = {"dog": 1, "person": 1}


def csv_of(rows) -> bytes:
    return "\n".join(",".join(r) for r in rows).encode()


def _temporary_tables() -> list[str]:
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SELECT tablename FROM pg_tables WHERE tablename LIKE 'dogcase_import_keys_%%'")
        else:
            cur.execute("SELECT name FROM sqlite_temp_master WHERE name LIKE 'dogcase_import_keys_%%'")
        return [name for (name,) in cur.fetchall()]


@pytest.mark.parametrize("chunk", [2, 1000])
def test_a_record_of_an_earlier_chunk_is_found_as_one_of_the_same_chunk(clerk, monkeypatch, chunk):
    monkeypatch.setattr(walk, "CHUNK", chunk)
    run = checked(clerk, "dogs.csv", "dogs", data=csv_of([HEADER, *ROWS]), source="Sheet")
    assert run.problem_count == 0, run.problems
    assert (run.summary["created"], run.summary["linked"]) == (CREATED, LINKED)
    run = imported(clerk, "dogs.csv", "dogs", data=csv_of([HEADER, *ROWS]), source="Sheet")
    assert (run.summary["created"], run.summary["linked"]) == (CREATED, LINKED)
    assert (Dog.objects.count(), Person.objects.count(), Premises.objects.count()) == (4, 3, 3)
    jo = Person.objects.get(full_name="Jo Park")
    assert sorted(jo.dogs.values_list("name", flat=True)) == ["Max", "Rex"]
    assert _temporary_tables() == []


def test_a_sketch_that_says_every_key_may_be_there_finds_the_same(clerk, monkeypatch):
    """Every key marks the same bit: every key asked for is read from the table, and found only by its whole
    text (the first file's records found again by a second file, the second file's new ones created)."""
    monkeypatch.setattr(walk, "CHUNK", 2)
    monkeypatch.setattr(lookups, "_LOW", 0)
    imported(clerk, "dogs.csv", "dogs", data=csv_of([HEADER, *ROWS[:3]]), source="Sheet")
    run = imported(clerk, "more.csv", "dogs", data=csv_of([HEADER, *ROWS[3:]]), source="Sheet")
    assert run.summary["created"] == {"dog": 1} and run.summary["linked"] == LINKED
    assert (Dog.objects.count(), Person.objects.count(), Premises.objects.count()) == (4, 3, 3)


def test_the_rows_written_in_bulk_are_the_rows_given_and_each_statement_is_logged_with_its_values():
    """A statement of the bulk writers is rewritten for SQLite once and kept (dogcase.cases.bulk.rewrite_once):
    the statements of every size still write exactly the rows given, one after another with the same text, and
    Django's log of the statements still reads each one's own values."""
    from django.test.utils import CaptureQueriesContext

    from dogcase.cases import bulk
    from dogcase.cases.models import ChainHead

    sizes = (3, 3, 5, 200, 201)  # the same statement twice, then statements of other sizes
    batches = [[(f"test:{b}:{i}", b * 1000 + i, f"{b:064d}") for i in range(n)] for b, n in enumerate(sizes)]
    with CaptureQueriesContext(connection) as queries:
        for rows in batches:
            bulk.insert_rows(ChainHead, ("chain", "seq", "hash"), rows)
    written = set(ChainHead.objects.filter(chain__startswith="test:").values_list("chain", "seq", "hash"))
    assert written == {row for rows in batches for row in rows}
    logged = [q["sql"] for q in queries.captured_queries]
    per = bulk.MAX_PARAMETERS // 3
    assert len(logged) == sum(len(list(bulk._statements(len(rows), per))) for rows in batches)  # noqa: SLF001
    assert all(f"'{chain}'" in text for text in logged[-1:] for chain, _seq, _hash in batches[-1][-1:])
    assert all(f"'{chain}'" in " ".join(logged) for rows in batches for chain, _seq, _hash in rows)
    if connection.vendor == "sqlite":
        assert any("(?, ?, ?)" in text for text in bulk._QMARK.values())  # noqa: SLF001 - the rewriting kept

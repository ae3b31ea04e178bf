"""Search reads every large table through an index on PostgreSQL, whatever its statistics say (issue 24).

A surname in every other home makes reading a table from its start look cheap: the planner expects to meet
the first thousand matches soon, and to join a thousand ids to the whole table rather than look each one up.
The search is written so that it has no such choice (staff/search_index.py `matching` and `among`): the
text is a value the planner does not see (so no statistics say how common it is), the ids of the matches
come from one bounded query of the search index, and the rows are then read by their key. Here every
statement the search runs is explained after ANALYZE, with the statistics PostgreSQL gathers by default
and with statistics taken from a sample too small to say anything, for a user of two cities and of one: no
large table is read but by ids (its own, or a foreign key) or through its search index. No sequential scan,
no walk of a whole index, or of a city's rows, in the order of the page.
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases.models import Case, Dog, Incident, Ownership, Person, Premises
from dogcase.staff import search_index, searching
from tests.staff.conftest import BATTLE_LAKE, TRACY

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]

COMMON = 20_000  # people with the common surname, and as many others; a dog each, an incident each second dog
LARGE = {
    "cases_person",
    "cases_premises",
    "cases_dog",
    "cases_ownership",
    "cases_incident",
    "cases_incident_dogs",
    "cases_case",
}
# each a text found in very many rows of the tables it searches, and the lists it fills to the page
SEARCHES = {
    "smith": ("people", "dogs", "cases", "incidents"),  # a surname, a street, a dog's name, a place
    "s-0": ("cases", "incidents"),  # the start of every case's and incident's number
}


def make_records(officer) -> None:
    now = timezone.now()
    cities = (BATTLE_LAKE, TRACY)
    people, premises, dogs = [], [], []
    for i in range(2 * COMMON):
        common = i % 2 == 0
        city = cities[i % 4 // 2]
        people.append(
            Person(
                jurisdiction=city,
                full_name=f"Ann {'Smith' if common else 'Olsen'} {i}",
                street=f"{i} {'Smith' if common else 'Lake'} Street",
                phone=f"218-555-{i % 10000:04d}",
                postal_code="56515",
                created_at=now,
            )
        )
        premises.append(
            Premises(
                jurisdiction=city,
                street=f"{i} {'Smith' if common else 'Lake'} Street",
                city_name="Battle Lake",
                created_at=now,
            )
        )
    Person.objects.bulk_create(people, batch_size=5000)
    Premises.objects.bulk_create(premises, batch_size=5000)
    for i, (owner, home) in enumerate(zip(people, premises, strict=True)):
        dogs.append(
            Dog(
                jurisdiction=owner.jurisdiction,
                name="Smithy" if i % 2 == 0 else "Rex",
                breed="Beagle",
                microchip_number=f"985{i:012d}",
                licence_number=f"L-{i:07d}",
                premises=home,
                created_at=now,
            )
        )
    Dog.objects.bulk_create(dogs, batch_size=5000)
    Ownership.objects.bulk_create(
        [Ownership(dog=d, person=p) for d, p in zip(dogs, people, strict=True)], batch_size=5000
    )
    bitten = dogs[::2]
    incidents = Incident.objects.bulk_create(
        [
            Incident(
                jurisdiction=d.jurisdiction,
                number=f"IS-{i:06d}",
                occurred_at=now - dt.timedelta(minutes=i),
                place=f"{i} Smith Park",
                place_type="public",
                kind="bite",
                reported_by=officer,
                created_at=now,
            )
            for i, d in enumerate(bitten)
        ],
        batch_size=5000,
    )
    Incident.dogs.through.objects.bulk_create(
        [Incident.dogs.through(incident=inc, dog=d) for inc, d in zip(incidents, bitten, strict=True)],
        batch_size=5000,
    )
    Case.objects.bulk_create(
        [
            Case(
                jurisdiction=inc.jurisdiction,
                number=f"CS-{i:06d}",
                dog=d,
                incident=inc,
                opened_at=inc.occurred_at,
                updated_at=now,
                opened_by=officer,
            )
            for i, (inc, d) in enumerate(zip(incidents, bitten, strict=True))
        ],
        batch_size=5000,
    )


def starve_statistics() -> None:
    """Statistics from a sample of 300 rows (the least ANALYZE takes) for every column and search index of
    the large tables: they can no longer tell a common text from a rare one, nor how many rows share a key."""
    with connection.cursor() as cursor:
        # the foreign keys of the rows made above checked now (a table is not altered with checks pending)
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in sorted(LARGE):
            cursor.execute(
                "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
                "AND NOT attisdropped",
                [table],
            )
            for (column,) in cursor.fetchall():
                cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET STATISTICS 1')
        cursor.execute(
            "SELECT indexrelid::regclass::text, indnatts FROM pg_index "
            "WHERE indrelid = ANY(%s::regclass[]) AND indexprs IS NOT NULL",
            [sorted(LARGE)],
        )
        for index, columns in cursor.fetchall():
            for n in range(1, columns + 1):
                cursor.execute(f"ALTER INDEX {index} ALTER COLUMN {n} SET STATISTICS 1")


def analyze() -> None:
    with connection.cursor() as cursor:
        for table in sorted(LARGE):
            cursor.execute(f'ANALYZE "{table}"')


def nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def key_or_search_indexes() -> dict[str, str]:
    """The indexes of the large tables, and their tables."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexrelid::regclass::text, indrelid::regclass::text FROM pg_index "
            "WHERE indrelid = ANY(%s::regclass[])",
            [sorted(LARGE)],
        )
        return dict(cursor.fetchall())


def by_key_or_search(node: dict) -> bool:
    """An index read bounded by ids (the table's own, or a foreign key: "id = ...", "dog_id = ANY (...)") or
    by the search index: not a walk of a city's rows in the order of a page."""
    return node.get("Index Name", "").endswith("_trgm") or bool(
        re.search(r"\((\w+_)?id = ", node.get("Index Cond", ""))
    )


def unbounded_reads(sql: str) -> list[str]:
    """The plan's reads of a large table other than through its search index or by ids: a sequential scan,
    or a walk of an index by a condition that does not bound the rows read (a city, none)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
        (plan,) = cursor.fetchone()[0]
    indexes = key_or_search_indexes()
    found = []
    for node in nodes(plan["Plan"]):
        kind = node["Node Type"]
        table = node.get("Relation Name") or indexes.get(node.get("Index Name", ""))
        if table not in LARGE or kind == "Bitmap Heap Scan":  # a bitmap's index scans are checked themselves
            continue
        if kind not in ("Index Scan", "Index Only Scan", "Bitmap Index Scan") or not by_key_or_search(node):
            found.append(
                f"{kind} on {table} {node.get('Index Name', '')} {node.get('Index Cond', '')}".strip()
            )
    return found


def assert_reads_through_indexes(users, statistics: str) -> None:
    for user in users:
        for text, filled in SEARCHES.items():
            searching.search(user, text)  # the cities and the user's groups read once, as on a page
            with CaptureQueriesContext(connection) as ctx:
                results = searching.search(user, text)
            for name in filled:  # very many matches: each list full
                assert len(getattr(results, name)) == searching.SEARCH_LIMIT, (user.username, text, name)
            problems = {q["sql"]: reads for q in ctx.captured_queries if (reads := unbounded_reads(q["sql"]))}
            assert not problems, (
                f"search {text!r} by {user.username}, {statistics}: a large table read but by ids or its search "
                "index\n" + "\n\n".join(f"{reads}\n  in {sql}" for sql, reads in problems.items())
            )


def test_search_reads_every_large_table_through_an_index_whatever_the_statistics(officer, make_staff_user):
    make_records(officer)
    assert search_index.MATCH_LIMIT < COMMON  # the searches below find more than a search reads
    # both cities, and one (a city's condition could then be met by walking its rows in the order shown)
    users = [
        officer,
        make_staff_user("animal_control_officer", username="battle-lake-only", cities=[BATTLE_LAKE]),
    ]

    analyze()
    assert_reads_through_indexes(users, "statistics as ANALYZE gathers them")

    starve_statistics()
    analyze()
    assert_reads_through_indexes(users, "statistics from 300 rows")

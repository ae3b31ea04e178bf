"""Search reads each table's search index once (staff/search_index.py `matched_fields`): the narrower field
sets some lists search (a person's name, a dog's names and numbers, a dog's name, an incident's number) are
taken from the rows the match of all the fields read, and are exactly the ids a match of those fields alone
reads, at most MATCH_LIMIT of them; each list is then one query of the first rows of each way it is found
(`first_of`), the same rows as a query of each way."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases.models import Dog, Ownership, Person, Premises
from dogcase.staff import search_index, searching
from tests.staff.conftest import BATTLE_LAKE, TRACY, record_bite

pytestmark = pytest.mark.django_db


def people(*names_and_streets: tuple[str, str], city: str = BATTLE_LAKE) -> list[Person]:
    now = timezone.now()
    return Person.objects.bulk_create(
        [Person(jurisdiction=city, full_name=n, street=s, created_at=now) for n, s in names_and_streets]
    )


def narrower_as_alone(model, text, cities, narrower, *, statements: int | None = None) -> list[list[int]]:
    """`matched_fields` gives, for all the fields and each narrower set, the ids `matched` reads of them (on
    PostgreSQL in `statements` statements)."""
    with CaptureQueriesContext(connection) as ctx:
        found = search_index.matched_fields(model, text, cities, narrower)
    if statements is not None and connection.vendor == "postgresql":
        assert len(ctx.captured_queries) == statements
    expected = [search_index.matched(model, text, cities)] + [
        search_index.matched(model, text, cities, fields) for fields in narrower
    ]
    assert [sorted(ids) for ids in found] == [sorted(ids) for ids in expected]
    return found


def test_the_narrower_matches_are_those_the_fields_alone_give_below_the_limit():
    made = people(("Ann Smith", "1 Lake St"), ("Bo Olsen", "2 Smith St"), ("Cy Smithers", "3 Elm St"))
    people(("Di Smith", "4 Lake St"), city=TRACY)
    everything, named = narrower_as_alone(Person, "smith", [BATTLE_LAKE], (("full_name",),), statements=1)
    assert sorted(everything) == sorted(p.pk for p in made)
    assert sorted(named) == [made[0].pk, made[2].pk]


@pytest.fixture
def in_table_order():
    """PostgreSQL reads the matches in the table's order, as through a search index (a bitmap): a table of a
    few rows and no statistics would be read in the order of a city's names."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET enable_indexscan = off")
    yield
    with connection.cursor() as cursor:
        cursor.execute("RESET enable_indexscan")


def test_past_the_limit_the_names_read_are_the_first_names_whatever_the_other_fields_hold(
    monkeypatch, in_table_order
):
    """More matches than a search reads: the names are the first MATCH_LIMIT names in the table, as a match
    of the names alone reads them, whether the first matches read are all names or some are streets."""
    monkeypatch.setattr(search_index, "MATCH_LIMIT", 3)
    # names first, then streets: the first three read are names
    people(*[(f"Ann Smith {i}", f"{i} Lake St") for i in range(5)], *[("Bo Olsen", "9 Smith St")] * 3)
    narrower_as_alone(Person, "smith", [BATTLE_LAKE], (("full_name",),), statements=1)
    # then streets among the first read: the names matched on their own
    Person.objects.all().delete()
    people(
        *[pair for i in range(5) for pair in ((f"Bo Olsen {i}", f"{i} Smith St"), (f"Ann Smith {i}", "Lake"))]
    )
    everything, named = narrower_as_alone(Person, "smith", [BATTLE_LAKE], (("full_name",),), statements=2)
    assert len(everything) == len(named) == 3
    assert all("Smith" in p.full_name for p in Person.objects.filter(pk__in=named))


def test_a_narrower_set_of_several_fields_and_none(monkeypatch, in_table_order):
    monkeypatch.setattr(search_index, "MATCH_LIMIT", 4)
    now = timezone.now()
    Dog.objects.bulk_create(
        [
            Dog(jurisdiction=BATTLE_LAKE, name=name, breed=breed, licence_number=licence, created_at=now)
            for name, breed, licence in [
                ("Rex", "Rexford hound", ""),
                ("Max", "Beagle", "REX-1"),
                ("Rexy", "Beagle", ""),
                ("Bo", "Rex terrier", ""),
                ("T-Rex", "Pug", "L-2"),
                ("Fido", "Rex cross", ""),
            ]
        ]
    )
    narrower_as_alone(Dog, "rex", [BATTLE_LAKE], (("name", "microchip_number", "licence_number"), ("name",)))
    assert search_index.matched_fields(Dog, "rex", [], (("name",),)) == [[], []]  # no cities: nothing read


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's search indexes")
def test_each_table_is_matched_by_one_statement_of_a_search(officer):
    """A text in names, streets and dogs' names: each table's fields matched (LIKE, which its search index
    serves: tests/staff/test_search_plans.py) once, whatever its lists search; all in one statement."""
    record_bite(officer, dog_name="Smithy", owner_name="Ann Smith")
    people(("Bo Olsen", "2 Smith St"), ("Cy Smith", "3 Elm St"))
    searching.search(officer, "smith")
    with CaptureQueriesContext(connection) as ctx:
        searching.search(officer, "smith")
    matched = [
        table
        for q in ctx.captured_queries
        if " LIKE " in q["sql"]
        for table in re.findall(r'FROM "(cases_\w+)"', q["sql"])
    ]
    assert sorted(matched) == sorted(search_index.SEARCHED)
    assert sum(" LIKE " in q["sql"] for q in ctx.captured_queries) == 1


def test_a_list_is_the_first_rows_of_all_the_ways_it_is_found(officer):
    """More dogs than a list shows, found by their name, their owner's name and where they are kept: the
    first SEARCH_LIMIT of all of them by name, each once."""
    now = timezone.now()
    owner, other = people(("Ann Pike", "1 Lake St"), ("Bo Olsen", "2 Lake St"))
    home = Premises.objects.create(
        jurisdiction=BATTLE_LAKE, street="5 Pike Road", city_name="X", created_at=now
    )
    dogs = Dog.objects.bulk_create(
        [
            Dog(
                jurisdiction=BATTLE_LAKE,
                name=f"{i:02d} {'Pike' if i % 3 == 0 else 'Dog'}",
                premises=home if i % 3 == 1 else None,
                created_at=now,
            )
            for i in range(3 * searching.SEARCH_LIMIT + 3)  # more than a list shows found each way
        ]
    )
    Ownership.objects.bulk_create(
        [Ownership(dog=d, person=owner if i % 3 == 2 or i == 0 else other) for i, d in enumerate(dogs)]
    )
    results = searching.search(officer, "pike")
    expected = sorted(dogs, key=lambda d: (d.name.casefold(), d.pk))[: searching.SEARCH_LIMIT]
    assert [d.pk for d in results.dogs] == [d.pk for d in expected]
    assert [p.pk for p in results.people] == [owner.pk]

"""Search of the staff pages: dogs, people, incidents and cases of the user's cities by a piece of text, each
list through the search index (staff/search_index.py) in a fixed number of queries whatever the number of
records; and the people of a city by name, for choosing an owner."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import prefetch_related_objects

from dogcase.cases.access import cities_of
from dogcase.cases.models import Case, Dog, Incident, Person, Premises
from dogcase.staff import search_index
from dogcase.staff.queries import dogs_by_name, owners_prefetch

SEARCH_LIMIT = 25


@dataclass
class SearchResults:
    query: str
    cases: list[Case] = field(default_factory=list)
    dogs: list[Dog] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    incidents: list[Incident] = field(default_factory=list)
    too_short: bool = False

    @property
    def count(self) -> int:
        return len(self.cases) + len(self.dogs) + len(self.people) + len(self.incidents)

    @property
    def is_capped(self) -> bool:
        return SEARCH_LIMIT in (len(self.cases), len(self.dogs), len(self.people), len(self.incidents))


def _first(rows, key, limit: int = SEARCH_LIMIT) -> list:
    """The first `limit` of `rows` in the order `key`."""
    return sorted(rows, key=key)[:limit]


def search(user, query: str) -> SearchResults:
    """Dogs, people, incidents and cases of the user's cities with the text in a name, number, microchip,
    licence, breed, phone, e-mail or address, each found through the search index (staff/search_index.py):
    a fixed number of queries whatever the number of records, each term reading at most MATCH_LIMIT matches.

    First each table's search index is read once (`search_index.matched_tables`: at most MATCH_LIMIT ids
    of the matches of all its fields, and among them those of the narrower fields some lists search: a
    person's name, a dog's names and numbers, a dog's name, an incident's number). Then each list is one
    query: its rows by their key (`search_index.among`), the ids those of the first SEARCH_LIMIT rows of each
    way they are found (`search_index.first_of`: by their own ids, their dog's, their owners', where they are
    kept...), read with the rows joined to them, sorted here, and the first SEARCH_LIMIT kept. Whatever the
    database's statistics say, no step reads a table but through an index (tests/staff/test_search_plans.py):
    a surname in every tenth home costs what a rare one does."""
    query = " ".join(query.split())[:100]
    results = SearchResults(query)
    if len(query) < search_index.MIN_LENGTH:
        results.too_short = bool(query)
        return results
    cities = cities_of(user)

    # each table's search index read once: the ids of the matches of all its fields, and of the narrower
    # fields that some lists search (a person's name, a dog's names and numbers, a dog's name, an incident's
    # number) taken from the same rows (search_index.matched_tables), all the tables in one statement
    (
        (people_found, named),
        (dogs_found, dogs_identified, dogs_named),
        (premises_found,),
        (cases_found,),
        (
            incidents_found,
            incidents_numbered,
        ),
    ) = search_index.matched_tables(
        query,
        cities,
        [
            (Person, (("full_name",),)),
            (Dog, (("name", "microchip_number", "licence_number"), ("name",))),
            (Premises, ()),
            (Case, ()),
            (Incident, (("number",),)),
        ],
    )
    # the dogs of the people with the text in their name, for the dogs and the cases
    owned = search_index.Through("cases_ownership", "dog_id", "person_id", named)
    first_of = search_index.first_of

    people = Person.objects.filter(search_index.among("pk", people_found)).order_by("full_name", "id")
    results.people = list(people[:SEARCH_LIMIT])
    # each list in one query: its rows found by the ids of the first SEARCH_LIMIT rows of each way they are
    # found (search_index.first_of: each way through its own index), then sorted here
    found = first_of(
        Dog,
        cities,
        '"name", "id"',
        [("id", dogs_found), ("id", owned), ("premises_id", premises_found)],
        SEARCH_LIMIT,
    )
    results.dogs = _first(
        Dog.objects.filter(found).select_related("premises") if found else [],
        lambda d: (d.name.casefold(), d.pk),
    )
    prefetch_related_objects(results.dogs, owners_prefetch())
    # each way a case is found read on its own, through its index (a case by its dog's id, by its incident's),
    # the newest first: one condition OR-ing them made the database walk every case in date order
    found = first_of(
        Case,
        cities,
        '"opened_at" DESC, "id" DESC',
        [
            ("id", cases_found),
            ("dog_id", dogs_identified),
            ("dog_id", owned),
            ("incident_id", incidents_numbered),
        ],
        SEARCH_LIMIT,
    )
    results.cases = _first(
        Case.objects.filter(found).select_related("dog") if found else [],
        lambda c: (-c.opened_at.timestamp(), -c.pk),
    )
    in_incidents = search_index.Through("cases_incident_dogs", "incident_id", "dog_id", dogs_named)
    found = first_of(
        Incident,
        cities,
        '"occurred_at" DESC, "id" DESC',
        [("id", incidents_found), ("id", in_incidents)],
        SEARCH_LIMIT,
    )
    results.incidents = _first(
        Incident.objects.filter(found) if found else [], lambda i: (-i.occurred_at.timestamp(), -i.pk)
    )
    prefetch_related_objects(results.incidents, dogs_by_name())
    return results


def people_named(jurisdiction: str, query: str, *, exclude=(), limit: int = SEARCH_LIMIT) -> list[Person]:
    """People of one city whose name contains the query (for choosing an owner)."""
    query = " ".join(query.split())[:100]
    if len(query) < 2:
        return []
    return list(
        Person.objects.filter(jurisdiction=jurisdiction, full_name__icontains=query)
        .exclude(pk__in=list(exclude))
        .order_by("full_name", "id")[:limit]
    )

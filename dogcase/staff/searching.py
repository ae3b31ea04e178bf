"""Search of the staff pages: dogs, people, incidents and cases of the user's cities by a piece of text, each
list through the search index (staff/search_index.py) in a fixed number of queries whatever the number of
records; and the people of a city by name, for choosing an owner."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import prefetch_related_objects

from dogcase.cases.access import cities_of
from dogcase.cases.models import Case, Dog, Incident, Ownership, Person, Premises
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


def _first(querysets, key, limit: int = SEARCH_LIMIT) -> list:
    """The first `limit` distinct rows of several searches (each limited itself), in the order `key`."""
    seen: dict[int, object] = {}
    for qs in querysets:
        for row in qs[:limit]:
            seen.setdefault(row.pk, row)
    return sorted(seen.values(), key=key)[:limit]


def search(user, query: str) -> SearchResults:
    """Dogs, people, incidents and cases of the user's cities with the text in a name, number, microchip,
    licence, breed, phone, e-mail or address, each found through the search index (staff/search_index.py):
    a fixed number of queries whatever the number of records, each term reading at most MATCH_LIMIT matches.

    Each list is one query in steps: the ids of the matches (`search_index.matching`: at most MATCH_LIMIT,
    through the search index), then those rows by their key (`search_index.among`), sorted, and the first
    SEARCH_LIMIT of them read with the rows joined to them (`shown`); the owners' names, which the dogs and
    the cases both search, are matched once beforehand (`search_index.matched`). Whatever the database's
    statistics say, no step reads a table but through an index (tests/staff/test_search_plans.py): a surname
    in every tenth home costs what a rare one does."""
    query = " ".join(query.split())[:100]
    results = SearchResults(query)
    if len(query) < search_index.MIN_LENGTH:
        results.too_short = bool(query)
        return results
    cities = cities_of(user)
    q = query
    among = search_index.among

    def match(model, fields=None):
        return search_index.matching(model, q, cities, fields)

    def shown(qs, condition):
        """The rows of `qs` (ordered) that meet `condition`, as many as a list shows: their ids chosen first
        from their own table, then only those rows read with the rows `qs` joins to them (select_related),
        not every candidate's."""
        return qs.filter(among("pk", qs.select_related(None).filter(condition).values("pk")[:SEARCH_LIMIT]))

    # the dogs of the people with the text in their name: the names matched once, for the dogs and the cases
    named = search_index.matched(Person, q, cities, ("full_name",))
    owners_named = Ownership.objects.filter(among("person_id", named)).values("dog_id")
    by_name = (lambda d: (d.name.casefold(), d.pk), lambda p: (p.full_name.casefold(), p.pk))

    people = Person.objects.filter(among("pk", match(Person))).order_by("full_name", "id")
    results.people = list(people[:SEARCH_LIMIT])
    dogs = Dog.objects.filter(jurisdiction__in=cities).select_related("premises").order_by("name", "id")
    results.dogs = _first(
        [
            shown(dogs, among("pk", match(Dog))),
            shown(dogs, among("pk", owners_named)),
            shown(dogs, among("premises_id", match(Premises))),
        ],
        key=by_name[0],
    )
    prefetch_related_objects(results.dogs, owners_prefetch())
    # each way a case is found read on its own, through its index (a case by its dog's id, by its incident's),
    # the newest first: one condition OR-ing them made the database walk every case in date order
    cases = Case.objects.filter(jurisdiction__in=cities).select_related("dog").order_by("-opened_at", "-id")
    results.cases = _first(
        [
            shown(cases, among("pk", match(Case))),
            shown(cases, among("dog_id", match(Dog, ("name", "microchip_number", "licence_number")))),
            shown(cases, among("dog_id", owners_named)),
            shown(cases, among("incident_id", match(Incident, ("number",)))),
        ],
        key=lambda c: (-c.opened_at.timestamp(), -c.pk),
    )
    incidents = Incident.objects.filter(jurisdiction__in=cities).order_by("-occurred_at", "-id")
    dogs_in_incidents = Incident.dogs.through.objects.filter(among("dog_id", match(Dog, ("name",))))
    results.incidents = _first(
        [
            incidents.filter(among("pk", match(Incident))),
            incidents.filter(among("pk", dogs_in_incidents.values("incident_id"))),
        ],
        key=lambda i: (-i.occurred_at.timestamp(), -i.pk),
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

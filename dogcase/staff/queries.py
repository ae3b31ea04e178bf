"""Read-only queries of the staff pages. Each runs a fixed number of SQL queries whatever the number of rows
(select_related / prefetch_related), and every one is scoped to the user's cities."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import (
    BooleanField,
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    prefetch_related_objects,
)
from django.db.models.expressions import RawSQL

from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.models import (
    Case,
    Dog,
    Event,
    Incident,
    Obligation,
    Ownership,
    Person,
    Premises,
    Task,
    Victim,
)
from dogcase.staff import search_index
from dogcase.staff.guards import in_cities

# Staff who oversee everything of their cities see every item on the dashboard, not only those their role
# can meet.
SEES_ALL = frozenset({"administrator", "auditor"})
ACTIVE = ("open", "overdue")


def role_filter(user) -> Q | None:
    """Rows whose `staff_roles` (",role,role,") names one of the user's roles; None when the user sees all."""
    roles = staff_roles(user)
    if roles & SEES_ALL:
        return None
    q = Q(pk__in=[])
    for role in sorted(roles):
        q |= Q(staff_roles__contains=f",{role},")
    return q


DASHBOARD_PAGE = 10  # rows of each dashboard list shown at once, most urgent first

# The dashboard's lists, in the order shown: id, title, and what is shown when it is empty.
SECTIONS = (
    ("overdue", "Overdue", "Nothing is overdue."),
    ("today", "Due today", "Nothing is due today."),
    ("week", "Due in the next 7 days", "Nothing else is due this week."),
    ("owner", "Waiting on the owner", "No owner has anything open."),
)
SECTION_IDS = tuple(s[0] for s in SECTIONS) + ("tasks",)


@dataclass
class Dashboard:
    counts: dict[str, int] = field(default_factory=dict)
    # the first page (or the page asked for) of each list
    rows: dict[str, list] = field(default_factory=dict)


def _overdue(today: dt.date, now: dt.datetime) -> Q:
    """What the sweep has marked overdue, and a due date (or instant) already past that it has not yet seen."""
    past = Q(due_at__isnull=False, due_at__lt=now) | Q(due_at__isnull=True, due_date__lt=today)
    return Q(status="overdue") | (Q(kind="due") & past)


def _section_filters(user, today: dt.date, now: dt.datetime) -> dict[str, Q]:
    """Each obligation list of the dashboard as a condition over the user's active obligations: the city's
    obligations that the user's role can meet (all of them for those who oversee everything) and the owners'."""
    city = Q(who=Obligation.Who.CITY)
    rf = role_filter(user)
    if rf is not None:
        city &= rf
    owner = Q(who=Obligation.Who.OWNER)
    overdue = _overdue(today, now)
    week_end = today + dt.timedelta(days=7)
    return {
        "overdue": (city | owner) & overdue,
        "today": city & ~overdue & Q(due_date=today),
        "week": city & ~overdue & Q(due_date__gt=today, due_date__lte=week_end),
        "owner": owner & ~overdue,
    }


def _active_obligations(user) -> QuerySet[Obligation]:
    # The status condition is written as the partial index `obligation_active_due` (search_index.py) is, with
    # its values in the SQL, not as parameters: SQLite uses a partial index only for a condition it can
    # compare with the index's own.
    active = RawSQL(search_index.ACTIVE_OBLIGATION, [], output_field=BooleanField())  # noqa: S611 - our SQL
    # of an open case: each row's case looked up (EXISTS), not a join that SQLite would read case by case
    open_case = Exists(Case.objects.filter(pk=OuterRef("case_id"), status=Case.Status.OPEN))
    return Obligation.objects.filter(Q(active), open_case, jurisdiction__in=cities_of(user))


def _open_tasks(user) -> QuerySet[Task]:
    tasks = Task.objects.filter(jurisdiction__in=cities_of(user), done_at__isnull=True)
    rf = role_filter(user)
    return tasks if rf is None else tasks.filter(rf)


def _section_rows(user, section: str, filters: dict[str, Q], *, offset: int, size: int) -> list:
    if section == "tasks":
        qs = _open_tasks(user).select_related("case", "case__dog").order_by("created_at", "id")
    else:
        qs = (
            _active_obligations(user)
            .filter(filters[section])
            .select_related("case", "case__dog")
            .order_by("due_date", "due_at", "id")  # the order of the index obligation_active_due
        )
    return list(qs[offset : offset + size])


COUNT_CAP = 1000  # a list's count stops here ("more than 1,000"): a count costs the same in any city


def _count(user, section: str, filters: dict[str, Q]) -> int:
    """How many items a list holds, up to COUNT_CAP + 1: a count that reads at most that many rows."""
    if section == "tasks":
        qs = _open_tasks(user)
    else:
        qs = _active_obligations(user).filter(filters[section])
    return qs.order_by().values("pk")[: COUNT_CAP + 1].count()


def count_words(n: int) -> str:
    return f"more than {COUNT_CAP:,}" if n > COUNT_CAP else f"{n:,}"


def dashboard(user, *, today: dt.date, now: dt.datetime, size: int = DASHBOARD_PAGE) -> Dashboard:
    """How many items each list of the dashboard holds (up to COUNT_CAP) and its first `size` rows, most
    urgent first (the earliest due first; tasks oldest first): ten queries whatever the number of
    obligations, each reading through an index (obligation_active_due, task_open_created)."""
    filters = _section_filters(user, today, now)
    board = Dashboard()
    for sid in SECTION_IDS:
        board.counts[sid] = _count(user, sid, filters)
        board.rows[sid] = _section_rows(user, sid, filters, offset=0, size=size)
    return board


def dashboard_section(user, section: str, *, today: dt.date, now: dt.datetime, page: int, size: int):
    """One page of one of the dashboard's lists, and the list's count: two queries."""
    filters = _section_filters(user, today, now)
    count = _count(user, section, filters)
    pages = max(1, -(-min(count, COUNT_CAP) // size))
    page = min(max(page, 1), pages)
    rows = _section_rows(user, section, filters, offset=(page - 1) * size, size=size)
    return count, page, pages, rows


# ------------------------------------------------------------------------------------------------ search

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


def _owners_prefetch() -> Prefetch:
    return Prefetch("owners", queryset=Person.objects.order_by("full_name", "id"))


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
    a fixed number of queries whatever the number of records, each term reading at most MATCH_LIMIT matches."""
    query = " ".join(query.split())[:100]
    results = SearchResults(query)
    if len(query) < search_index.MIN_LENGTH:
        results.too_short = bool(query)
        return results
    cities = cities_of(user)
    q = query

    def match(model, fields=None):
        return search_index.matches(model, q, cities, fields)

    owners_named = Ownership.objects.filter(
        person__in=Person.objects.filter(match(Person, ("full_name",)))
    ).values("dog_id")
    by_name = (lambda d: (d.name.casefold(), d.pk), lambda p: (p.full_name.casefold(), p.pk))

    results.people = list(Person.objects.filter(match(Person)).order_by("full_name", "id")[:SEARCH_LIMIT])
    dogs = Dog.objects.filter(jurisdiction__in=cities).select_related("premises").order_by("name", "id")
    results.dogs = _first(
        [
            dogs.filter(match(Dog)),
            dogs.filter(pk__in=owners_named),
            dogs.filter(premises__in=Premises.objects.filter(match(Premises))),
        ],
        key=by_name[0],
    )
    prefetch_related_objects(results.dogs, _owners_prefetch())
    dogs_named = Dog.objects.filter(match(Dog, ("name", "microchip_number", "licence_number")))
    results.cases = list(
        Case.objects.filter(jurisdiction__in=cities)
        .filter(
            match(Case)
            | Q(dog__in=dogs_named)
            | Q(dog__in=owners_named)
            | Q(incident__in=Incident.objects.filter(match(Incident, ("number",))))
        )
        .select_related("dog")
        .order_by("-opened_at", "-id")[:SEARCH_LIMIT]
    )
    incidents = Incident.objects.filter(jurisdiction__in=cities).order_by("-occurred_at", "-id")
    results.incidents = _first(
        [
            incidents.filter(match(Incident)),
            incidents.filter(
                pk__in=Incident.dogs.through.objects.filter(
                    dog__in=Dog.objects.filter(match(Dog, ("name",)))
                ).values("incident_id")
            ),
        ],
        key=lambda i: (-i.occurred_at.timestamp(), -i.pk),
    )
    prefetch_related_objects(results.incidents, Prefetch("dogs", queryset=Dog.objects.order_by("name", "id")))
    return results


# ------------------------------------------------------------------------------------------------- lists
# Each list is read a page at a time after a position (staff/keyset.py): the order below is the order of an
# index (cases/models.py), so that the first and the thousandth page cost the same.

CASE_ORDER = ("-opened_at", "-id")
DOG_ORDER = ("name", "id")
PERSON_ORDER = ("full_name", "id")
INCIDENT_ORDER = ("-occurred_at", "-id")


def cases(user, *, status: str = "", designation: str = "", city: str = "") -> QuerySet[Case]:
    qs = (
        Case.objects.filter(jurisdiction__in=cities_of(user))
        .select_related("dog", "incident")
        .prefetch_related(Prefetch("dog__owners", queryset=Person.objects.order_by("full_name", "id")))
    )
    if status:
        qs = qs.filter(status=status)
    if designation == "none":
        qs = qs.filter(designation="")
    elif designation:
        qs = qs.filter(designation=designation)
    if city:
        qs = qs.filter(jurisdiction=city)
    return qs.order_by(*CASE_ORDER)


def dogs(user) -> QuerySet[Dog]:
    return (
        Dog.objects.filter(jurisdiction__in=cities_of(user))
        .select_related("premises")
        .prefetch_related(_owners_prefetch())
        .order_by(*DOG_ORDER)
    )


def case_counts(dogs_shown) -> None:
    """Set `case_count` on each dog of a page: one query over the page's dogs, not a count over every dog."""
    ids = [d.pk for d in dogs_shown]
    counts = dict(
        Case.objects.filter(dog_id__in=ids)
        .values("dog_id")
        .annotate(n=Count("id"))
        .values_list("dog_id", "n")
    )
    for d in dogs_shown:
        d.case_count = counts.get(d.pk, 0)


def people(user) -> QuerySet[Person]:
    return (
        Person.objects.filter(jurisdiction__in=cities_of(user))
        .prefetch_related(Prefetch("dogs", queryset=Dog.objects.order_by("name", "id")))
        .order_by(*PERSON_ORDER)
    )


def incidents(user) -> QuerySet[Incident]:
    return (
        Incident.objects.filter(jurisdiction__in=cities_of(user))
        .prefetch_related(Prefetch("dogs", queryset=Dog.objects.order_by("name", "id")))
        .order_by(*INCIDENT_ORDER)
    )


def victim_counts(incidents_shown) -> None:
    """Set `victim_count` on each incident of a page: one query over the page's incidents."""
    ids = [i.pk for i in incidents_shown]
    counts = dict(
        Victim.objects.filter(incident_id__in=ids)
        .values("incident_id")
        .annotate(n=Count("id"))
        .values_list("incident_id", "n")
    )
    for i in incidents_shown:
        i.victim_count = counts.get(i.pk, 0)


def dog_detail(user, pk: int) -> Dog:
    return in_cities(Dog.objects.select_related("premises", "premises__landlord", "photo"), user, pk=pk)


def ownerships_of(dog: Dog) -> list[Ownership]:
    return list(dog.ownerships.select_related("person").order_by("since", "id"))


def case_events(case: Case) -> list[Event]:
    return list(case.events.select_related("corrects").order_by("seq"))


def replayed_event(key: str) -> Event | None:
    """The event a form token already produced (a double submission), if any."""
    if not key:
        return None
    return Event.objects.filter(idempotency_key=key).first()


# ------------------------------------------------------------------------------------ history of a record

DOG_ACTS = ("record_dog", "update_dog")
OWNER_ACTS = ("add_owner", "end_ownership")
PRIOR_ACTS = ("record_prior_history",)
PERSON_ACTS = ("record_person", "update_person")
PREMISES_ACTS = ("record_premises", "update_premises")


HISTORY_PAGE = 50


@dataclass
class History:
    """A page of a record's history: up to HISTORY_PAGE events before a position (the latest when none),
    oldest first; `earlier` is the position of the page before it, if there are older events."""

    events: list[Event]
    names: dict
    earlier: int | None = None
    is_latest: bool = True


def _history(
    terms: list[Q], jurisdiction: str, before: int | None, *, names_key: str, names_model
) -> History:
    # Each term of `q` names the record in `data` (an expression index on data 'id', 'dog', 'person':
    # search_index.names) and carries every other condition itself, so that SQLite reads each term through
    # its index (a condition outside the OR would make it scan); "seq + 0": not by walking the seq index.
    each = Q(jurisdiction=jurisdiction) & (Q(seq__lt=before) if before is not None else Q())
    q = Q(pk__in=[])
    for term in terms:
        q |= term & each
    qs = Event.objects.filter(q)
    events = list(qs.order_by((F("seq") + 0).desc())[: HISTORY_PAGE + 1])
    more = len(events) > HISTORY_PAGE
    events = events[:HISTORY_PAGE][::-1]
    ids = {e.data.get(names_key) for e in events if e.act in OWNER_ACTS} - {None}
    return History(
        events=events,
        names=names_model.objects.in_bulk(ids) if ids else {},
        earlier=events[0].seq if more and events else None,
        is_latest=before is None,
    )


def dog_history(dog: Dog, *, before: int | None = None) -> History:
    """The events that created or changed the dog, its owners and its premises (the latest page, oldest
    first), and the people they name. Two queries whatever the number of events."""
    names = search_index.names
    terms = [
        Q(names("id", dog.pk), act__in=DOG_ACTS),
        Q(names("dog", dog.pk), act__in=OWNER_ACTS + PRIOR_ACTS),
    ]
    if dog.premises_id:
        terms.append(Q(names("id", dog.premises_id), act__in=PREMISES_ACTS))
    return _history(terms, dog.jurisdiction, before, names_key="person", names_model=Person)


def person_history(person: Person, *, before: int | None = None) -> History:
    """The events that created or changed the person and their ownerships (the latest page, oldest first),
    and the dogs they name. Two queries whatever the number of events."""
    names = search_index.names
    terms = [
        Q(names("id", person.pk), act__in=PERSON_ACTS),
        Q(names("person", person.pk), act__in=OWNER_ACTS),
    ]
    return _history(terms, person.jurisdiction, before, names_key="dog", names_model=Dog)


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

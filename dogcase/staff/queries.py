"""Read-only queries of the staff pages. Each runs a fixed number of SQL queries whatever the number of rows
(select_related / prefetch_related), and every one is scoped to the user's cities."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q, QuerySet

from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.models import Case, Dog, Event, Incident, Obligation, Ownership, Person, Task
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


@dataclass
class Dashboard:
    overdue: list[Obligation] = field(default_factory=list)
    due_today: list[Obligation] = field(default_factory=list)
    due_this_week: list[Obligation] = field(default_factory=list)
    waiting_on_owner: list[Obligation] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)


def _is_overdue(ob: Obligation, today: dt.date, now: dt.datetime) -> bool:
    if ob.status == "overdue":
        return True
    if ob.kind != "due":
        return False
    if ob.due_at is not None:
        return ob.due_at < now
    return ob.due_date is not None and ob.due_date < today


def dashboard(user, *, today: dt.date, now: dt.datetime) -> Dashboard:
    """Three queries: the city's obligations the user can meet, the owners' open obligations, open tasks."""
    cities = cities_of(user)
    base = Obligation.objects.filter(
        jurisdiction__in=cities, status__in=ACTIVE, case__status=Case.Status.OPEN
    ).select_related("case", "case__dog")
    city = base.filter(who=Obligation.Who.CITY)
    rf = role_filter(user)
    if rf is not None:
        city = city.filter(rf)
    week_end = today + dt.timedelta(days=7)
    board = Dashboard()
    for ob in city.order_by("due_date", "due_at", "id"):
        if _is_overdue(ob, today, now):
            board.overdue.append(ob)
        elif ob.due_date == today:
            board.due_today.append(ob)
        elif ob.due_date is not None and today < ob.due_date <= week_end:
            board.due_this_week.append(ob)
    for ob in base.filter(who=Obligation.Who.OWNER).order_by("due_date", "due_at", "id"):
        if _is_overdue(ob, today, now):
            board.overdue.append(ob)
        else:
            board.waiting_on_owner.append(ob)
    board.overdue.sort(key=lambda o: (o.due_date or dt.date.max, o.pk))
    tasks = Task.objects.filter(jurisdiction__in=cities, done_at__isnull=True).select_related(
        "case", "case__dog", "obligation"
    )
    if rf is not None:
        tasks = tasks.filter(rf)
    board.tasks = list(tasks.order_by("created_at", "id"))
    return board


# ------------------------------------------------------------------------------------------------ search

SEARCH_LIMIT = 25


@dataclass
class SearchResults:
    query: str
    cases: list[Case] = field(default_factory=list)
    dogs: list[Dog] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    incidents: list[Incident] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.cases) + len(self.dogs) + len(self.people) + len(self.incidents)


def _owners_prefetch() -> Prefetch:
    return Prefetch("owners", queryset=Person.objects.order_by("full_name", "id"))


def search(user, query: str) -> SearchResults:
    """Dogs, people, incidents and cases of the user's cities matching a name, number, microchip, licence,
    phone or address."""
    query = " ".join(query.split())[:100]
    results = SearchResults(query)
    if len(query) < 2:
        return results
    cities = cities_of(user)
    q = query
    results.cases = list(
        Case.objects.filter(jurisdiction__in=cities)
        .filter(
            Q(number__icontains=q)
            | Q(dog__name__icontains=q)
            | Q(dog__microchip_number__icontains=q)
            | Q(dog__licence_number__icontains=q)
            | Q(incident__number__icontains=q)
            | Q(dog__owners__full_name__icontains=q)
        )
        .select_related("dog")
        .distinct()[:SEARCH_LIMIT]
    )
    results.dogs = list(
        Dog.objects.filter(jurisdiction__in=cities)
        .filter(
            Q(name__icontains=q)
            | Q(microchip_number__icontains=q)
            | Q(licence_number__icontains=q)
            | Q(breed__icontains=q)
            | Q(premises__street__icontains=q)
            | Q(owners__full_name__icontains=q)
        )
        .select_related("premises")
        .prefetch_related(_owners_prefetch())
        .distinct()[:SEARCH_LIMIT]
    )
    results.people = list(
        Person.objects.filter(jurisdiction__in=cities)
        .filter(
            Q(full_name__icontains=q)
            | Q(street__icontains=q)
            | Q(phone__icontains=q)
            | Q(email__icontains=q)
            | Q(postal_code__icontains=q)
        )
        .distinct()[:SEARCH_LIMIT]
    )
    results.incidents = list(
        Incident.objects.filter(jurisdiction__in=cities)
        .filter(Q(number__icontains=q) | Q(place__icontains=q) | Q(dogs__name__icontains=q))
        .prefetch_related("dogs")
        .distinct()[:SEARCH_LIMIT]
    )
    return results


# ------------------------------------------------------------------------------------------------- lists


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
    return qs.order_by("-opened_at", "-id")


def dogs(user) -> QuerySet[Dog]:
    return (
        Dog.objects.filter(jurisdiction__in=cities_of(user))
        .select_related("premises")
        .prefetch_related(_owners_prefetch())
        .annotate(case_count=Count("cases", distinct=True))
        .order_by("name", "id")
    )


def people(user) -> QuerySet[Person]:
    return (
        Person.objects.filter(jurisdiction__in=cities_of(user))
        .prefetch_related(Prefetch("dogs", queryset=Dog.objects.order_by("name", "id")))
        .order_by("full_name", "id")
    )


def incidents(user) -> QuerySet[Incident]:
    return (
        Incident.objects.filter(jurisdiction__in=cities_of(user))
        .prefetch_related(Prefetch("dogs", queryset=Dog.objects.order_by("name", "id")))
        .annotate(victim_count=Count("victims", distinct=True))
        .order_by("-occurred_at", "-id")
    )


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


def dog_history(dog: Dog) -> tuple[list[Event], dict[int, Person]]:
    """The events that created or changed the dog, its owners and its premises (oldest first), and the people
    they name. Two queries whatever the number of events."""
    q = Q(act__in=DOG_ACTS, data__id=dog.pk) | Q(act__in=OWNER_ACTS + PRIOR_ACTS, data__dog=dog.pk)
    if dog.premises_id:
        q |= Q(act__in=PREMISES_ACTS, data__id=dog.premises_id)
    events = list(Event.objects.filter(q, jurisdiction=dog.jurisdiction).order_by("seq"))
    ids = {e.data.get("person") for e in events if e.act in OWNER_ACTS} - {None}
    return events, Person.objects.in_bulk(ids) if ids else {}


def person_history(person: Person) -> tuple[list[Event], dict[int, Dog]]:
    """The events that created or changed the person and their ownerships (oldest first), and the dogs they
    name. Two queries whatever the number of events."""
    q = Q(act__in=PERSON_ACTS, data__id=person.pk) | Q(act__in=OWNER_ACTS, data__person=person.pk)
    events = list(Event.objects.filter(q, jurisdiction=person.jurisdiction).order_by("seq"))
    ids = {e.data.get("dog") for e in events if e.act in OWNER_ACTS} - {None}
    return events, Dog.objects.in_bulk(ids) if ids else {}


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

"""Read-only queries of the staff pages. Each runs a fixed number of SQL queries whatever the number of rows
(select_related / prefetch_related), and every one is scoped to the user's cities. Search is staff/searching.py."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    expressions,
)
from django.db.models.expressions import RawSQL
from django.utils import timezone

from dogcase.cases.access import cities_of, offices_held, staff_roles
from dogcase.cases.acts.waiting import ACT_PREFIX
from dogcase.cases.guards import in_cities
from dogcase.cases.models import (
    Case,
    Dog,
    Event,
    Incident,
    Obligation,
    Ownership,
    Person,
    Task,
    Victim,
)
from dogcase.cases.observations import OBSERVATION_DEADLINE
from dogcase.law import library
from dogcase.staff import ranked, search_index
from dogcase.staff.city_law import CityLaw, city_law

# Staff who oversee everything of their cities see every item on the dashboard, not only those their role
# can meet.
SEES_ALL = frozenset({"administrator", "auditor"})
ACTIVE = ("open", "overdue")


def role_filter(user) -> Q | None:
    """Rows whose `staff_roles` (",role,role,") names one of the user's roles; None when the user sees all."""
    roles = staff_roles(user)
    if roles & SEES_ALL:
        return None
    return _of_roles(roles)


DASHBOARD_PAGE = 10  # rows of each dashboard list shown at once, most urgent first
DASHBOARD_TASKS = 5  # open tasks shown on the dashboard (each repeats a deadline listed above it)
OVERSEER_PAGE = 5  # rows of each (folded) list on the dashboard of those who oversee everything

OFFICERS = frozenset({"animal_control_officer", "police_officer"})


@dataclass(frozen=True)
class WorkList:
    """One list of a role's dashboard. Which obligations it holds is read from the law packs, never named
    here: those met by a step whose act (the ACTS vocabulary) is one of `acts`, and those whose missing
    authorizes one of `authorizes` (a seizure trigger's `after` deadline, once overdue)."""

    id: str
    title: str
    empty: str
    roles: frozenset[str]  # the staff roles whose dashboard shows it
    who: str | None = None  # city / owner: whose obligation; None: either
    acts: frozenset[str] = frozenset()
    authorizes: frozenset[str] = frozenset()
    source: str = "obligations"  # "undecided": open cases not yet declared; "rest": what no other list holds


COUNCIL_ACTS = frozenset(
    {
        "confirm_or_rescind",
        "hold_hearing",
        "decide_appeal",
        "order_impoundment",
        "order_destruction",
        "transfer_to_responsible_person",
    }
)

# The dashboard's lists, in the order shown. A user sees the lists of their roles (all of them for those who
# oversee everything) and, last, the rest of what their role can meet.
WORK_LISTS: tuple[WorkList, ...] = (
    WorkList(
        "decide",
        "Incidents to decide",
        "No incident is waiting for a decision.",
        OFFICERS,
        source="undecided",
    ),
    WorkList(
        "seizures",
        "Seizures authorized",
        "No seizure is authorized.",
        OFFICERS,
        authorizes=frozenset({"seize", "impound"}),
    ),
    WorkList(
        "schedule",
        "Hearing requests to schedule",
        "No hearing request is waiting to be scheduled.",
        frozenset({"city_clerk"}),
        who="city",
        acts=frozenset({"schedule_hearing"}),
    ),
    WorkList(
        "notices",
        "Notices to send",
        "No notice is waiting to be sent.",
        frozenset({"city_clerk"}),
        who="city",
        acts=frozenset({"serve_notice"}),
    ),
    # (the proof to review is one queue, the proof owners sent: dogcase.proofs's section of the dashboard; an
    # owner's time to give proof is among the role's other deadlines)
    WorkList(
        "hearings",
        "Hearings to hold",
        "No hearing is waiting to be held.",
        frozenset({"hearing_officer"}),
        who="city",
        acts=frozenset({"hold_hearing"}),
    ),
    WorkList(
        "decisions",
        "Decisions due",
        "No decision is due.",
        frozenset({"hearing_officer"}),
        who="city",
        acts=frozenset(
            {"decide_appeal", "recommend", "order_destruction", "review_designation", "review_ban"}
        ),
    ),
    WorkList(
        "council",
        "Items awaiting the Council",
        "Nothing is waiting for the Council.",
        frozenset({"council_clerk"}),
        acts=COUNCIL_ACTS,
        authorizes=frozenset({"order_impoundment"}),
    ),
    WorkList(
        "other",
        "Other deadlines of your role",
        "Nothing else is due.",
        frozenset(),
        source="rest",
    ),
)
WORK_LISTS_BY_ID = {w.id: w for w in WORK_LISTS}
# kept for links made before the dashboards were per role: the lists by urgency are now one list each
SECTION_IDS = tuple(WORK_LISTS_BY_ID) + ("tasks",)


def lists_for(user) -> list[WorkList]:
    """The lists of the user's dashboard: those of their roles, or every list for those who oversee all."""
    roles = staff_roles(user)
    if roles & SEES_ALL:
        return list(WORK_LISTS)
    return [w for w in WORK_LISTS if w.source == "rest" or w.roles & roles]


@dataclass
class Dashboard:
    lists: list[WorkList] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    # the first page (or the page asked for) of each list
    rows: dict[str, list] = field(default_factory=dict)


def _overdue(today: dt.date, now: dt.datetime) -> Q:
    """What the sweep has marked overdue, and a due date (or instant) already past that it has not yet seen.

    One expression (CASE), not an OR: each term of the OR names a column of the index that reads a list a
    (city, deadline id) pair at a time, and PostgreSQL then read all the pair's rows through a bitmap of those
    terms and sorted them, where the first rows in due order (the overdue ones: their dates are past) are
    enough."""
    past = Q(due_at__isnull=False, due_at__lt=now) | Q(due_at__isnull=True, due_date__lt=today)
    overdue = expressions.When(Q(status="overdue") | (Q(kind="due") & past), then=expressions.Value(True))
    return Q(expressions.Case(overdue, default=expressions.Value(False), output_field=BooleanField()))


def decide_labels(cities, today: dt.date) -> dict[str, str]:
    """Each city's words for the step that decides an incident (its opening step's label)."""
    out = {}
    for c in cities:
        law = city_law(c, today)
        out[c] = law.decide_label if law and law.decide_label else "Decide on the incident"
    return out


def _deadline_pairs(cities, today: dt.date, pick) -> tuple[tuple[str, str], ...]:
    """The (city, deadline id) pairs of the cities whose deadline ids `pick(city_law)` names."""
    out = []
    for city in sorted(cities):
        law = city_law(city, today)
        out.extend((city, d) for d in (sorted(pick(law)) if law else []))
    return tuple(out)


def _pairs_where(pairs) -> Q:
    """Obligations of the (city, deadline id) pairs: a condition the index obligation_active_city_deadline
    reads directly (deadline ids per city)."""
    by_city: dict[str, list[str]] = {}
    for city, deadline in pairs:
        by_city.setdefault(city, []).append(deadline)
    q = Q(pk__in=[])
    for city, ids in by_city.items():
        q |= Q(jurisdiction=city, deadline_id__in=ids)
    return q


def _where(parts: list[ranked.Part]) -> Q:
    """The condition of a list made of parts: a row of one of them."""
    q = Q(pk__in=[])
    for part in parts:
        q |= (_pairs_where(part.pairs) & part.condition) if part.pairs else part.condition
    return q


def _of_roles(roles) -> Q:
    """Obligations whose `staff_roles` (",role,role,") names one of `roles`: exact, but no index serves it."""
    q = Q(pk__in=[])
    for role in sorted(roles):
        q |= Q(staff_roles__contains=f",{role},")
    return q


def _role_deadlines(law: CityLaw, roles, user=None) -> set[str]:
    """The deadline ids one of `roles` can meet in the city; given the `user`, without those a role meets only
    through an office held by appointment that the user does not hold there."""
    out: set[str] = set()
    held = offices_held(user, law.city) if user is not None else None
    for role in roles:
        ids = set(law.by_role.get(role, ()))
        if held is not None:
            ids -= {d for d, offices in law.office_only.get(role, {}).items() if not offices & held}
        out |= ids
    return out


def _observed(cities) -> Q:
    """The rows of rabies observations (no law computes them: the city's procedure), by their ids' prefix."""
    return Q(jurisdiction__in=sorted(cities), deadline_id__startswith=OBSERVATION_DEADLINE)


def _roles_parts(cities, roles, today: dt.date, user=None) -> list[ranked.Part]:
    """Obligations of the cities that one of `roles` can meet: the deadline ids the law lets those roles meet
    (which the index finds), then the exact test of the row's roles. A rabies observation's row (no law
    computes it: the city's procedure) is the roles' that keep observations (cases/acts/observation.py)."""
    pairs = _deadline_pairs(cities, today, lambda law: _role_deadlines(law, roles, user))
    by_law = tuple(p for p in pairs if not p[1].startswith(OBSERVATION_DEADLINE))
    observed = [ranked.Part(_observed(cities) & _of_roles(roles))]
    return ([ranked.Part(_of_roles(roles), by_law)] if by_law else []) + observed


def _roles_where(cities, roles, today: dt.date, user=None) -> Q:
    return _where(_roles_parts(cities, roles, today, user))


def _list_parts(user, work: WorkList, cities, today: dt.date, now: dt.datetime) -> list[ranked.Part]:
    """An obligation list of the dashboard as parts of the user's active obligations, each of a few (city,
    deadline id) pairs: a row of the list is a row of one of them."""
    # met by the list's roles that the user holds (every one of them for those who oversee everything)
    roles = staff_roles(user)
    # those who oversee everything see the offices' work too; the others, what their offices let them do
    holder = None if roles & SEES_ALL else user
    roles = work.roles if roles & SEES_ALL else work.roles & roles
    parts = []
    if work.acts and roles:
        # met by one of the list's acts and by one of the roles: deadline ids per city, then the row's roles
        met = _deadline_pairs(
            cities,
            today,
            lambda law: (
                {d for d, a in law.met_by.items() if a & work.acts} & _role_deadlines(law, roles, holder)
            ),
        )
        parts.append(ranked.Part((Q(who=work.who) if work.who else Q()) & _of_roles(roles), met))
    if work.authorizes:
        # once overdue, whatever role meets it: the list is the work of the roles that act on the authority
        authorized = _deadline_pairs(
            cities, today, lambda law: [d for d, a in law.authorizes.items() if a & work.authorizes]
        )
        parts.append(ranked.Part(_overdue(today, now), authorized))
        if roles:
            # an act of that authority waiting on one of the list's roles (cases/acts/waiting.py)
            waiting = _deadline_pairs(
                cities,
                today,
                lambda law: (
                    {d for d, a in law.met_by.items() if d.startswith(ACT_PREFIX) and a & work.authorizes}
                    & _role_deadlines(law, roles, holder)
                ),
            )
            parts.append(ranked.Part(_of_roles(roles), waiting))
    # a part of no pair holds nothing (a part without pairs is a condition of its own only for the rest)
    return [p for p in parts if p.pairs]


def _list_filter(user, work: WorkList, cities, today: dt.date, now: dt.datetime) -> Q:
    """An obligation list of the dashboard as a condition over the user's active obligations."""
    return _where(_list_parts(user, work, cities, today, now))


def _rest_parts(user, shown: list[WorkList], cities, today: dt.date, now: dt.datetime) -> list[ranked.Part]:
    """The user's deadlines that none of their other lists holds (ongoing duties stay on the case page), as
    parts: those of the role's deadline ids, and the rabies observations; for those who oversee everything,
    one part of no pairs (every deadline is theirs)."""
    q = ~Q(kind="ongoing")
    for work in shown:
        if work.source == "obligations":
            q &= ~_list_filter(user, work, cities, today, now)
    roles = staff_roles(user)
    if roles & SEES_ALL:
        return [ranked.Part(q)]
    return [ranked.Part(part.condition & q, part.pairs) for part in _roles_parts(cities, roles, today, user)]


def _disjoint(parts: list[ranked.Part]) -> tuple[ranked.Part, ...]:
    """The same rows as parts of which no two share a (city, deadline id) pair: a pair in several parts is in
    one part whose condition is theirs OR-ed (a row is then in one part only, and the parts' rows are read
    without setting aside the rows read twice). A part of no pairs (the rabies observations; all of a list
    for those who oversee everything) is kept apart from the pairs' rows by its condition: none of them."""
    holders: dict[tuple[str, str], list[int]] = {}
    for n, part in enumerate(parts):
        for pair in part.pairs:
            holders.setdefault(pair, []).append(n)
    grouped: dict[tuple[int, ...], list[tuple[str, str]]] = {}
    for pair, held_by in holders.items():
        grouped.setdefault(tuple(held_by), []).append(pair)
    out = []
    for held_by, pairs in grouped.items():
        condition = Q(pk__in=[])
        for n in held_by:
            condition |= parts[n].condition
        out.append(ranked.Part(parts[held_by[0]].condition if len(held_by) == 1 else condition, tuple(pairs)))
    apart = ~_pairs_where(holders) if holders else Q()
    return (*out, *(ranked.Part(part.condition & apart) for part in parts if not part.pairs))


def _filters(user, lists: list[WorkList], today: dt.date, now: dt.datetime) -> dict[str, Q]:
    return {sid: _where(parts) for sid, parts in _parts(user, lists, today, now).items()}


def _parts(user, lists: list[WorkList], today: dt.date, now: dt.datetime) -> dict[str, list[ranked.Part]]:
    """Each obligation list of the user's dashboard, as parts (PostgreSQL reads each on its own: ranked.py)."""
    cities = cities_of(user)
    out = {}
    for work in lists:
        if work.source == "obligations":
            out[work.id] = _list_parts(user, work, cities, today, now)
        elif work.source == "rest":
            out[work.id] = _rest_parts(user, lists, cities, today, now)
    return out


def _active_obligations(user) -> QuerySet[Obligation]:
    return _active_obligations_in(cities_of(user))


def _active_obligations_in(cities, *, looked_up: bool = False) -> QuerySet[Obligation]:
    """The active obligations of the cities' open cases. `looked_up`: each row's case status read by its key
    (a subquery a row, which the database cannot turn into a join), for a statement that reads a few rows a
    part (ranked.Parts): as a join, PostgreSQL read every open case for each part."""
    # The status condition is written as the partial index `obligation_active_due` (search_index.py) is, with
    # its values in the SQL, not as parameters: SQLite uses a partial index only for a condition it can
    # compare with the index's own.
    active = RawSQL(search_index.ACTIVE_OBLIGATION, [], output_field=BooleanField())  # noqa: S611 - our SQL
    if looked_up:
        status = Subquery(Case.objects.filter(pk=OuterRef("case_id")).order_by().values("status")[:1])
        return (
            Obligation.objects.filter(Q(active), jurisdiction__in=cities)
            .alias(case_status=status)
            .filter(case_status=Case.Status.OPEN)
        )
    # of an open case: each row's case looked up (EXISTS), not a join that SQLite would read case by case
    open_case = Exists(Case.objects.filter(pk=OuterRef("case_id"), status=Case.Status.OPEN))
    return Obligation.objects.filter(Q(active), open_case, jurisdiction__in=cities)


def _undecided_cases(user) -> QuerySet[Case]:
    """Open cases whose dog is not yet declared (or classified): the incidents an officer has to decide — in
    the cities where the user's role decides, through an office anyone of it holds or one the user holds."""
    return Case.objects.filter(
        jurisdiction__in=deciding_cities(user), status=Case.Status.OPEN, designation=""
    )


def deciding_cities(user) -> list[str]:
    """The user's cities but those where their roles decide an incident only through an office held by
    appointment that the user does not hold there (Tracy's classification, for a police account that is not
    its Chief of Police)."""
    roles = staff_roles(user)
    if roles & SEES_ALL:
        return list(cities_of(user))
    today = timezone.localdate()
    out = []
    for city in cities_of(user):
        law = city_law(city, today)
        offices = [law.decide_offices.get(r) for r in roles] if law is not None else [None]
        if any(o is None or o & offices_held(user, city) for o in offices):
            out.append(city)
    return out


def _open_tasks(user) -> QuerySet[Task]:
    tasks = Task.objects.filter(jurisdiction__in=cities_of(user), done_at__isnull=True)
    rf = role_filter(user)
    return tasks if rf is None else tasks.filter(rf)


# Each list's order and the records shown with its rows: the undecided incidents and the tasks oldest first,
# the obligations the earliest due first (the order of the index obligation_active_due).
_ORDER = {"tasks": ("created_at", "id"), "decide": ("opened_at", "id")}
_RELATED = {"tasks": ("case", "case__dog"), "decide": ("dog", "incident")}
_MODEL = {"tasks": Task, "decide": Case}  # the others are lists of obligations
_ORDER_KEYS = {"tasks": ("created_at",), "decide": ("opened_at",)}  # each order's fields before the id
# An act waiting with no time set by law (no due date) comes after the dated ones on both databases (PostgreSQL's
# own order for ascending NULLs, so its index still serves the sort).
DUE_ORDER = (F("due_date").asc(nulls_last=True), F("due_at").asc(nulls_last=True), "id")


def _section_rows(user, section: str, filters: dict[str, Q], *, offset: int, size: int, listed=None) -> list:
    """A page of a list, in its order; `listed`: the list's queryset, when the caller has built it already."""
    order = _ORDER.get(section, DUE_ORDER)
    # the page's ids first, in the list's order, without the records shown beside them: a long list is sorted
    # on its own rows (across cities, all of them), and the case and the dog are joined to the page's rows
    # only (as a subquery, PostgreSQL joined them first)
    listed = _list_queryset(user, section, filters) if listed is None else listed
    only = list(listed.order_by(*order).values_list("pk", flat=True)[offset : offset + size])
    if not only:
        return []
    rows = _MODEL.get(section, Obligation).objects.filter(pk__in=only)
    rows = rows.select_related(*_RELATED.get(section, ("case", "case__dog")))
    return list(rows.order_by(*order))


COUNT_CAP = 1000  # a list's count stops here ("more than 1,000"): a count costs the same in any city
# The dashboard's summary of each list stops sooner ("more than 100"), and its list page counts on to
# COUNT_CAP: a count reads one row per item counted, and the dashboard counts every list of the role at once
# (at statewide size, counting to 1,000 was most of the dashboard's time).
DASHBOARD_COUNT_CAP = 100


def _list_queryset(user, section: str, filters: dict[str, Q]) -> QuerySet:
    if section == "tasks":
        return _open_tasks(user)
    if section == "decide":
        return _undecided_cases(user)
    return _active_obligations(user).filter(filters[section])


def _count(user, section: str, filters: dict[str, Q], cap: int | None = None, listed=None) -> int:
    """How many items a list holds, up to cap + 1 (COUNT_CAP + 1): a count that reads at most that many rows."""
    cap = COUNT_CAP if cap is None else cap
    listed = _list_queryset(user, section, filters) if listed is None else listed
    return listed.order_by().values("pk")[: cap + 1].count()


def count_words(n: int, cap: int | None = None) -> str:
    cap = COUNT_CAP if cap is None else cap
    return f"more than {cap:,}" if n > cap else f"{n:,}"


def dashboard(user, *, today: dt.date, now: dt.datetime, size: int = DASHBOARD_PAGE) -> Dashboard:
    """How many items each list of the user's dashboard holds (up to DASHBOARD_COUNT_CAP) and its first `size` rows,
    most urgent first (the earliest due first; undecided incidents and tasks oldest first): whatever the number
    of lists and of obligations, one query counts every list and finds its first rows (staff/ranked.py), one
    more when a list holds more than the cap, then one a table reads the rows shown — each reading through an
    index (obligation_active_city_deadline, obligation_active_due, task_open_created, case_undecided_opened)."""
    lists = lists_for(user)
    board = Dashboard(lists=lists)
    # the lists' statements are kept for the user and all they depend on but the moment: the law in use, the
    # user's cities, roles and offices there (deciding_cities, _role_deadlines), the day (city_law)
    cities = cities_of(user)
    law = library()
    ranked.keep_for(law)
    key = (
        "dashboard",
        user.pk,
        law,
        cities,
        staff_roles(user),
        tuple(offices_held(user, city) for city in cities),
        today,
        timezone.localdate(),
        size,
    )
    board.counts, board.rows = ranked.read_kept(
        key, dashboard_lists(user, lists, today, size), now=now, cap=DASHBOARD_COUNT_CAP, moment=_moment
    )
    return board


def dashboard_lists(user, lists: list[WorkList], today: dt.date, size: int):
    """The dashboard's lists (and its open tasks) as they stand at a moment: a function of the moment."""

    def build(at: dt.datetime) -> dict[str, ranked.Ranked]:
        parts = _parts(user, lists, today, at)
        filters = {sid: _where(p) for sid, p in parts.items()}
        base = _active_obligations_in(cities_of(user), looked_up=True)
        return {
            sid: ranked.Ranked(
                listed=_list_queryset(user, sid, filters),
                keys=_ORDER_KEYS.get(sid, ("due_date", "due_at")),
                order=_ORDER.get(sid, DUE_ORDER),
                size=min(size, DASHBOARD_TASKS) if sid == "tasks" else size,
                related=_RELATED.get(sid, ("case", "case__dog")),
                parts=ranked.Parts(base, _disjoint(parts[sid])) if sid in parts else None,
            )
            for sid in [w.id for w in lists] + ["tasks"]
        }

    return build


def _moment(at: dt.datetime):
    """A moment as a condition on an obligation's due instant sends it to the database."""
    return Obligation._meta.get_field("due_at").get_db_prep_value(at, connection, prepared=False)


def dashboard_section(user, section: str, *, today: dt.date, now: dt.datetime, page: int, size: int):
    """One page of one of the dashboard's lists, and the list's count: three queries (the count, the page's
    ids, its rows)."""
    filters = _filters(user, lists_for(user), today, now)
    listed = _list_queryset(user, section, filters)
    count = _count(user, section, filters, listed=listed)
    pages = max(1, -(-min(count, COUNT_CAP) // size))
    page = min(max(page, 1), pages)
    rows = _section_rows(user, section, filters, offset=(page - 1) * size, size=size, listed=listed)
    return count, page, pages, rows


# ------------------------------------------------------------------------------------------------- lists
# Each list is read a page at a time after a position (staff/keyset.py): the order below is the order of an
# index (cases/models.py), so that the first and the thousandth page cost the same.

CASE_ORDER = ("-opened_at", "-id")
DOG_ORDER = ("name", "id")
PERSON_ORDER = ("full_name", "id")
INCIDENT_ORDER = ("-occurred_at", "-id")


def dogs_by_name() -> Prefetch:
    return Prefetch("dogs", queryset=Dog.objects.order_by(*DOG_ORDER))


def owners_prefetch() -> Prefetch:
    return Prefetch("owners", queryset=Person.objects.order_by("full_name", "id"))


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
        .prefetch_related(owners_prefetch())
        .order_by(*DOG_ORDER)
    )


def _child_counts(rows, model, parent: str, attribute: str) -> None:
    """Set `attribute` on each row of a page to the number of its `model` rows: one grouped query over the
    page's ids, not a count over every row."""
    counts = dict(
        model.objects.filter(**{f"{parent}__in": [r.pk for r in rows]})
        .values(parent)
        .annotate(n=Count("id"))
        .values_list(parent, "n")
    )
    for r in rows:
        setattr(r, attribute, counts.get(r.pk, 0))


def case_counts(dogs_shown) -> None:
    """Set `case_count` on each dog of a page."""
    _child_counts(dogs_shown, Case, "dog_id", "case_count")


def people(user) -> QuerySet[Person]:
    return (
        Person.objects.filter(jurisdiction__in=cities_of(user))
        .prefetch_related(dogs_by_name())
        .order_by(*PERSON_ORDER)
    )


def incidents(user) -> QuerySet[Incident]:
    return (
        Incident.objects.filter(jurisdiction__in=cities_of(user))
        .prefetch_related(dogs_by_name())
        .order_by(*INCIDENT_ORDER)
    )


def victim_counts(incidents_shown) -> None:
    """Set `victim_count` on each incident of a page."""
    _child_counts(incidents_shown, Victim, "incident_id", "victim_count")


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
PREMISES_ACTS = ("record_premises", "update_premises", "set_premises_location")


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

"""Search, the lists of cases, dogs, people and incidents, and the pages of one dog, person or incident."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch
from django.shortcuts import render
from django.utils import timezone

from dogcase.cases.access import cities_of
from dogcase.cases.guards import in_cities, is_read_only, may_record, staff_required
from dogcase.cases.models import Case, Dog, Evidence, Incident, Person
from dogcase.cases.pages import city_names, installed, not_installed, now_and_today
from dogcase.cases.record_facts import prior_history_words, record_facts
from dogcase.law import library
from dogcase.money.ledger import money, owed_by_owner
from dogcase.staff import keyset, queries, searching
from dogcase.staff.present import designation_label, history_rows, humanize

PAGE_SIZE = keyset.PAGE_SIZE
HISTORY_PAGE = 50  # events of a record's history, cases and incidents of a dog shown at once


def _page(request, queryset, order):
    """A page of a list after (or before) the position in the link: the same cost on every page."""
    return keyset.paginate(
        queryset,
        order,
        after=request.GET.get("after", ""),
        before=request.GET.get("before", ""),
        size=PAGE_SIZE,
    )


def _designation_labels(cities) -> dict[str, str]:
    labels: dict[str, str] = {}
    lib = library()
    for c in cities:
        if c not in lib.jurisdictions:
            continue
        for d in lib.get(c).designations.values():
            labels.setdefault(d.id, d.label)
    return labels


@staff_required
def search(request):
    q = request.GET.get("q", "")
    results = searching.search(request.user, q)
    return render(
        request,
        "staff/search.html",
        {
            "q": results.query,
            "results": results,
            "limit": searching.SEARCH_LIMIT,
            "cities": city_names(cities_of(request.user)),
        },
    )


@staff_required
def case_list(request):
    user = request.user
    cities = cities_of(user)
    labels = _designation_labels(cities)
    status = request.GET.get("status", "")
    designation = request.GET.get("designation", "")
    city = request.GET.get("city", "")
    # Filters outside the choices are ignored, never passed to the query as given.
    status = status if status in Case.Status.values else ""
    designation = designation if designation in labels or designation == "none" else ""
    city = city if city in cities else ""
    page = _page(
        request, queries.cases(user, status=status, designation=designation, city=city), queries.CASE_ORDER
    )
    names = city_names(cities)
    rows = [
        {
            "case": c,
            "city": names.get(c.jurisdiction, c.jurisdiction),
            "designation": labels.get(c.designation, humanize(c.designation))
            if c.designation
            else "Not declared",
            "not_installed": None if installed(c.jurisdiction) else not_installed(c.jurisdiction),
            "owners": ", ".join(p.full_name for p in c.dog.owners.all()),
        }
        for c in page
    ]
    context = {
        "page": page,
        "rows": rows,
        "filters": {"status": status, "designation": designation, "city": city},
        "statuses": Case.Status.choices,
        "designations": sorted(labels.items(), key=lambda kv: kv[1]),
        "cities": names,
        "query_string": _query_string(request),
    }
    return render(request, "staff/case_list.html", context)


def _query_string(request) -> str:
    params = request.GET.copy()
    for key in ("page", "after", "before"):
        params.pop(key, None)
    return params.urlencode()


def _list(request, queryset, order, template: str, *, annotate=None, **extra):
    """A list of one kind of record in the user's cities, a page at a time."""
    page = _page(request, queryset, order)
    if annotate is not None:
        annotate(page.object_list)
    context = {
        "page": page,
        "cities": city_names(cities_of(request.user)),
        "query_string": _query_string(request),
        **extra,
    }
    return render(request, template, context)


@staff_required
def dog_list(request):
    return _list(
        request,
        queries.dogs(request.user),
        queries.DOG_ORDER,
        "staff/dog_list.html",
        annotate=queries.case_counts,
    )


@staff_required
def person_list(request):
    return _list(request, queries.people(request.user), queries.PERSON_ORDER, "staff/person_list.html")


@staff_required
def incident_list(request):
    cities = cities_of(request.user)
    return _list(
        request,
        queries.incidents(request.user),
        queries.INCIDENT_ORDER,
        "staff/incident_list.html",
        annotate=queries.victim_counts,
        may_record=may_record(request.user),
        not_installed={c: not_installed(c) for c in cities if installed(c) is None},
    )


def may_edit(user) -> bool:
    """Whether the page offers to correct the record: never to the auditor, else to the record keepers."""
    return not is_read_only(user) and may_record(user)


@staff_required
def dog_detail(request, pk: int):
    dog = queries.dog_detail(request.user, pk)
    j = installed(dog.jurisdiction)
    cases = list(dog.cases.select_related("incident").order_by("-opened_at", "-id")[: HISTORY_PAGE + 1])
    incidents = list(dog.incidents.order_by("-occurred_at", "-id")[: HISTORY_PAGE + 1])
    ownerships = queries.ownerships_of(dog)
    history = queries.dog_history(dog, before=_seq(request.GET.get("history_before")))
    context = {
        "dog": dog,
        "ownerships": ownerships,
        "current_owners": [o for o in ownerships if o.until is None],
        "former_owners": [o for o in ownerships if o.until is not None],
        "history": history_rows(history.events, people=history.names),
        "history_page": history,
        "may_edit": may_edit(request.user),
        "cases": [
            {"case": c, "designation": designation_label(j, c.designation)} for c in cases[:HISTORY_PAGE]
        ],
        "more_cases": len(cases) > HISTORY_PAGE,
        "incidents": incidents[:HISTORY_PAGE],
        "more_incidents": len(incidents) > HISTORY_PAGE,
        "city": city_names([dog.jurisdiction])[dog.jurisdiction],
        "may_record": may_record(request.user) and j is not None,
        "not_installed": None if j else not_installed(dog.jurisdiction),
        "prior_history": [
            {"entry": p, "on": p.on, "words": prior_history_words(p.what, p.designation)}
            for p in dog.prior_history.select_related("recorded_by")
        ],
        # as a new incident tomorrow would read it: everything recorded up to today included
        "record_facts": record_facts(
            dog,
            vocabulary=j.facts,
            incident_day=timezone.localdate() + dt.timedelta(days=1),
            bite_on_person_now=False,
        )
        if j
        else [],
    }
    return render(request, "staff/dog_detail.html", context)


def _seq(value) -> int | None:
    """A position in the audit trail from a link (`history_before`), or None when it is not a number."""
    try:
        seq = int(str(value))
    except (TypeError, ValueError):
        return None
    return seq if 0 < seq < 2**62 else None


@staff_required
def person_detail(request, pk: int):
    person = in_cities(Person.objects.all(), request.user, pk=pk)
    history = queries.person_history(person, before=_seq(request.GET.get("history_before")))
    ownerships = list(person.ownerships.select_related("dog").order_by("-since", "id")[: HISTORY_PAGE + 1])
    premises_let = list(person.premises_let.order_by("id")[: HISTORY_PAGE + 1])
    context = {
        "person": person,
        "history": history_rows(history.events, dogs=history.names),
        "history_page": history,
        "may_edit": may_edit(request.user),
        "ownerships": ownerships[:HISTORY_PAGE],
        "more_ownerships": len(ownerships) > HISTORY_PAGE,
        "premises_let": premises_let[:HISTORY_PAGE],
        "more_premises": len(premises_let) > HISTORY_PAGE,
        "city": city_names([person.jurisdiction])[person.jurisdiction],
        "owed": _owed(person, request.user),
    }
    return render(request, "staff/person_detail.html", context)


def _owed(person, user) -> dict | None:
    """What the person owes across the cases of the dogs they own now, case by case (None: nothing)."""
    _, today = now_and_today()
    total, each = owed_by_owner(person, today)
    if not each:
        return None
    cases = Case.objects.filter(pk__in=each, jurisdiction__in=cities_of(user)).select_related("dog")
    return {
        "total": money(total),
        "cases": [
            {"number": c.number, "dog": c.dog.name, "balance": money(each[c.pk])}
            for c in cases.order_by("number")
        ],
    }


@staff_required
def incident_detail(request, number: str):
    incident = in_cities(
        Incident.objects.select_related("reported_by").prefetch_related(
            Prefetch("dogs", queryset=Dog.objects.order_by("name", "id")),
            "victims",
            "witnesses",
            Prefetch("evidence", queryset=Evidence.objects.select_related("file")),
        ),
        request.user,
        number=number,
    )
    j = installed(incident.jurisdiction)
    facts = []
    vocabulary = j.facts.facts if j else {}
    for fact_id, value in incident.facts.items():
        fact = vocabulary.get(fact_id)
        label_of = fact.label_of if fact is not None else humanize
        if isinstance(value, bool):
            words = "Yes" if value else "No"
        elif isinstance(value, list):
            words = ", ".join(label_of(v) for v in value) or "None of these"
        else:
            words = label_of(str(value))
        facts.append({"id": fact_id, "question": fact.question if fact else fact_id, "words": words})
    cases = list(incident.cases.select_related("dog").order_by("number"))
    context = {
        "incident": incident,
        "observations": list(incident.rabies_observations.select_related("dog").order_by("dog__name", "id")),
        "facts": facts,
        "unknown_facts": [f.question for f in vocabulary.values() if f.id not in incident.facts],
        "cases": [{"case": c, "designation": designation_label(j, c.designation)} for c in cases],
        "city": city_names([incident.jurisdiction])[incident.jurisdiction],
        "may_add": may_record(request.user) and not is_read_only(request.user),
        "not_installed": None if j else not_installed(incident.jurisdiction),
    }
    return render(request, "staff/incident_detail.html", context)

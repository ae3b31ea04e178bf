"""Home: the landing page for visitors; for staff, what is due in their cities that their role can do."""

from __future__ import annotations

from django.shortcuts import render

from dogcase.cases.access import cities_of, staff_roles
from dogcase.staff import queries
from dogcase.staff.guards import is_read_only, may_record
from dogcase.staff.present import WHO_WORDS, citations_text, countdown
from dogcase.staff.roles import roles_of
from dogcase.staff.views.common import city_names, now_and_today


def obligation_row(ob, *, today, now, cities: dict[str, str]) -> dict:
    return {
        "case_number": ob.case.number,
        "dog": ob.case.dog.name,
        "city": cities.get(ob.jurisdiction, ob.jurisdiction),
        "who": WHO_WORDS.get(ob.who, ob.who),
        "what": ob.what,
        "due": ob.due_at or ob.due_date,
        "is_instant": ob.due_at is not None,
        "countdown": countdown(ob.due_at or ob.due_date, today=today, now=now, kind=ob.kind),
        "citation": citations_text(ob.citations),
        "consequences": ob.consequences,
        "deadline_id": ob.deadline_id,
    }


def home(request):
    user = request.user
    if not user.is_authenticated:
        return render(request, "staff/landing.html")
    roles = roles_of(user)
    if not staff_roles(user):
        return render(request, "staff/no_role.html", {"roles": roles})
    now, today = now_and_today()
    board = queries.dashboard(user, today=today, now=now)
    cities = city_names(cities_of(user))

    def rows(items):
        return [obligation_row(ob, today=today, now=now, cities=cities) for ob in items]

    sections = [
        {"id": "overdue", "title": "Overdue", "rows": rows(board.overdue), "empty": "Nothing is overdue."},
        {
            "id": "today",
            "title": "Due today",
            "rows": rows(board.due_today),
            "empty": "Nothing is due today.",
        },
        {
            "id": "week",
            "title": "Due in the next 7 days",
            "rows": rows(board.due_this_week),
            "empty": "Nothing else is due this week.",
        },
        {
            "id": "owner",
            "title": "Waiting on the owner",
            "rows": rows(board.waiting_on_owner),
            "empty": "No owner has anything open.",
        },
    ]
    tasks = [
        {
            "pk": t.pk,
            "case_number": t.case.number,
            "dog": t.case.dog.name,
            "text": t.text,
            "citation": t.citation,
            "created_at": t.created_at,
            "city": cities.get(t.jurisdiction, t.jurisdiction),
        }
        for t in board.tasks
    ]
    context = {
        "roles": roles,
        "cities": cities,
        "sections": sections,
        "tasks": tasks,
        "counts": [{"id": s["id"], "title": s["title"], "count": len(s["rows"])} for s in sections]
        + [{"id": "tasks", "title": "Open tasks", "count": len(tasks)}],
        "today": today,
        "read_only": is_read_only(user),
        "may_record": may_record(user),
    }
    return render(request, "staff/dashboard.html", context)

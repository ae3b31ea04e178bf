"""Home: the landing page for visitors; for staff, what is due in their cities that their role can do."""

from __future__ import annotations

from django.shortcuts import render
from django.utils import timezone

from dogcase.cases.access import cities_of, read_access, staff_roles
from dogcase.cases.acts.waiting import KIND as WAITING_KIND
from dogcase.cases.guards import is_read_only, may_record
from dogcase.cases.hearings import hearings_to_hold
from dogcase.cases.pages import city_names, now_and_today
from dogcase.cases.roles import ROLES
from dogcase.staff import queries
from dogcase.staff.present import WHO_WORDS, citations_text, countdown, plural

# an act waiting on staff that no deadline of the law times (cases/acts/waiting.py)
NO_TIME = {"text": "no time set by law", "tone": "waiting", "days": None}


def obligation_row(ob, *, today, now, cities: dict[str, str]) -> dict:
    return {
        "case_number": ob.case.number,
        "dog": ob.case.dog.name,
        "city": cities.get(ob.jurisdiction, ob.jurisdiction),
        "who": "" if ob.kind == WAITING_KIND else WHO_WORDS.get(ob.who, ob.who),
        "what": ob.what,
        "due": ob.due_at or ob.due_date,
        "is_instant": ob.due_at is not None,
        "countdown": NO_TIME
        if ob.kind == WAITING_KIND and not ob.detail.get("timed")
        else countdown(ob.due_at or ob.due_date, today=today, now=now, kind=ob.kind),
        "citation": citations_text(ob.citations),
        "consequences": ob.consequences,
        "deadline_id": ob.deadline_id,
        "undecided": False,
    }


def undecided_row(case, *, today, now, cities: dict[str, str], labels: dict[str, str]) -> dict:
    """An open case whose dog is not yet declared: the officer's decision, counted from the incident."""
    occurred = timezone.localtime(case.incident.occurred_at).date()
    days = (today - occurred).days
    return {
        "case_number": case.number,
        "incident_number": case.incident.number,
        "dog": case.dog.name,
        "city": cities.get(case.jurisdiction, case.jurisdiction),
        "who": "",
        "what": labels.get(case.jurisdiction, "Decide on the incident"),
        "due": occurred,
        "is_instant": False,
        "countdown": {
            "text": "incident today" if days <= 0 else f"incident {plural(days, 'day')} ago",
            "tone": "waiting",
            "days": -days,
        },
        "citation": "",
        "consequences": [],
        "deadline_id": "",
        "undecided": True,
    }


LIST_PAGE = 25  # rows a page when one of the dashboard's lists is read in full


def home(request):
    """The dashboard of the user's roles: for each of their lists (an officer's incidents to decide and
    seizures authorized, a clerk's hearing requests to schedule, notices to send and proof to review, a
    hearing officer's hearings to hold and decisions due, a council clerk's items awaiting the Council, then
    the rest of their role's deadlines and the open tasks) how many items it holds and the most urgent first
    few — with the acts waiting on the role that no deadline times (cases/acts/waiting.py: the Council's
    confirmation after a recommendation) — each list a fold with its count; `?list=<id>&page=<n>` reads one
    list in full, a page at a time. The same queries whatever the number of obligations."""
    user = request.user
    if not user.is_authenticated:
        return render(request, "staff/landing.html")
    read_access(user)  # the user's roles, cities and offices, which every list below reads: one query
    mine = staff_roles(user)
    roles = [r for r in ROLES if r.group in mine]  # roles_of(user), without reading the groups again
    if not mine:
        return render(request, "staff/no_role.html", {"roles": roles})
    now, today = now_and_today()
    city_ids = cities_of(user)
    cities = city_names(city_ids)
    labels = queries.decide_labels(city_ids, today)
    lists = queries.lists_for(user)
    titles = {w.id: (w.title, w.empty) for w in lists}
    titles["tasks"] = ("Open tasks", "No open tasks.")

    def rows(sid, items):
        if sid == "tasks":
            return [task_row(t, cities=cities) for t in items]
        if sid == "decide":
            return [undecided_row(c, today=today, now=now, cities=cities, labels=labels) for c in items]
        out = [obligation_row(ob, today=today, now=now, cities=cities) for ob in items]
        work = queries.WORK_LISTS_BY_ID.get(sid)
        if work is not None and work.authorizes:
            for row in out:
                # a list of what the law authorizes: the row says what is authorized, and why
                authorized = [c for c in row["consequences"] if c.get("act") in work.authorizes]
                if authorized and row["countdown"]["tone"] == "overdue":
                    row["what"], row["who"] = authorized[0]["what"], ""
        return out

    context = {
        "roles": roles,
        "cities": cities,
        "today": today,
        "read_only": is_read_only(user),
        "may_record": may_record(user),
    }
    one = request.GET.get("list", "")
    if one in titles:
        page = _page_number(request.GET.get("page"))
        count, page, pages, items = queries.dashboard_section(
            user, one, today=today, now=now, page=page, size=LIST_PAGE
        )
        context["list"] = {
            "id": one,
            "title": titles[one][0],
            "empty": titles[one][1],
            "count": count,
            "count_words": queries.count_words(count),
            "capped": count > queries.COUNT_CAP,
            "rows": rows(one, items),
            "page": page,
            "pages": pages,
        }
        return render(request, "staff/dashboard_list.html", context)

    # Those who oversee everything see every list folded, its count in the fold's summary, and a few rows of
    # each (the list's own page reads it in full): the page stays a few phone screens whatever the lists hold.
    # The others see their own lists open when they hold something, the others folded; the rest of their
    # deadlines and the open tasks (each repeats a deadline) open only when no list of their own holds anything.
    oversees = bool(staff_roles(user) & queries.SEES_ALL)
    size = queries.OVERSEER_PAGE if oversees else queries.DASHBOARD_PAGE
    board = queries.dashboard(user, today=today, now=now, size=size)
    cap = queries.DASHBOARD_COUNT_CAP  # the dashboard summarises; a list's own page counts further
    # the hearings this person is designated to hold (the hearing officer's own list)
    context["hearings"], context["hearings_more"] = hearings_to_hold(user, tuple(cities))
    own = [w for w in board.lists if w.source != "rest" and w.roles & mine]
    own_busy = not oversees and any(board.counts[w.id] for w in own)
    sections = [
        {
            "id": w.id,
            "title": w.title,
            "rows": rows(w.id, board.rows[w.id]),
            "count": board.counts[w.id],
            "count_words": queries.count_words(board.counts[w.id], cap),
            "capped": board.counts[w.id] > cap,
            "empty": w.empty,
            "oldest_first": w.source == "undecided",
            "open": bool(board.counts[w.id])
            and not oversees
            and (bool(w.roles & mine) if w.source != "rest" else not own_busy),
        }
        for w in board.lists
    ]
    tasks = rows("tasks", board.rows["tasks"])
    waiting_proofs = proof_count(user)
    context.update(
        proof_count=waiting_proofs,  # the proofs' section (proofs_tags.proofs_waiting) reads it from here
        sections=sections,
        tasks=tasks,
        task_count=board.counts["tasks"],
        task_count_words=queries.count_words(board.counts["tasks"], cap),
        tasks_capped=board.counts["tasks"] > cap,
        tasks_open=bool(board.counts["tasks"]) and not oversees and not own_busy,
        counts=[
            {"id": s["id"], "title": s["title"], "count": s["count"], "words": s["count_words"]}
            for s in sections
        ]
        + proof_queue_count(user, waiting_proofs)
        + [
            {
                "id": "tasks",
                "title": "Open tasks",
                "count": board.counts["tasks"],
                "words": queries.count_words(board.counts["tasks"], cap),
            }
        ],
    )
    return render(request, "staff/dashboard.html", context)


def proof_count(user) -> int:
    """How many proofs sent by owners wait for review in the user's cities: counted once a request, for the
    counts above and the proofs' own section below."""
    from dogcase.proofs.views import waiting

    return waiting(user).count()


def proof_queue_count(user, count: int) -> list[dict]:
    """The one queue of proof to review (what owners sent, dogcase.proofs), counted for those who review it."""
    from dogcase.proofs import services as proof_services

    if not proof_services.may_review(user):
        return []
    return [{"id": "proofs", "title": "Proof to review", "count": count, "words": queries.count_words(count)}]


def task_row(t, *, cities: dict[str, str]) -> dict:
    return {
        "pk": t.pk,
        "case_number": t.case.number,
        "dog": t.case.dog.name,
        "text": t.text,
        "citation": t.citation,
        "created_at": t.created_at,
        "city": cities.get(t.jurisdiction, t.jurisdiction),
    }


def _page_number(value) -> int:
    try:
        return max(1, min(int(str(value)), 1_000_000))
    except (TypeError, ValueError):
        return 1

"""What the case page says of a dog that moved with its case between two cities served here
(cases/acts/moves.py): where the case came from — its history and documents — or where it went."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from dogcase.cases.access import cities_of
from dogcase.cases.models import Case, CaseMove, Event
from dogcase.cases.outcomes import case_outcomes
from dogcase.cases.pages import city_names, installed
from dogcase.documents.models import IssuedDocument


def move_panel(case: Case, user, events=None) -> dict[str, Any] | None:
    """What the case page says of a move: where the case came from (its history and documents), or where it
    went (a link for staff of that city too). `events`: all the case's events, when the page read them: a move
    records one on each case in its transaction (the moved case's opening names the case it came from, the
    case left records `case_moved_away`), so a case whose events name none has no move to read."""
    if events is not None and not any(_names_a_move(e) for e in events):
        return None
    # the moves in and out of the case, in one query (a case that came here and went on shows where it came from)
    moves = list(
        CaseMove.objects.filter(Q(to_case=case) | Q(from_case=case))
        .select_related("from_case", "from_case__dog", "to_case")
        .order_by("pk")
    )
    came = next((m for m in moves if m.to_case_id == case.pk), None)
    if came is not None:
        source = came.from_case
        j = installed(source.jurisdiction)
        history = [o for _e, o in case_outcomes(source, j)] if j is not None else []
        documents = [
            {
                "title": d.title,
                "number": d.number,
                "version": d.version,
                "issued_at": d.issued_at,
                "url": reverse("staff:moved_document", args=[case.number, d.pk]),
            }
            for d in IssuedDocument.objects.filter(case=source).order_by("issued_at", "id")
        ]
        return {
            "came": True,
            "city": city_names([source.jurisdiction])[source.jurisdiction],
            "number": source.number,
            "moved_on": came.moved_on,
            "history": history,
            "citation": _citation(case, "open_case"),
            "documents": documents,
        }
    went = next((m for m in moves if m.from_case_id == case.pk), None)
    if went is not None:
        there = went.to_case
        return {
            "came": False,
            "city": city_names([there.jurisdiction])[there.jurisdiction],
            "number": there.number,
            "moved_on": went.moved_on,
            "citation": _citation(case, "case_moved_away"),
            "url": reverse("staff:case", args=[there.number])
            if there.jurisdiction in cities_of(user)
            else "",
        }
    return None


def _names_a_move(e: Event) -> bool:
    """Whether the event is one a move records on the case (cases/acts/moves.py)."""
    return e.act == "case_moved_away" or (e.act == "open_case" and bool((e.data or {}).get("from_case")))


def _citation(case: Case, act: str) -> str:
    """The provision the hand-over was made under, as its event records it."""
    return Event.objects.filter(case=case, act=act).values_list("citation", flat=True).first() or ""

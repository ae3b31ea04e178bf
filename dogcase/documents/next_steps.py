"""What happens next, and by when: the box every owner-facing document carries (issue 8, item 5).

Computed from the case by the law engine at the moment the document is issued: each open obligation of the
owner and of the city, in plain words, with its date, the law that sets it and what the law says happens if
it is missed. Nothing here is ordinance-specific: the words, dates, citations and consequences all come from
the case's law pack through `Jurisdiction.obligations`.

Spanish (the owner's preferred language): the legal text stays English; `render_next_steps` prints, beside
each English statement, a Spanish explanation from the translation catalogue (dogcase/locale/es). A
statement the catalogue does not translate is shown in English with a note saying so — never dropped.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext

# The statuses of an obligation that still asks something of someone (the engine's words).
OPEN_STATUSES = ("overdue", "open", "available", "not_yet", "undetermined")


@dataclass(frozen=True)
class Consequence:
    what: str  # the law's words for what may follow (English)
    citation: str


@dataclass(frozen=True)
class NextStep:
    """One thing the owner or the city must (or may) do, and by when."""

    who: str  # "owner" | "city"
    what: str  # the law's plain words (English): "request a hearing on the ... declaration"
    kind: str  # due | not_before | window
    due: dt.date | dt.datetime | None
    status: str  # the engine's status (OPEN_STATUSES)
    citation: str  # every provision that sets the time, "; "-joined
    right: bool  # the owner's right: unused at the end of its time it is lost (not a duty that is overdue)
    consequences: tuple[Consequence, ...] = ()
    reason: str = ""  # why no date can be worked out yet (status undetermined; for staff: it names settings)
    # no date yet, but one known so far (a later date the owner keeps cannot be computed yet, e.g. the date the
    # notice was received is not recorded): that date, and the later ones in words with their citations
    at_least: dt.date | None = None
    later: tuple[str, ...] = ()
    citations: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    @property
    def due_day(self) -> dt.date | None:
        if isinstance(self.due, dt.datetime):
            return timezone.localtime(self.due).date()
        return self.due or self.at_least


def _citation_text(cites) -> str:
    seen: list[str] = []
    for c in cites or ():
        text = (c or {}).get("citation", "")
        if text and text not in seen:
            seen.append(text)
    return "; ".join(seen)


def _sort_key(step: NextStep):
    far = dt.date.max
    return (step.who != "owner", step.due_day or far, step.what)


def next_steps(case, *, at: dt.datetime, state=None) -> list[NextStep]:
    """The open obligations of the owner and of the city on `case` at `at`, the owner's first, each side by
    date. `state` is the case as the engine reads it (`cases.acts.case_state`); pass the state after a step
    when the document is issued inside that step, so that the clocks the step starts are in the box."""
    from dogcase.cases.acts import case_state, jurisdiction_of

    j = jurisdiction_of(case)
    state = state if state is not None else case_state(case)
    return steps_from(j.obligations(state, at), j)


def _known_so_far(ob, j) -> tuple[dt.date | None, tuple[str, ...]]:
    """An undetermined due date: the date known so far (the engine's lower bound) and the later ones the owner
    keeps, in words ("14 days after the notice being received (§ 90.15 (H))")."""
    answer = getattr(ob, "answer", None) or {}
    bound = (answer.get("bound") or {}).get("at_least")
    if ob.due is not None or not bound:
        return None, ()
    later = []
    for e in answer.get("entries", ()):
        period = e.get("period") or {}
        if e.get("status") != "undetermined" or not period.get("amount") or not e.get("trigger"):
            continue
        unit = "business days" if "business" in str(period.get("unit", "")) else "days"
        cite = (e.get("provision") or {}).get("citation", "")
        event = j.event_label(e["trigger"]) if j is not None else str(e["trigger"]).replace("_", " ")
        later.append(f"{period['amount']} {unit} after {event}{f' ({cite})' if cite else ''}")
    try:
        return dt.date.fromisoformat(str(bound)[:10]), tuple(later)
    except ValueError:
        return None, ()


def steps_from(obligations, j=None) -> list[NextStep]:
    """The box's lines from the engine's obligations (`Jurisdiction.obligations`), already computed; `j` the
    jurisdiction, for the city's words of the events a later date counts from."""
    out = []
    for ob in obligations:
        if ob.who not in ("owner", "city") or ob.status not in OPEN_STATUSES or ob.kind == "ongoing":
            continue
        out.append(
            NextStep(
                who=ob.who,
                what=ob.what,
                kind=ob.kind,
                due=ob.due,
                status=ob.status,
                citation=_citation_text(ob.citations),
                right=bool(getattr(ob, "right", False)),
                consequences=tuple(
                    Consequence(
                        what=c.get("what", ""), citation=(c.get("provision") or {}).get("citation", "")
                    )
                    for c in ob.consequences
                ),
                reason=ob.reason or "",
                citations=tuple(dict(c) for c in ob.citations),
                **dict(zip(("at_least", "later"), _known_so_far(ob, j), strict=True)),
            )
        )
    out.sort(key=_sort_key)
    return out


# ------------------------------------------------------------------------------------------- words


def date_words(value: dt.date | dt.datetime | None, language: str = "en") -> str:
    """A due date as a document writes it: "Monday, 14 December 2026" ("lunes, 14 de diciembre de 2026");
    an instant with its Minnesota time."""
    if value is None:
        return ""
    with translation.override(language):
        if isinstance(value, dt.datetime):
            local = timezone.localtime(value)
            # Translators: a date and time in a letter; Django date format characters (l weekday, j day,
            # F month, Y year, g:i a time)
            return date_format(local, pgettext("letter date and time", "l, j F Y, g:i a"))
        # Translators: a date in a letter; Django date format characters (l weekday, j day, F month, Y year)
        return date_format(value, pgettext("letter date", "l, j F Y"))


def _explain(step: NextStep, language: str) -> dict[str, Any]:
    """The Spanish (or other) explanation of one step, from the catalogue, in `language`."""
    with translation.override(language):
        what = gettext(step.what)
        translated = what != step.what
        when = date_words(step.due, language)
        if step.who == "owner":
            if step.kind == "not_before":
                sentence = gettext("You may act from %(date)s:") % {"date": when}
            elif step.right:
                sentence = gettext("You may do this until %(date)s:") % {"date": when}
            else:
                sentence = gettext("You must do this by %(date)s:") % {"date": when}
        elif step.kind == "not_before":
            sentence = gettext("The city may act from %(date)s:") % {"date": when}
        else:
            sentence = gettext("The city must do this by %(date)s:") % {"date": when}
        if step.due is None and step.at_least is not None:
            when = date_words(step.at_least, language)
            sentence = (
                gettext("You may do this until at least %(date)s, or later (see the English text):")
                if step.right
                else gettext(
                    "This must be done by %(date)s at the earliest, or later (see the English text):"
                )
            ) % {"date": when}
        elif step.due is None:
            sentence = (
                gettext("You: the date cannot be worked out yet.")
                if step.who == "owner"
                else gettext("The city: the date cannot be worked out yet.")
            )
        if step.kind == "not_before":
            missed = ""
        elif step.right:
            missed = gettext("If you do not do it in time, you lose this right.")
        elif step.consequences:
            missed = gettext("If this is not done in time, the law allows what follows (in English above).")
        elif step.who == "city":
            missed = gettext("If the city is late, it must still do it; the date shows how late it is.")
        else:
            missed = ""
        return {
            "sentence": sentence,
            "what": what if translated else "",
            "untranslated": not translated,
            "missed": missed,
        }


def box_rows(steps: list[NextStep], language: str = "en") -> list[dict[str, Any]]:
    """The rows of the "what happens next" box: the English statement (the legal text), the date, the
    citation, what happens if missed; and, for a language other than English, its explanation."""
    rows = []
    for step in steps:
        if step.right:
            missed = [
                {
                    "what": "If you do not do it by then, you lose this right.",
                    "citation": step.citation,
                }
            ]
        elif step.kind == "not_before":
            # a time before which one may not act: nothing is "missed"; the consequences attached to it are the
            # grounds for acting once it has come, already in its words
            missed = []
        else:
            missed = [{"what": c.what, "citation": c.citation} for c in step.consequences]
        if not missed and step.who == "city" and step.kind != "not_before":
            missed = [{"what": "The city must still do it; the date shows how late it is.", "citation": ""}]
        rows.append(
            {
                "who": step.who,
                "who_words": "You (the owner)" if step.who == "owner" else "The city",
                "what": (step.what[:1].upper() + step.what[1:]).rstrip("."),
                "when": date_words(step.due, "en"),
                "at_least": date_words(step.at_least, "en"),
                "later": step.later,
                "when_words": {"not_before": "not before", "window": "open until"}.get(step.kind, "by"),
                "overdue": step.status == "overdue",
                "citation": step.citation,
                "missed": missed,
                "explanation": _explain(step, language) if language != "en" else None,
            }
        )
    return rows


def render_next_steps(case, *, at: dt.datetime, language: str = "en", state=None, steps=None) -> str:
    """The "what happens next and by when" box as HTML, for an owner-facing document (or a page)."""
    steps = steps if steps is not None else next_steps(case, at=at, state=state)
    context = {
        "rows": box_rows(steps, language),
        "language": language,
        "as_of": date_words(timezone.localtime(at).date(), "en"),
        "as_of_translated": date_words(timezone.localtime(at).date(), language) if language != "en" else "",
    }
    with translation.override(language):
        return render_to_string("documents/_partials/next_steps.html", context)

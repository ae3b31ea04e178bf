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
from dataclasses import dataclass, field, replace
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext

from dogcase.documents.words import consequence_words, ground_words
from dogcase.law.procedure.words import ACT_WORDS, hold_words

# The statuses of an obligation that still asks something of someone (the engine's words).
OPEN_STATUSES = ("overdue", "open", "available", "not_yet", "undetermined")


@dataclass(frozen=True)
class Consequence:
    what: str  # the law's words for what may follow (English)
    citation: str
    # when it may not follow as soon as the time has passed (the engine's `held`: after an appeal, only once the
    # owner's time to comply after the decision has passed): the first date it may (None: not yet known) and
    # the times it waits for, in the law's words
    held: bool = False
    held_until: dt.date | None = None
    waits_for: tuple[tuple[str, str, str], ...] = ()  # (who, what, citation)
    ground: str = ""  # the pack's words for the ground, without the act ("The dog is not validly registered")
    act: str = ""  # seize | impound | order_impoundment
    trigger: str = ""  # the ground (an engine identifier: never printed)

    @property
    def hold(self) -> str:
        """Why it does not follow at once, in English ("Not before Thursday, 29 October 2026: the city must
        first wait until the owner's time to comply … has passed.")."""
        if not self.held:
            return ""
        return hold_words(
            {
                "until": self.held_until.isoformat() if self.held_until else None,
                "waits_for": [{"who": w, "what": t, "citation": c} for w, t, c in self.waits_for],
            },
            date_words,
        )


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
    # a time before which the city may not act (kind not_before): the grounds on which it may act once it has
    # come, one per ground (its provisions in every layer)
    grounds: tuple[Consequence, ...] = ()

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
        consequences = [_consequence(c) for c in ob.consequences]
        due, status, grounds = ob.due, ob.status, ()
        if ob.kind == "not_before" and consequences:
            # the city's wait before it may act: what it may act on, and when it really may — an appeal holds
            # it (§ 90.15 (J)(1): "and the owner has not filed an appeal"); while no date is known it is no
            # step the city may take by a date, and the row is left out
            grounds = sorted(_merged(consequences, by_ground=True), key=lambda g: g.citation.split("; ")[-1])
            if all(g.held and g.held_until is None for g in grounds):
                continue
            dates = [g.held_until if g.held else ob.due for g in grounds]
            if all(g.held for g in grounds) and ob.due is not None:
                due, status = max(ob.due, min(d for d in dates if d is not None)), "not_yet"
            consequences = []
        out.append(
            NextStep(
                who=ob.who,
                what=ob.what,
                kind=ob.kind,
                due=due,
                status=status,
                citation=_citation_text(ob.citations),
                right=bool(getattr(ob, "right", False)),
                consequences=tuple(_merged(consequences)),
                grounds=tuple(grounds),
                reason=ob.reason or "",
                citations=tuple(dict(c) for c in ob.citations),
                **dict(zip(("at_least", "later"), _known_so_far(ob, j), strict=True)),
            )
        )
    out.sort(key=_sort_key)
    return out


def _consequence(c) -> Consequence:
    held = c.get("held") or {}
    until = held.get("until")
    return Consequence(
        what=c.get("what", ""),
        citation=(c.get("provision") or {}).get("citation", ""),
        held=bool(held),
        held_until=dt.date.fromisoformat(until) if until else None,
        waits_for=tuple((w["who"], w["what"], w.get("citation", "")) for w in held.get("waits_for", ())),
        ground=c.get("ground", ""),
        act=c.get("act", ""),
        trigger=c.get("trigger", ""),
    )


def _merged(consequences: list[Consequence], *, by_ground: bool = False) -> list[Consequence]:
    """One line per consequence the law attaches, listing every provision that attaches it: the state's and
    the city's sterilization seizure and (J)(1)(e) are one seizure, not three lines. Consequences merge when
    they are the same act held the same way (`by_ground`: the same ground, as a ground of a city row is
    listed); the line keeps the fullest of their words."""
    groups: dict[tuple, list[Consequence]] = {}
    for c in consequences:
        key = (c.trigger,) if by_ground else ()
        key += (c.act, c.held, c.held_until, c.waits_for)
        groups.setdefault(key, []).append(c)
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(
                group[0] if not by_ground else replace(group[0], what=group[0].ground or group[0].what)
            )
            continue
        citation = "; ".join(dict.fromkeys(c.citation for c in group if c.citation))
        ground = max((c.ground for c in group), key=len)
        noun = ACT_WORDS.get(group[0].act, group[0].act).capitalize()
        what = ground if by_ground else f"{noun} authorized under {citation}: {ground}"
        out.append(replace(group[0], what=what, citation=citation, ground=ground))
    return out


# ------------------------------------------------------------------------------------------- words


def date_words(value: dt.date | dt.datetime | None, language: str = "en") -> str:
    """A due date as a document writes it: "Monday, 14 December 2026" ("lunes 14 de diciembre de 2026");
    an instant with its Minnesota time ("Tuesday, 16 June 2026, 2:00 p.m."; "martes 16 de junio de 2026, a
    las 14:00")."""
    if value is None:
        return ""
    with translation.override(language):
        if isinstance(value, dt.datetime):
            local = timezone.localtime(value)
            # Translators: a date and time in a letter; Django date format characters (l weekday, j day,
            # F month, Y year, g:i a time; G:i a 24-hour time). One o'clock has its own form ("a la 1:00").
            if local.hour == 1:
                return date_format(local, pgettext("letter date and time, one o'clock", "l, j F Y, g:i a"))
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
                + " "
                + gettext("The city will tell you when this starts.")
                if step.who == "owner"
                else gettext("The city: the date cannot be worked out yet.")
            )
        if step.kind == "not_before":
            missed = _grounds_explained(step, language) if step.grounds else ""
        elif step.right:
            missed = gettext("If you do not do it in time, you lose this right.")
        elif step.consequences:
            missed = _consequences_explained(step, language)
            held = [c for c in step.consequences if c.held]
            if held:
                missed = " ".join([missed, *dict.fromkeys(_hold_explained(c, language) for c in held)])
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


def _grounds_explained(step: NextStep, language: str) -> str:
    """The grounds on which the city may act once its wait is over, in `language` (their citations kept), and
    why it may not act at once; a ground the catalogue does not translate is pointed to in the English above."""
    parts = [
        ground_words(g.what, g.citation, language)
        or gettext("(another ground, written in English only, above)")
        for g in step.grounds
    ]
    said = gettext("Only on one of these grounds: %(grounds)s.") % {"grounds": "; ".join(parts)}
    return " ".join([said, *dict.fromkeys(_hold_explained(g, language) for g in step.grounds if g.held)])


def _consequences_explained(step: NextStep, language: str) -> str:
    """What the law allows once the step's time is missed, in `language` (each consequence translated, its
    citation kept); a consequence the catalogue does not translate is pointed to in the English above."""
    said = [consequence_words(c.what, c.citation, language) for c in step.consequences]
    if not any(said):
        return gettext("If this is not done in time, the law allows what follows (in English above).")
    parts = [
        capfirst(s) + "." if s else gettext("(another consequence, written in English only, above)")
        for s in said
    ]
    return " ".join([gettext("If this is not done in time, the law allows the following."), *parts])


def _hold_explained(c: Consequence, language: str) -> str:
    """Why the consequence does not follow at once, in `language` (the times it waits for in the catalogue's
    words where it has them; their citations kept)."""
    waited = []
    for who, what, citation in c.waits_for:
        words = (
            gettext("the owner's time to %(what)s")
            if who == "owner"
            else gettext("the city's time to %(what)s")
        ) % {"what": gettext(what)}
        waited.append(f"{words} ({citation})" if citation else words)
    waited_words = "; ".join(waited)
    if c.held_until is not None:
        when = date_words(c.held_until, language)
        if waited:
            return gettext("Not before %(date)s: the city must first wait until %(waited)s has passed.") % {
                "date": when,
                "waited": waited_words,
            }
        return gettext("Not before %(date)s.") % {"date": when}
    if waited:
        return gettext(
            "Not yet: the city must first wait until %(waited)s has passed, and when that is cannot be worked "
            "out yet."
        ) % {"waited": waited_words}
    return gettext("Not as the case stands now.")


def box_rows(steps: list[NextStep], language: str = "en") -> list[dict[str, Any]]:
    """The rows of the "what happens next" box: the English statement (the legal text), the date, the
    citation, what happens if missed; and, for a language other than English, its explanation."""
    rows = []
    for step in steps:
        if step.kind == "not_before":
            # a time from which one may act (the annual review: "Beginning six months after …, an owner may
            # request annually", § 90.15 (C)(7), 347.51 subd. 3a): waiting loses nothing, nothing is "missed"
            missed = []
        elif step.right:
            then = "by then" if step.due is not None or step.at_least is not None else "in time"
            missed = [
                {"what": f"If you do not do it {then}, you lose this right.", "citation": step.citation}
            ]
        else:
            missed = [{"what": c.what, "citation": c.citation, "hold": c.hold} for c in step.consequences]
        if not missed and step.who == "city" and step.kind != "not_before":
            missed = [{"what": "The city must still do it; the date shows how late it is.", "citation": ""}]
        grounds = [{"what": g.what, "citation": g.citation, "hold": g.hold} for g in step.grounds]
        # a hold every ground shares is said once, after them
        holds = {g["hold"] for g in grounds}
        grounds_hold = holds.pop() if len(holds) == 1 else ""
        if grounds_hold:
            grounds = [{**g, "hold": ""} for g in grounds]
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
                "grounds": grounds,
                "grounds_hold": grounds_hold,
                # no date and none known so far: for the owner, the event that starts the time has not
                # happened or is not on record yet (never the law's text defect: that is for the city attorney)
                "starts_later": step.who == "owner" and step.due is None and step.at_least is None,
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

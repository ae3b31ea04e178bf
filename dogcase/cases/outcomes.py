"""What happened on a case, in words: each recorded step read as its outcome, with its date ("The City Council
confirmed the designation on 3 December 2026."), in English or in the owner's language where the catalogue
translates the sentence. The sentence is the law pack's `outcome:` for the choices the step was taken with
(`dogcase.law.procedure.outcome_text`); a pack that writes none gets one built from the step's label. The
owner's history, the staff case timeline and every "where it stands" read it from here; a case's `stage` is
the sentence of its latest act, kept when the act is recorded (`stage_text`)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, override, pgettext

from dogcase.cases.models import Case, Event, case_state, parse_value
from dogcase.cases.translation import translated
from dogcase.law import InputError
from dogcase.law.procedure import StepOutcome, outcome_text

STAGE_LIMIT = 200  # Case.stage's length
OWNER_SUBJECT = "The owner "
YOU_SUBJECT = "You "


def step_of(j, step_id: str, at: dt.datetime, designation: str | None = None):
    """The step as the law stood when it was taken (None: a step the law no longer has)."""
    if j is None:
        return None
    day = timezone.localtime(at).date()
    step = next((s for s in j.procedure(day) if s.id == step_id), None)
    return step.for_designation(designation) if step is not None else None


class _Choices:
    """The words of a step's choices, read from the law only when a sentence names one."""

    def __init__(self, j, case: Case | None, step, at: dt.datetime, language: str = "en") -> None:
        self.j, self.case, self.step, self.at, self.language = j, case, step, at, language
        self.labels: dict[str, dict[str, str]] | None = None
        self.all_translated = True  # every choice said was in the page's language

    def __call__(self, input_id: str, value: Any) -> str | None:
        inp = next((i for i in self.step.inputs if i.id == input_id), None) if self.step else None
        if inp is None or value in (None, ""):
            return None
        if inp.kind == "designation":
            known = self.j.designations.get(str(value))
            words = known.label if known is not None else None
        else:
            words = self._labels().get(input_id, {}).get(str(value))
        if not words:
            return None
        if self.language != "en":
            with override(self.language):
                own = gettext(words)
            if own != words:
                return _lower_first(own)
            self.all_translated = False
        return _lower_first(words)

    def _labels(self) -> dict[str, dict[str, str]]:
        if self.labels is None:
            self.labels = {}
            if self.case is not None:
                try:
                    found = self.j.input_choices(self.step.id, case_state(self.case), self.at)
                except (InputError, KeyError, ValueError):
                    found = {}
                self.labels = {
                    k: {str(c.get("value")): str(c.get("label") or "") for c in v} for k, v in found.items()
                }
        return self.labels


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def stage_text(j, step, inputs: Mapping[str, Any], *, case: Case | None = None, at: dt.datetime) -> str:
    """Where a case stands once `step` is taken with `inputs`: its outcome, in English, without a date (what
    `Case.stage` keeps)."""
    words = outcome_text(step, inputs, choice_words=_Choices(j, case, step, at))
    return words[:STAGE_LIMIT]


def event_date(e: Event, step, corrections: Mapping[int, Mapping[str, Any]] | None = None) -> dt.date:
    """The day the act happened: the date of the fact its legal input records (after corrections: the day
    the Council met, the owner received the notice), else the day it was recorded."""
    legal = step.legal_input if step is not None else None
    if legal is not None:
        recorded = {**(e.data.get("events") or {}), **((corrections or {}).get(e.pk) or {})}
        for name in legal.all_records:
            value = parse_value(recorded.get(name))
            if isinstance(value, dt.datetime):
                return timezone.localtime(value).date()
            if isinstance(value, dt.date):
                return value
        value = parse_value((e.data.get("inputs") or {}).get(legal.id))
        if isinstance(value, dt.datetime):
            return timezone.localtime(value).date()
        if isinstance(value, dt.date):
            return value
    return timezone.localtime(e.at).date()


@functools.lru_cache(maxsize=4096)
def day_words(day: dt.date, language: str = "en") -> str:
    """ "3 December 2026" ("3 de diciembre de 2026"). Said once for each day and language in a process: the
    words depend on nothing else (the catalogues are read once; a case page names a day for each of its acts)."""
    with override(language):
        # Translators: the date of what happened on a case; Django date format characters (j day, F month,
        # Y year)
        return date_format(day, pgettext("outcome date", "j F Y"))


def event_outcome(
    e: Event,
    j,
    *,
    language: str = "en",
    viewer=None,
    case: Case | None = None,
    corrections: Mapping[int, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """What the step event `e` did, as a sentence with its date: {"text": "The City Council confirmed the
    designation on 3 December 2026.", "what": the sentence without its date, "on": the date in words,
    "day": the date, "lang": the language the sentence is in ("en" where the catalogue does not translate
    it)}. `viewer`: the owner reading it (a filing of theirs says "You ...")."""
    data = e.data or {}
    step = step_of(j, e.act, e.at, data.get("designation") or None)
    inputs = data.get("inputs") or {}
    choices = _Choices(j, case or e.case, step, e.at, language)
    english = outcome_text(
        step, inputs, label=data.get("label") or "", choice_words=_Choices(j, case or e.case, step, e.at)
    )
    filed = data.get("filed_by") or {}
    mine = viewer is not None and filed.get("person") == getattr(viewer, "pk", None)
    if mine and english.startswith(OWNER_SUBJECT):
        english = YOU_SUBJECT + english.removeprefix(OWNER_SUBJECT)
    day = event_date(e, step, corrections)
    lang, what = "en", english
    if language != "en":
        own = _translated(step, inputs, language, choices, you=mine)
        if own is not None:
            lang, what = language, own
    on = day_words(day, lang)
    text = _on_day(lang) % {"what": what, "date": on}
    return {"text": text, "what": what, "on": on, "day": day, "lang": lang}


@functools.lru_cache(maxsize=64)
def _on_day(language: str) -> str:
    """The sentence of what happened and its day, in `language` (read once for each language)."""
    with override(language):
        # Translators: what happened on a case and the day it happened ("The City Council confirmed the
        # designation on 3 December 2026.")
        return pgettext("outcome", "%(what)s on %(date)s.")


def _translated(
    step, inputs: Mapping[str, Any], language: str, choices: _Choices, *, you: bool
) -> str | None:
    """The pack's sentence in `language`, from the catalogue; None where it has no translation (a generic
    sentence, a sentence not yet translated, a choice said only in English)."""
    written = step.outcome.sentence(inputs) if step is not None and step.outcome is not None else None
    if not written:
        return None
    candidates = (
        [YOU_SUBJECT + written.removeprefix(OWNER_SUBJECT)]
        if you and written.startswith(OWNER_SUBJECT)
        else []
    )
    candidates.append(written)
    for english in candidates:
        own = translated(english, language)
        if own is None:
            continue
        translated_step = _with_sentence(step, own)
        words = outcome_text(translated_step, inputs, choice_words=choices)
        return words if choices.all_translated else None
    return None


def _with_sentence(step, sentence: str):
    return replace(step, outcome=StepOutcome(text=sentence))


def case_outcomes(case: Case, j, *, language: str = "en", viewer=None) -> list[tuple[Event, dict[str, Any]]]:
    """Every step of the case, oldest first, with what it did."""
    events = list(case.events.filter(kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]).order_by("seq"))
    corrections = Event.corrected_dates(events)
    return [
        (e, event_outcome(e, j, language=language, viewer=viewer, case=case, corrections=corrections))
        for e in events
        if e.kind == Event.Kind.STEP
    ]


def latest_outcome(case: Case, j, *, language: str = "en", viewer=None) -> dict[str, Any] | None:
    """Where the case stands: what its latest act did, with its date; None before any step."""
    events = list(case.events.filter(kind__in=[Event.Kind.STEP, Event.Kind.CORRECTION]).order_by("seq"))
    steps = [e for e in events if e.kind == Event.Kind.STEP]
    if not steps:
        return None
    return event_outcome(
        steps[-1], j, language=language, viewer=viewer, case=case, corrections=Event.corrected_dates(events)
    )

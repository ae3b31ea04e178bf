"""How the documents write a recorded value: dates, times and instants in words, any value as text; and, beside
the English legal text, a name or a consequence in the owner's language."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import pgettext

from dogcase.cases.translation import translated  # noqa: F401 - the owner's language, for the documents


def date_words(value: dt.date | dt.datetime | None, tz=None) -> str:
    """A date as the documents write it: "Monday, 14 December 2026"."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        value = (value.astimezone(tz) if tz else timezone.localtime(value)).date()
    return f"{value:%A}, {value.day} {value:%B %Y}"


def time_words(value: dt.datetime, tz=None) -> str:
    local = value.astimezone(tz) if tz else timezone.localtime(value)
    hour = local.hour % 12 or 12
    half = "a.m." if local.hour < 12 else "p.m."
    return f"{hour}:{local.minute:02d} {half}"


def instant_words(value: dt.datetime, tz=None) -> str:
    """ "Monday, 14 December 2026 at 10:00 a.m."."""
    return f"{date_words(value, tz)} at {time_words(value, tz)}"


def words(value: Any, tz=None) -> str | None:
    """Any recorded value as text; None when there is none."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return instant_words(value, tz)
    if isinstance(value, dt.date):
        return date_words(value)
    if isinstance(value, str):
        parsed = parse(value)
        if parsed is not value:
            return words(parsed, tz)
        return value.strip() or None
    if isinstance(value, list | tuple):
        parts = [w for w in (words(v, tz) for v in value) if w]
        return "; ".join(parts) or None
    return str(value)


def parse(value: str) -> Any:
    try:
        if len(value) == 10 and value[4] == "-" and value[7] == "-":
            return dt.date.fromisoformat(value)
        if "T" in value and value[:4].isdigit():
            return dt.datetime.fromisoformat(value)
    except ValueError:
        pass
    return value


def humanize(value: str) -> str:
    return str(value).replace("_", " ")


# ------------------------------------------------------------------------- in the owner's language
# The legal text stays English; what a document or a page says beside it in the owner's language comes from the
# translation catalogue (dogcase/locale). Each function below returns its English input unchanged for English.


def place_name(name: str, language: str = "en", *, in_sentence: bool = False) -> str:
    """A jurisdiction's or an office's name as a reader of `language` sees it: the kind of government is
    translated, the place's own name never is ("City of Battle Lake, Minnesota" -> "Ciudad de Battle Lake,
    Minnesota"; `in_sentence`, with its article: "la Ciudad de Battle Lake, Minnesota"). A name that is not
    "<City|State|County|Town> of <place>", or has no translation, is written as it is."""
    kind, of, place = name.partition(" of ")
    if language == "en" or not of or not place:
        return name
    with translation.override(language):
        if in_sentence:
            patterns = {
                "City": pgettext("government, in a sentence", "City of %(place)s"),
                "State": pgettext("government, in a sentence", "State of %(place)s"),
                "County": pgettext("government, in a sentence", "County of %(place)s"),
                "Town": pgettext("government, in a sentence", "Town of %(place)s"),
            }
        else:
            patterns = {
                "City": pgettext("government", "City of %(place)s"),
                "State": pgettext("government", "State of %(place)s"),
                "County": pgettext("government", "County of %(place)s"),
                "Town": pgettext("government", "Town of %(place)s"),
            }
    pattern = patterns.get(kind)
    if pattern is None or pattern == f"{kind} of %(place)s":
        return name
    return pattern % {"place": place}


def consequence_words(what: str, citation: str, language: str) -> str | None:
    """What the law allows once a time is missed, in `language`. `what` is the engine's English ("Seizure
    authorized under § 90.15 (J)(1)(e): The owner is required to sterilize the dog and fails to do so"):
    the act and the reason the pack gives are translated, the citation is kept. None when the catalogue does
    not translate the act or the reason."""
    if language == "en" or not what:
        return what or None
    whole = translated(what, language)
    if whole is not None:
        return whole
    head, sep, reason = what.partition(f" authorized under {citation}: ") if citation else ("", "", "")
    if not sep:
        found = re.fullmatch(r"(.+?) authorized under (.+?): (.+)", what, flags=re.DOTALL)
        if found is None:
            return None
        head, citation, reason = found.groups()
    msgid = f"{head} authorized under %(citation)s"
    with translation.override(language):
        act = pgettext("consequence", msgid)
        because = pgettext("consequence", reason)
    if act == msgid or because == reason:
        return None
    return f"{act % {'citation': citation}}: {because}"


def ground_words(ground: str, citation: str, language: str) -> str | None:
    """A ground on which the law allows the city to act ("The dog is not validly registered under this
    section"), in `language` with its citation; None when the catalogue does not translate it."""
    if language == "en":
        return f"{ground} ({citation})" if citation else ground
    with translation.override(language):
        own = pgettext("consequence", ground)
    if own == ground:
        return None
    return f"{own} ({citation})" if citation else own

"""Template filters for the staff pages' wording."""

import datetime as dt

from django import template
from django.template.defaultfilters import date
from django.utils import translation

from dogcase.staff.actwords import stage_words as _stage_words

register = template.Library()


@register.filter
def stage_words(stage: str) -> str:
    """Where a case stands, in a clerk's words (staff/actwords.py)."""
    return _stage_words(stage)


# The format characters whose words depend on more than the wall-clock fields and the language (the time
# zone's name or offset, the instant): a format with one is formatted each time.
_ZONE_CHARS = frozenset("eIOTZUcr")
_DATES: dict[tuple, str] = {}
_DATES_KEPT = 20_000


@register.filter(expects_localtime=True, is_safe=False)
def datefmt(value, arg: str = ""):
    """Django's `date` filter, each value said once a process in each format and language: the words depend on
    the value's date and time of day as shown (the template makes it local first), the format and the
    language's names of days and months, nothing else (a case page says dozens of dates, the same on every
    view of it)."""
    if not isinstance(value, dt.date) or not arg or not _ZONE_CHARS.isdisjoint(arg):
        return date(value, arg)
    key = (arg, translation.get_language(), value.__class__, value.isoformat())
    words = _DATES.get(key)
    if words is None:
        if len(_DATES) >= _DATES_KEPT:
            _DATES.clear()
        words = _DATES[key] = date(value, arg)
    return words

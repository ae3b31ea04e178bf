"""Template filters for the staff pages' wording."""

from django import template

from dogcase.staff.actwords import stage_words as _stage_words

register = template.Library()


@register.filter
def stage_words(stage: str) -> str:
    """Where a case stands, in a clerk's words (staff/actwords.py)."""
    return _stage_words(stage)

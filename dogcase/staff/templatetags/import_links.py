"""{% load import_links %}: whether the user may bring records in (the nav's Import link)."""

from django import template

from dogcase.staff.views.imports import may_import

register = template.Library()


@register.filter
def may_bring_in(user) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and may_import(user)

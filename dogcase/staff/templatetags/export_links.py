"""The "Export CSV · Export XLSX" links of a list page, carrying the filters on screen, for those who may take
lists out (dogcase/exports/access.py); and the test the navigation's Export link asks."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from dogcase.exports.access import may_export

register = template.Library()

# the position in a list is not a filter: an export holds every row the filters select
NOT_FILTERS = ("page", "after", "before")


@register.filter
def may_take_out(user) -> bool:
    return may_export(user)


@register.simple_tag(takes_context=True)
def export_links(context, kind: str):
    request = context.get("request")
    if request is None or not may_export(request.user):
        return ""
    params = request.GET.copy()
    for key in NOT_FILTERS:
        params.pop(key, None)
    query = params.urlencode()
    suffix = f"?{query}" if query else ""
    return format_html(
        '<p class="export-links"><a href="{}" download>Export CSV</a> · <a href="{}" download>Export XLSX</a>'
        ' <span class="muted">(every row the filters select, not only this page)</span></p>',
        reverse("staff:export_list", args=[kind, "csv"]) + suffix,
        reverse("staff:export_list", args=[kind, "xlsx"]) + suffix,
    )

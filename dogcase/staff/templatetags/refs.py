"""Case and incident numbers that cannot be taken for each other: each shown with its kind in words and its
own look (`.ref-case`, `.ref-incident` in site.css) — BL-2026-0001 and BL-I2026-0001 differ by one letter."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def case_ref(number: str, link: bool = True):
    """<a class="ref ref-case" href=…><span class="ref-kind">Case</span> BL-2026-0001</a>"""
    return _ref("case", "Case", number, reverse("staff:case", args=[number]) if link else "")


@register.simple_tag
def incident_ref(number: str, link: bool = True):
    """<a class="ref ref-incident" href=…><span class="ref-kind">Incident</span> BL-I2026-0001</a>"""
    return _ref("incident", "Incident", number, reverse("staff:incident", args=[number]) if link else "")


def _ref(kind: str, words: str, number: str, href: str):
    if href:
        return format_html(
            '<a class="ref ref-{}" href="{}"><span class="ref-kind">{}</span> {}</a>',
            kind,
            href,
            words,
            number,
        )
    return format_html(
        '<span class="ref ref-{}"><span class="ref-kind">{}</span> {}</span>', kind, words, number
    )

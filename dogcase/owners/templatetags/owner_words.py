"""The owner's pages in the owner's language: a name or a statement of the law pack (a designation, an act, a
document's title) in the owner's language when the catalogue translates it, otherwise in English and said to be
English. English pages get the text exactly as written."""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.translation import get_language, gettext

from dogcase.documents.words import place_name as _place_name
from dogcase.documents.words import translated

register = template.Library()


def _language() -> str:
    return (get_language() or "en").split("-")[0]


@register.simple_tag
def owner_words(text, english: bool = False):
    """`text` in the page's language. Untranslated: the English, marked as English ("(en inglés)"). With
    `english`, a translated text keeps the English beside it (the law's own term: "perro potencialmente
    peligroso (en inglés: potentially dangerous dog)")."""
    text = str(text or "")
    language = _language()
    if language == "en" or not text:
        return conditional_escape(text)
    own = translated(text, language)
    if own is None:
        return format_html('<span lang="en">{}</span> {}', text, gettext("(in English)"))
    if english:
        return format_html(
            '{} <span class="muted">({} <span lang="en">{}</span>)</span>', own, gettext("in English:"), text
        )
    return conditional_escape(own)


@register.filter
def place_name(name):
    """A jurisdiction's name as the page's reader sees it ("Ciudad de Battle Lake, Minnesota")."""
    return _place_name(str(name or ""), _language())

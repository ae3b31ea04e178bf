"""What every owner-facing document carries beside its legal text (issue 8, item 5): the "what happens next
and by when" box, and — when the owner's preferred language is not English — an explanation in that
language. The legal text itself stays English.

The documents app calls `owner_reading(...)` when it renders a document whose audience is the owner and
puts the two HTML fragments in the page (documents/_partials/next_steps.html and owner_explanation.html).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from dogcase.cases.models import Case, Person
from dogcase.documents.next_steps import date_words, next_steps, render_next_steps, steps_from
from dogcase.documents.words import place_name, translated


def owner_language(case: Case, recipient: Person | None = None) -> str:
    """The language of the owner's documents: the recipient's preferred language; without a recipient, the
    first language other than English among the dog's current owners (the explanation is printed beside the
    English text, so adding it never takes anything from an owner who reads English)."""
    if recipient is not None:
        return recipient.preferred_language or Person.Language.ENGLISH
    languages = (
        case.dog.ownerships.filter(until__isnull=True)
        .order_by("id")
        .values_list("person__preferred_language", flat=True)
    )
    return next((lang for lang in languages if lang and lang != Person.Language.ENGLISH), "en")


@dataclass(frozen=True)
class OwnerReading:
    language: str
    next_steps: str  # HTML: the box, English with the explanation beside each line
    explanation: str  # HTML: the explanation of the whole document in the owner's language ("" in English)


def owner_reading(
    case: Case,
    *,
    at: dt.datetime,
    title: str,
    language: str | None = None,
    state=None,
    office_name: str = "",
    office_contact: str = "",
    hearing_at: dt.datetime | None = None,
    hearing_place: str = "",
    obligations=None,
) -> OwnerReading:
    """The box and the explanation for a document titled `title` issued on `case` at `at`. `state` is the
    case as the engine reads it after the step that issues the document (see next_steps.next_steps);
    `hearing_at`/`hearing_place` for a notice of hearing (the explanation then names the hearing and its
    calendar file). `obligations`: the engine's obligations for that state, when already computed."""
    language = language or owner_language(case)
    if obligations is not None:
        from dogcase.law import library

        steps = steps_from(obligations, library().get(case.jurisdiction))
    else:
        steps = next_steps(case, at=at, state=state)
    box = render_next_steps(case, at=at, language=language, steps=steps)
    explanation = ""
    if language != "en":
        from dogcase.law import library

        j = library().get(case.jurisdiction)
        with translation.override(language):
            context = {
                "language": language,
                "heading": gettext("Explanation in Spanish"),
                "what": gettext("This is an official document of %(city)s about your dog %(dog)s: %(title)s.")
                % {
                    "city": place_name(j.name, language, in_sentence=True),
                    "dog": case.dog.name,
                    "title": _title_words(title, language),
                },
                "legal": gettext(
                    "The legal text of this document is in English, and the English text is the one that counts. "
                    "This explanation in Spanish helps you understand it; it does not replace it."
                ),
                "box": gettext(
                    "The box “What happens next, and by when” lists what you must or may do, the last day to do "
                    "it, the law that says so and what happens if the date passes. Each line is explained in "
                    "Spanish."
                ),
                "hearing": (
                    gettext("Your hearing is on %(date)s at %(place)s.")
                    % {"date": date_words(hearing_at, language), "place": hearing_place}
                    if hearing_at and hearing_place
                    else ""
                ),
                "calendar": gettext(
                    "The calendar file attached to this notice (.ics) adds the hearing to your phone's or "
                    "computer's calendar."
                )
                if hearing_at
                else "",
                "interpreter": gettext(
                    "You may bring someone who reads English to help you, or ask the city whether an interpreter "
                    "can help."
                ),
                "contact": gettext("If you have questions, contact %(office)s: %(contact)s.")
                % {"office": place_name(office_name, language, in_sentence=True), "contact": office_contact}
                if office_name and office_contact
                else "",
            }
            explanation = render_to_string("documents/_partials/owner_explanation.html", context)
    return OwnerReading(language=language, next_steps=box, explanation=explanation)


def _title_words(title: str, language: str) -> str:
    """The document's title in the explanation: in `language` with the English title beside it, or the English
    title said to be English when the catalogue does not translate it."""
    own = translated(title, language)
    if own is None:
        return gettext("“%(title)s” (in English)") % {"title": title}
    return gettext("“%(translated)s” (in English: “%(title)s”)") % {"translated": own, "title": title}

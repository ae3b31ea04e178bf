"""What a message says: its subject and body, in the recipient's language (English, or Spanish for an owner
who asked for letters in Spanish), in plain words with the citation beside each deadline. Bodies never carry
the engine's identifiers (step ids, deadline ids): only what the law packs and the acts say in words.

The context of each kind (all values JSON-safe, dates as ISO strings):

    document_issued     title, number, issued_on, citation
    deadline_soon       what, due, days, citation, consequences: [{what, citation}]
    deadline_missed     what, due, citation, consequences
    hearing_scheduled   label, when (ISO date and time), place
    proof_accepted      condition, citation
    proof_rejected      condition, reason, citation
    portal_sign_in_link url
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from dogcase.documents.next_steps import date_words
from dogcase.owners import urls_util as links
from dogcase.owners.mail import one_line


@dataclass(frozen=True)
class Composed:
    subject: str
    body: str


def _date(value: Any, language: str) -> str:
    if not value:
        return ""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value) if "T" in value else dt.date.fromisoformat(value)
    return date_words(value, language)


def _cited(text: str, citation: str) -> str:
    return f"{text} ({citation})" if citation else text


def _consequences(context: dict, language: str) -> list[str]:
    lines = []
    for c in context.get("consequences") or []:
        if c.get("what"):
            lines.append(
                gettext("If it is missed: %(what)s")
                % {"what": _cited(gettext(c["what"]), c.get("citation", ""))}
            )
    return lines


def compose(case, kind: str, *, context: dict, language: str, recipient_name: str, to: str) -> Composed:
    """The message's subject and body; `to` is "owners" or "staff" (staff messages are in English)."""
    from dogcase.accounts.manage import city_name

    language = language if to == "owners" else "en"
    with translation.override(language):
        city = city_name(case.jurisdiction)
        about = (
            gettext("Case %(number)s, your dog %(dog)s")
            if to == "owners"
            else "Case %(number)s, the dog %(dog)s"
        )
        # names typed by people reach the body as one line each: no CR/LF of theirs in a message
        recipient_name = one_line(recipient_name)
        about = about % {"number": case.number, "dog": one_line(case.dog.name)}
        subject, lines = _kind_lines(kind, context, language, to)
        greeting = (
            gettext("Dear %(name)s,") % {"name": recipient_name} if to == "owners" else f"{recipient_name},"
        )
        body = [
            greeting,
            "",
            gettext("%(city)s writes about: %(about)s.") % {"city": city, "about": about},
            "",
        ]
        body += lines
        body.append("")
        if to == "owners":
            if language != "en":
                body.append(
                    gettext(
                        "The law's own words are in English; the English documents the city sent you are the "
                        "ones that count."
                    )
                )
            body.append(
                gettext(
                    "See your case, the documents sent to you and what is due in the owner portal: %(url)s"
                )
                % {"url": links.portal_url()}
            )
        else:
            body.append(f"The case: {links.staff_case_url(case.number)}")
        body += ["", gettext("This message was sent by dogcase for %(city)s.") % {"city": city}]
        return Composed(subject=f"{city}: {subject} — {case.number}"[:300], body="\n".join(body) + "\n")


def _kind_lines(kind: str, c: dict, language: str, to: str) -> tuple[str, list[str]]:
    owner = to == "owners"
    if kind == "document_issued":
        line = gettext(
            "The city has issued a document to you: %(title)s, No. %(number)s, dated %(date)s."
        ) % {
            "title": c.get("title", ""),
            "number": c.get("number", ""),
            "date": _date(c.get("issued_on"), language),
        }
        lines = [_cited(line, c.get("citation", ""))]
        lines.append(
            gettext(
                "The document itself, served on you on paper, is the one that counts: it says what was decided, "
                "what you must do and by when."
            )
        )
        return gettext("a document was issued"), lines
    if kind in ("deadline_soon", "deadline_missed"):
        what = gettext(c.get("what", "")) if owner else c.get("what", "")
        due = _date(c.get("due"), language)
        if kind == "deadline_soon":
            days = int(c.get("days") or 0)
            if owner:
                line = (
                    gettext("In %(days)s days, on %(date)s, your time ends to: %(what)s")
                    if c.get("right")
                    else gettext("In %(days)s days, by %(date)s, you must: %(what)s")
                ) % {"days": days, "date": due, "what": what}
            else:
                line = f"In {days} days, by {due}: {what}"
            subject = gettext("due in %(days)s days") % {"days": days}
        else:
            if owner and c.get("right"):
                line = gettext("Your time ended on %(date)s, unused: %(what)s") % {"date": due, "what": what}
            elif owner:
                line = gettext(
                    "The last day was %(date)s, and the city has no record that it was done: %(what)s"
                ) % {"date": due, "what": what}
            else:
                line = f"Overdue since {due}: {what}"
            subject = gettext("a deadline was missed")
        lines = [_cited(line, c.get("citation", ""))]
        if owner and c.get("right"):
            lines.append(gettext("It is a right, not a duty: unused in time, it is lost."))
        lines += (
            _consequences(c, language)
            if owner
            else [
                _cited(f"If missed: {x['what']}", x.get("citation", ""))
                for x in c.get("consequences") or []
                if x.get("what")
            ]
        )
        if owner and kind == "deadline_missed" and not c.get("right"):
            lines.append(gettext("If you did it already, tell the city and send the proof."))
        return subject, lines
    if kind == "hearing_scheduled":
        when = _date(c.get("when"), language)
        line = gettext("A hearing is scheduled: %(when)s, at %(place)s.") % {
            "when": when,
            "place": c.get("place") or gettext("a place the city will tell you"),
        }
        lines = [line]
        if owner:
            lines.append(gettext("The notice of hearing the city sends you says what the hearing is about."))
        return gettext("a hearing is scheduled"), lines
    if kind == "proof_accepted":
        line = gettext("The city accepted the proof you sent: %(condition)s.") % {
            "condition": c.get("condition", "")
        }
        return gettext("proof accepted"), [_cited(line, c.get("citation", ""))]
    if kind == "proof_rejected":
        line = gettext(
            "The city did not accept the proof you sent: %(condition)s. The reason: %(reason)s"
        ) % {
            "condition": c.get("condition", ""),
            "reason": c.get("reason", ""),
        }
        lines = [
            _cited(line, c.get("citation", "")),
            gettext("The condition is not met until proof is accepted."),
        ]
        return gettext("proof not accepted"), lines
    if kind == "portal_sign_in_link":
        return gettext("your sign-in link"), [
            gettext(
                "Open this link to sign in to the owner portal (it works once, for a short time): %(url)s"
            )
            % {"url": c.get("url", "")}
        ]
    raise ValueError(f"unknown message kind {kind!r}")

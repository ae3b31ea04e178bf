"""The portal on the owner's notices: the portal's address, the owner's case access code and a QR code of the
portal link. Codes are stored hashed, so the code in clear exists only while a notice is issued: issuing an
owner-facing document prints the recipient's code inside the act's transaction (`codes_for_issue`: the
code the owner already holds, derived again — dogcase.owners.codes.code_for_notice), and the document-fill sources `portal.address` and `portal.code` read it here. A draft
(the preview before issuing) says where the code will be; a notice that is posted says to ask the city for it.
Every owner-facing document prints the block "Your case online" (`PORTAL_TEXT`), in every city's documents
and the state's; the addresses are the site's (dogcase.owners.urls_util)."""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Mapping

from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from dogcase.owners.urls_util import portal_sign_in_url

_ISSUING: contextvars.ContextVar[dict[int, str] | None] = contextvars.ContextVar("owner_codes", default=None)
_POSTED = -1  # the key, among the codes issued, that says the notice is posted (no person has this id)
# the demo (seed_demo) listens to the codes its notices print, to print one owner's in its output
_HEARD: contextvars.ContextVar[list | None] = contextvars.ContextVar("owner_codes_heard", default=None)

PLACEHOLDER = "(printed here when the notice is issued)"
# a notice posted where anyone can read it (on the owner's property, where the dog is kept) does not print the
# code: with the dog's name, which the notice states, it would open the owner's case to every passer-by
WITHHELD = gettext_noop("(not printed on a notice that is posted: ask the city for it)")

# "Your case online": every document issued to an owner ends with it, in every city (dogcase.documents.fill
# adds it to an owner-facing document whose own wording does not print the code already). dogcase's own
# addition: it states no law, and has no citation. It is not part of the legal notice, so a document in the
# owner's language prints it in that language only (`portal_words`; the Spanish is in dogcase/locale).
PORTAL_HEADING = gettext_noop("Your case online")
PORTAL_TEXT = gettext_noop(
    "You can see your case, the documents the city has sent you, and what is due and by when, at "
    "{portal.address}. Sign in with your case access code {portal.code} and your dog's name or your ZIP code. "
    "This is not part of the legal notice; you can still do everything on paper."
)


@contextlib.contextmanager
def codes_for_issue(case, recipient, *, actor, at, posted: bool = False) -> Iterator[dict[int, str]]:
    """While an owner-facing notice is drafted for issue: the code of `recipient` (an owner of the case's
    dog; the one they already hold, or their first), readable by the fill sources. A notice that is `posted` prints no code, and issues none (the code the
    owner already has keeps working)."""
    from dogcase.owners.codes import code_for_notice

    issued: dict[int, str] = {}
    if posted:
        issued[_POSTED] = WITHHELD
    elif recipient is not None:
        row, code = code_for_notice(case, recipient, actor=actor, at=at)
        issued[recipient.pk] = code
        heard = _HEARD.get()
        if heard is not None:
            heard.append((row.pk, code))
    token = _ISSUING.set(issued)
    try:
        yield issued
    finally:
        _ISSUING.reset(token)


def code_for(person) -> str | None:
    issued = _ISSUING.get()
    if person is None:
        return None
    if issued is None:
        return PLACEHOLDER
    if _POSTED in issued:
        return WITHHELD
    return issued.get(person.pk) or PLACEHOLDER


def prints_code(code: str | None) -> bool:
    """Is `code` a case access code (not the draft's placeholder, nor the posted notice's words)?"""
    return bool(code) and code not in (PLACEHOLDER, WITHHELD)


def sign_in_link(code: str | None) -> str:
    """The portal's address with the code typed in (the QR code on a notice); without a code, the portal."""
    return portal_sign_in_url(code if prints_code(code) else None)


def portal_words(template: str, values: Mapping[str, str], language: str) -> tuple[str, str]:
    """The block "Your case online" in `language`: its heading and its text. `template` is the block's English
    wording with its sources (`PORTAL_TEXT`, or a pack's own wording of the block); `values` are what the
    document prints for them (source name -> value: the portal's address, the code or the words that stand
    for it, which are translated too). A pack's wording the catalogue does not translate is given as
    PORTAL_TEXT's translation (what PORTAL_TEXT says holds for every owner's document)."""
    template = " ".join(template.split())
    with translation.override(language):
        own = gettext(template)
        if own == template and language != "en":
            own = gettext(PORTAL_TEXT)
        heading = gettext(PORTAL_HEADING)
        printed = {name: gettext(v) if v in (PLACEHOLDER, WITHHELD) else v for name, v in values.items()}
    text = re.sub(r"\{([^{}]*)\}", lambda m: printed.get(m.group(1).strip(), m.group()), own)
    return heading, text


def qr_svg(url: str) -> str:
    """The QR code of `url`, as an inline SVG (WeasyPrint draws it)."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=3, border=2, dark="#000", light="#fff")


@contextlib.contextmanager
def listen() -> Iterator[list]:
    """The (code row id, code) of every code printed on a notice issued inside (the demo's output)."""
    heard: list = []
    token = _HEARD.set(heard)
    try:
        yield heard
    finally:
        _HEARD.reset(token)

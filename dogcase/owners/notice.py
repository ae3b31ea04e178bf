"""The portal on the owner's notices: the portal's address, the owner's case access code and a QR code of the
portal link. Codes are stored hashed, so the code in clear exists only while a notice is issued: issuing an
owner-facing document issues (or re-issues) the recipient's code inside the act's transaction
(`codes_for_issue`), and the document-fill sources `portal.address` and `portal.code` read it here. A draft
(the preview before issuing) says where the code will be."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from dogcase.owners.urls_util import portal_url

_ISSUING: contextvars.ContextVar[dict[int, str] | None] = contextvars.ContextVar("owner_codes", default=None)
# the demo (seed_demo) listens to the codes its notices print, to print one owner's in its output
_HEARD: contextvars.ContextVar[list | None] = contextvars.ContextVar("owner_codes_heard", default=None)

PLACEHOLDER = "(printed here when the notice is issued)"


@contextlib.contextmanager
def codes_for_issue(case, recipient, *, actor, at) -> Iterator[dict[int, str]]:
    """While an owner-facing notice is drafted for issue: a new code for `recipient` (an owner of the case's
    dog), readable by the fill sources."""
    from dogcase.owners.codes import issue_code

    issued: dict[int, str] = {}
    if recipient is not None:
        row, code = issue_code(case, recipient, actor=actor, at=at)
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
    return issued.get(person.pk) or PLACEHOLDER


def sign_in_link(code: str | None) -> str:
    base = portal_url()
    if code and code != PLACEHOLDER:
        return f"{base}?code={code}"
    return base


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

"""The one-time sign-in link, by e-mail: sent by the background worker (dogcase.owners.tasks), never inside the
web request that asked for it."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext as _

from dogcase.cases.models import Person


def one_line(value: str) -> str:
    """A name as one line of an e-mail: line breaks (CR, LF and the other line separators) and other control
    characters become spaces, so that a name cannot add lines or headers of its own to a message."""
    text = "".join(" " if (ch.isspace() or not ch.isprintable()) else ch for ch in str(value or ""))
    return " ".join(text.split())


def send_sign_in_link(person: Person, url: str) -> int:
    language = person.preferred_language if person.preferred_language in ("en", "es") else "en"
    with translation.override(language):
        subject = _("Your link to the dog case portal")
        body = _(
            "Hello %(name)s,\n\nOpen this link to see your dog's case. It works once, for %(minutes)s minutes:\n\n"
            "%(url)s\n\nIf you did not ask for it, you can ignore this message: nobody can sign in without the "
            "link.\n"
        ) % {"name": one_line(person.full_name), "url": url, "minutes": settings.DOGCASE_OWNER_LINK_MINUTES}
    return send_mail(subject, body, None, [person.email], fail_silently=False)

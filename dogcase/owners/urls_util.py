"""Every address dogcase prints or sends is absolute, on the site's one address.

A notice's portal address and QR code, the staff's code slip, the links in e-mails (the owner portal, the
one-time sign-in link, the staff's case page) and the verification link in every document's footer are all
built here, by `site_url`, from `settings.DOGCASE_SITE_URL` — never from the request that happens to be
served (a batch job, the sweep, the worker or seed_demo, has none) and never as a bare path, which a reader of
paper or of an e-mail cannot open. Production must set it (`check --deploy` fails without it, dogcase.E103); in development
`make run` passes the serving address (scripts/run.sh).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse


def site_address() -> str:
    """The site's address, e.g. https://dogcase.example.org (no trailing slash)."""
    base = (getattr(settings, "DOGCASE_SITE_URL", "") or "").strip().rstrip("/")
    if not base:
        raise ImproperlyConfigured(
            "DOGCASE_SITE_URL is not set: dogcase cannot print or send a link that a reader can open "
            "(set it to the site's address, e.g. https://dogcase.example.org; docs/deploy.md)"
        )
    return base


def site_url(path: str) -> str:
    """The absolute address of a path of the site (a path as `reverse` gives it, from the site's root)."""
    if not path.startswith("/") or path.startswith("//"):
        raise ValueError(f"a path from the site's root is expected, not {path!r}")
    return site_address() + path


def portal_url() -> str:
    """The owner's portal: where an owner signs in with a case access code."""
    return site_url(reverse("owners:sign_in"))


def portal_sign_in_url(code: str | None = None) -> str:
    """The portal with a case access code already typed in (the QR code on a notice)."""
    base = portal_url()
    return f"{base}?code={code}" if code else base


def sign_in_link_url(token: str) -> str:
    """The one-time sign-in link an owner is e-mailed."""
    return site_url(reverse("owners:link", args=[token]))


def verify_url(code: str) -> str:
    """Where anyone checks a document by its verification code (printed in every page's footer)."""
    return site_url(reverse("documents:verify", args=[code]))


def staff_case_url(number: str) -> str:
    """A case's page for staff (the link in a staff message)."""
    return site_url(reverse("staff:case", args=[number]))

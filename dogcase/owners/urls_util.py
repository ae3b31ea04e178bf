"""The portal's public address, as printed on the owner's notices."""

from __future__ import annotations

from django.conf import settings


def portal_url() -> str:
    return settings.DOGCASE_PUBLIC_URL.rstrip("/") + "/owner/"

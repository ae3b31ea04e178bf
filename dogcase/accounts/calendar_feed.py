"""A user's private calendar address: issued, re-issued and revoked by the user, looked up by its token.

The token is 32 random bytes; only its SHA-256 is stored, so the address cannot be read back from the
database (it is shown once, when issued) and a leaked copy of the database gives no working address.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.db import transaction

from dogcase.accounts.models import CalendarFeed


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_feed(user, *, at: dt.datetime) -> str:
    """A new private address for `user` (the token of its URL); any previous one stops working."""
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        CalendarFeed.objects.filter(user=user).delete()
        CalendarFeed.objects.create(user=user, token_sha256=token_hash(token), issued_at=at)
    return token


def revoke_feed(user) -> bool:
    """Stop the user's address from working; False when there was none."""
    deleted, _ = CalendarFeed.objects.filter(user=user).delete()
    return bool(deleted)


def feed_for_token(token: str) -> CalendarFeed | None:
    """The feed of a token, if it is a current one of an active user."""
    if not token or len(token) > 100:
        return None
    feed = CalendarFeed.objects.select_related("user").filter(token_sha256=token_hash(token)).first()
    if feed is None or not feed.user.is_active:
        return None
    return feed

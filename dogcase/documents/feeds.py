"""The private calendar feed (GET /calendar/<token>.ics): no login — a calendar application cannot log in —
the random token in the address is the credential. An unknown or revoked token is a plain 404."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dogcase.accounts.calendar_feed import feed_for_token
from dogcase.accounts.models import CalendarFeed
from dogcase.documents.calendar import user_feed


@never_cache
@require_GET
def calendar_feed(request, token: str):
    # the request log records the path: never the token
    request.log_path = "/calendar/<token>.ics"
    feed = feed_for_token(token)
    if feed is None:
        raise Http404("No such calendar.")
    now = timezone.now()
    CalendarFeed.objects.filter(pk=feed.pk).update(last_read_at=now)
    body = user_feed(feed.user, now=now, base_url=request.build_absolute_uri("/").rstrip("/"))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="dogcase.ics"'
    response["X-Robots-Tag"] = "noindex"
    return response

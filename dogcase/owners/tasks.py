"""The background job that e-mails an owner's one-time sign-in link (issue 19, item 10).

The sign-in page only writes the link's row, with a placeholder instead of a token hash, and enqueues this job:
the web request never waits on the mail server. The job makes the token, keeps only its keyed hash on the row,
and sends the address; the token itself is never written anywhere (not in the job's arguments, not in the
database), so neither a look at the job queue nor a backup holds a usable link.
"""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from dogcase.owners import codes
from dogcase.owners.mail import send_sign_in_link
from dogcase.owners.models import SignInLink
from dogcase.owners.urls_util import sign_in_link_url

log = logging.getLogger(__name__)

PENDING = "pending:"  # a row whose link is not sent yet; never equal to a keyed hash (hex digits only)


def pending_hash() -> str:
    return PENDING + secrets.token_hex(28)  # 64 characters, unique like a real hash


@task()
def send_link(link_id: int) -> str:
    """Make the link's token, keep its hash and e-mail the link; "sent", or why not."""
    now = timezone.now()
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        taken = SignInLink.objects.filter(
            pk=link_id, token_hash__startswith=PENDING, used_at__isnull=True, expires_at__gt=now
        ).update(token_hash=codes.keyed_hash("link", token))
    if not taken:
        return "not sent: the link expired, was used or was sent already"
    row = SignInLink.objects.select_related("access_code", "access_code__person").get(pk=link_id)
    if not row.access_code.live or not row.access_code.person.email:
        SignInLink.objects.filter(pk=link_id).update(expires_at=now)
        return "not sent: the code was replaced"
    try:
        send_sign_in_link(row.access_code.person, sign_in_link_url(token))
    except OSError:
        # nobody has the token: the row is ended so that it does not count among the owner's valid links
        SignInLink.objects.filter(pk=link_id).update(expires_at=now)
        log.exception("the sign-in link to person %s could not be sent", row.access_code.person_id)
        raise
    return "sent"

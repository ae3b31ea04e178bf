"""Sending one message, at most once: the job claims the row (queued -> sending) in one conditional UPDATE, so
a job run twice, or two workers at once, send it once; a worker that stops half-way is found by the
recovery pass (dogcase.messaging.recovery). A refusal the SMTP server calls temporary (4xx) or a
server that cannot be reached is retried after the waits of settings.DOGCASE_MAIL_RETRY_SECONDS, each attempt
recorded on the row; a permanent refusal (5xx), the last failed attempt, or a bounce reported later raise a
staff task on the case: serve on paper."""

from __future__ import annotations

import datetime as dt
import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMessage, make_msgid
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from dogcase.cases.access import RECORD_KEEPERS
from dogcase.cases.models import Task
from dogcase.messaging.enqueue import enqueue_send
from dogcase.messaging.models import Message

log = logging.getLogger(__name__)

# who sees the "serve on paper" task on their dashboard: the staff who record people and serve notices
PAPER_ROLES = "," + ",".join(sorted(RECORD_KEEPERS - {"administrator"})) + ","


def _entry(at: dt.datetime, outcome: str, detail: str = "") -> dict:
    return {"at": at.isoformat(), "outcome": outcome, "detail": detail[:500]}


def _permanent(exc: Exception) -> bool:
    """A refusal the server says will not change (5xx); anything else (4xx, a connection lost) may pass."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _msg in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return exc.smtp_code >= 500
    return False


def _describe(exc: Exception) -> str:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "; ".join(
            f"{addr}: {code} {msg.decode(errors='replace') if isinstance(msg, bytes) else msg}"
            for addr, (code, msg) in exc.recipients.items()
        )
    if isinstance(exc, smtplib.SMTPResponseException):
        text = (
            exc.smtp_error.decode(errors="replace") if isinstance(exc.smtp_error, bytes) else exc.smtp_error
        )
        return f"{exc.smtp_code} {text}"
    return f"{type(exc).__name__}: {exc}"


def deliver(message_id: int, *, at: dt.datetime | None = None) -> str:
    """Send the message if it is still to send; return its status afterwards."""
    at = at or timezone.now()
    claimed = Message.objects.filter(pk=message_id, status=Message.Status.QUEUED).update(
        status=Message.Status.SENDING, attempts=F("attempts") + 1, last_attempt_at=at, handed_at=None
    )
    message = Message.objects.select_related("case").get(pk=message_id)
    if not claimed:
        return message.status  # sent, being sent, failed, bounced or not sent: never sent again
    domain = (settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost").strip(">").strip()
    message_id_header = make_msgid(domain=domain)
    if not hand_over(message, message_id_header, at):
        # the recovery pass took it back while this worker stalled (another send owns it now): never twice
        message.refresh_from_db()
        return message.status
    email = EmailMessage(
        subject=message.subject,
        body=message.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.address],
        headers={"Message-ID": message_id_header, "Content-Language": message.language},
    )
    try:
        email.send()
    except (smtplib.SMTPException, OSError) as exc:
        _failed(message, exc, at)
    else:
        Message.objects.filter(pk=message.pk, status=Message.Status.SENDING, handed_at=at).update(
            status=Message.Status.SENT,
            status_reason="",
            sent_at=at,
            message_id=message_id_header,
            history=[*message.history, _entry(at, "sent", message_id_header)],
        )
    message.refresh_from_db()
    return message.status


def hand_over(message: Message, message_id_header: str, at: dt.datetime) -> bool:
    """Written (and committed) just before the message goes to the mail server: a worker that stops after
    this may have sent it (dogcase.messaging.recovery never sends it again), one that stops before it has not
    (sent again). The Message-ID is kept from here on, so a bounce of a message sent that way still finds it.
    False when this claim is no longer the message's (the recovery pass queued it again): do not send."""
    return bool(
        Message.objects.filter(
            pk=message.pk, status=Message.Status.SENDING, last_attempt_at=at, handed_at__isnull=True
        ).update(handed_at=at, message_id=message_id_header)
    )


def _failed(message: Message, exc: Exception, at: dt.datetime) -> None:
    detail = _describe(exc)
    waits = settings.DOGCASE_MAIL_RETRY_SECONDS
    history = [*message.history, _entry(at, "error", detail)]
    if not _permanent(exc) and message.attempts <= len(waits):
        wait = waits[message.attempts - 1]
        retry_at = at + dt.timedelta(seconds=wait)
        log.warning(
            "message %s: attempt %s failed (%s); retry in %ss", message.pk, message.attempts, detail, wait
        )
        with transaction.atomic():
            Message.objects.filter(pk=message.pk).update(
                status=Message.Status.QUEUED,
                status_reason=f"attempt {message.attempts} failed ({detail}); will try again",
                history=history,
            )
            transaction.on_commit(lambda: enqueue_send(message.pk, run_after=retry_at))
        return
    why = (
        "refused by the mail server"
        if _permanent(exc)
        else f"not delivered after {message.attempts} attempts"
    )
    log.error("message %s: %s (%s)", message.pk, why, detail)
    with transaction.atomic():
        Message.objects.filter(pk=message.pk).update(
            status=Message.Status.FAILED, status_reason=f"{why}: {detail}"[:500], history=history
        )
        raise_paper_task(message, f"the e-mail was {why}", at)


def raise_paper_task(message: Message, why: str, at: dt.datetime) -> Task:
    """The staff task for a message that did not reach its recipient: serve it on paper. Raised once."""
    task, _ = Task.objects.get_or_create(
        key=f"message:{message.pk}:paper",
        defaults={
            "case": message.case,
            "jurisdiction": message.jurisdiction,
            "text": (
                f"Serve on paper: {why} — “{message.subject}” to {message.recipient_name} "
                f"<{message.address}>, written {timezone.localtime(message.created_at):%d %b %Y}"
            )[:500],
            "staff_roles": PAPER_ROLES,
            "created_at": at,
        },
    )
    Message.objects.filter(pk=message.pk).update(paper_task=task)
    return task


class UnknownMessage(LookupError):
    pass


def record_bounce(reference: str, *, detail: str = "", at: dt.datetime | None = None) -> Message:
    """A bounce reported for a sent message (the mail server's delivery status notification): `reference` is
    the Message-ID the message was sent with (as the bounce quotes it) or the message's number. The message
    is marked bounced and a staff task raised to serve it on paper."""
    at = at or timezone.now()
    ref = reference.strip()
    query = Message.objects.select_related("case")
    if ref.isdecimal():
        message = query.filter(pk=int(ref)).first()
    else:
        bare = ref.strip("<>")
        message = query.filter(message_id__in=[f"<{bare}>", bare]).first()
    if message is None:
        raise UnknownMessage(f"no message sent with {reference!r}")
    with transaction.atomic():
        message = Message.objects.select_for_update().select_related("case").get(pk=message.pk)
        if message.status != Message.Status.BOUNCED:
            message.status = Message.Status.BOUNCED
            message.status_reason = f"bounced: {detail}"[:500] if detail else "bounced"
            message.history = [*message.history, _entry(at, "bounce", detail)]
            message.save(update_fields=["status", "status_reason", "history"])
            raise_paper_task(message, "the e-mail bounced", at)
    return message

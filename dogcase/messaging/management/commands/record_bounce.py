"""Record that a message bounced: `manage.py record_bounce REFERENCE [--detail TEXT]`, or `--from-dsn` with a
bounce (a delivery status notification, RFC 3464) on standard input, as the mail server's bounce address
pipes it (docs/deploy.md, "Messages"). The message is marked bounced and a staff task raised to serve it on
paper."""

from __future__ import annotations

import sys
from email import message_from_binary_file, policy

from django.core.management.base import BaseCommand, CommandError

from dogcase.messaging.delivery import UnknownMessage, record_bounce


def references_in_dsn(raw) -> tuple[list[str], str]:
    """The Message-IDs a bounce quotes (its returned headers) and its diagnostic, from an RFC 3464 report."""
    msg = message_from_binary_file(raw, policy=policy.default)
    ids: list[str] = []
    detail = ""
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype == "message/delivery-status":
            for block in part.get_payload():
                for key in ("Diagnostic-Code", "Status", "Action"):
                    if block.get(key) and not detail:
                        detail = f"{key}: {block.get(key)}"
        elif ctype in ("message/rfc822", "text/rfc822-headers"):
            payload = part.get_payload()
            inner = payload[0] if isinstance(payload, list) else None
            if inner is not None and inner.get("Message-ID"):
                ids.append(str(inner.get("Message-ID")))
            elif isinstance(payload, str):
                ids += [
                    line.split(":", 1)[1].strip()
                    for line in payload.splitlines()
                    if line.lower().startswith("message-id:")
                ]
    return ids, detail


class Command(BaseCommand):
    help = "Record that a message bounced (by its Message-ID or number), or read a bounce report from stdin."

    def add_arguments(self, parser):
        parser.add_argument("reference", nargs="?", help="the message's Message-ID (<...@...>) or number")
        parser.add_argument(
            "--detail", default="", help="what the mail server said, e.g. 550 5.1.1 user unknown"
        )
        parser.add_argument(
            "--from-dsn",
            action="store_true",
            help="read a delivery status notification (the bounce) from stdin",
        )

    def handle(self, *args, reference=None, detail="", from_dsn=False, **options):
        if from_dsn:
            refs, found = references_in_dsn(sys.stdin.buffer)
            detail = detail or found
        elif reference:
            refs = [reference]
        else:
            raise CommandError(
                "give the message's Message-ID or number, or --from-dsn with the bounce on stdin"
            )
        if not refs:
            raise CommandError("the bounce quotes no Message-ID")
        for ref in refs:
            try:
                message = record_bounce(ref, detail=detail)
            except UnknownMessage as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(f"message {message.pk} to {message.address} ({message.case.number}): bounced\n")

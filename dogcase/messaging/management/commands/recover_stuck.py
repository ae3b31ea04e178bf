"""The recovery pass of messages and send jobs a worker left half-done (dogcase.messaging.recovery):
`manage.py recover_stuck` runs it once (a systemd timer, docs/deploy.md); `--every SECONDS` keeps running it
(make run / make serve start it beside the worker). Prints one JSON line a pass."""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections
from django.utils import timezone

from dogcase.messaging.recovery import recover_stuck


class Command(BaseCommand):
    help = "Queue again (once) or fail to a paper task the messages whose worker stopped half-way"

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--every", type=int, default=0, metavar="SECONDS", help="run a pass every SECONDS"
        )

    def handle(self, *, every: int, **options) -> None:
        if every < 0:
            raise CommandError("--every takes a number of seconds")
        while True:
            close_old_connections()
            at = timezone.now()
            report = recover_stuck(at)
            self.stdout.write(json.dumps({"at": at.isoformat(), **report}))
            self.stdout.flush()
            if not every:
                return
            time.sleep(every)

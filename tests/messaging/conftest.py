"""A local SMTP server (aiosmtpd) the tests deliver to, and the tasks run at once."""

from __future__ import annotations

import logging
import socket

import pytest
from aiosmtpd.controller import Controller

from tests.cases.conftest import story  # noqa: F401
from tests.documents.conftest import make_case, media  # noqa: F401


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mailbox:
    """An SMTP server's handler: keeps what it accepts; `refuse` answers the next DATA commands with a reply
    (e.g. "451 4.3.0 Try again later") as many times as `refusals` says."""

    def __init__(self) -> None:
        self.messages: list = []
        self.refuse = ""
        self.refusals = 0

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        if self.refusals:
            self.refusals -= 1
            return self.refuse
        self.messages.append(envelope)
        return "250 Message accepted for delivery"


@pytest.fixture
def smtp_server(settings):
    mailbox = Mailbox()
    # The server's own log ("Connection lost", at INFO) is written from its thread, sometimes after the test's
    # captured output has closed; it says nothing the tests look at, so only its warnings are kept.
    server_log = logging.getLogger("mail.log")
    level = server_log.level
    server_log.setLevel(logging.WARNING)
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": 5},
        }
    }
    settings.DEFAULT_FROM_EMAIL = "animals@battlelake.example"
    yield mailbox
    controller.stop()
    server_log.setLevel(level)


@pytest.fixture
def immediate_tasks(settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    settings.DOGCASE_MAIL_RETRY_SECONDS = [0, 0]

"""The owner's sign-in e-mail through a real SMTP server (the test server of tests/messaging/conftest.py), not
Django's in-memory outbox: what the server receives, the link in it signing the owner in, and the worker's
answer when the server refuses the message."""

from __future__ import annotations

import email
import re

import pytest
from django.test import Client
from django.utils import timezone

from dogcase.owners import codes
from dogcase.owners import tasks as owner_tasks
from dogcase.owners.models import SignInLink
from tests.cases.conftest import story  # noqa: F401  (the story fixture)
from tests.messaging.conftest import smtp_server  # noqa: F401  (the SMTP server fixture)
from tests.owners.conftest import owner_of, served_case  # noqa: F401  (the served_case fixture)

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


def _ask_for_a_link(s, settings, tasks=IMMEDIATE) -> Client:
    settings.TASKS = tasks
    person = owner_of(s)
    type(person).objects.filter(pk=person.pk).update(email="olive@example.com")
    _row, code = codes.issue_code(s.case, person, actor=s.staff["officer"])
    client = Client()
    response = client.post("/owner/", {"code": code, "fact": "Rex"})
    assert response.status_code == 200
    return client


def test_the_sign_in_link_reaches_the_mail_server_and_signs_the_owner_in(
    served_case,  # noqa: F811
    smtp_server,  # noqa: F811
    settings,
):
    s = served_case
    client = _ask_for_a_link(s, settings)

    (envelope,) = smtp_server.messages
    assert envelope.rcpt_tos == ["olive@example.com"]
    message = email.message_from_bytes(envelope.content)
    assert message["Subject"] == "Your link to the dog case portal"
    assert message["From"] == settings.DEFAULT_FROM_EMAIL
    body = message.get_payload(decode=True).decode()
    (url,) = re.findall(r"https?://\S+/owner/link/\S+", body)
    path = url.split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + path).status_code == 200  # the confirmation page: a scanner does not use it up
    signed_in = client.post("/" + path)
    assert signed_in.status_code == 302 and signed_in["Location"] == f"/owner/cases/{s.case.number}/"
    assert client.post("/" + path).status_code == 410  # once only


@pytest.mark.parametrize("reply", ["503 5.5.1 Bad sequence of commands", "554 5.7.1 Message refused"])
def test_a_refusal_by_the_mail_server_ends_the_link_and_is_reported_to_the_worker(
    served_case,  # noqa: F811
    smtp_server,  # noqa: F811
    settings,
    reply,
):
    s = served_case
    smtp_server.refuse, smtp_server.refusals = reply, 1
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    _ask_for_a_link(s, settings, tasks=settings.TASKS)
    link = SignInLink.objects.get()

    with pytest.raises(OSError, match=reply.split()[0]):  # the worker records the job as failed, with why
        owner_tasks.send_link.call(link.pk)

    assert smtp_server.messages == []
    link.refresh_from_db()
    # nobody holds its token: it no longer counts among the owner's valid links, and it opens nothing
    assert link.expires_at <= timezone.now()
    assert not link.token_hash.startswith(owner_tasks.PENDING)
    assert owner_tasks.send_link.call(link.pk) != "sent"  # not sent a second time by a retry

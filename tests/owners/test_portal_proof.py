"""The proof pages inside the portal: the signed-in owner sends proof from their own case's page, the audit trail
names the owner, another person's session cannot reach the form, and the officer's decision reaches the owner as
a message on the case."""

import re

import pytest
from django.conf import settings as site
from django.core import mail
from django.test import Client

from dogcase.cases.models import Event
from dogcase.messaging.models import Message
from dogcase.proofs import services
from dogcase.proofs.conditions import conditions
from dogcase.proofs.models import ProofSubmission
from tests.owners.conftest import owner_of, served_recently
from tests.owners.test_portal import issue, sign_in

pytestmark = pytest.mark.django_db


def test_the_owner_sends_proof_from_the_portal_and_hears_the_officers_decision(
    story, django_capture_on_commit_callbacks, settings
):
    # the sign-in link is e-mailed by the worker (issue 19): run at once here
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    s = served_recently(story, designation="dangerous")
    person = owner_of(s)
    type(person).objects.filter(pk=person.pk).update(email="olive@example.org")
    client = Client()
    # without a sign-in the proof pages send the owner to the sign-in page
    assert client.get(f"/owner/cases/{s.case.number}/proof/").status_code == 302
    code = issue(s)
    assert sign_in(client, code).status_code == 200  # an e-mail address is known: the one-time link
    link = re.search(re.escape(site.DOGCASE_SITE_URL) + r"(/owner/link/\S+)", mail.outbox[-1].body).group(1)
    assert client.post(link).status_code == 302
    listing = client.get(f"/owner/cases/{s.case.number}/proof/")
    assert listing.status_code == 200
    assert "Sign out" in listing.content.decode()  # the portal's own page frame
    chip = next(c for c in conditions(s.case) if c.kind == "microchip")
    url = f"/owner/cases/{s.case.number}/proof/{chip.id}/"
    bad = client.post(url, {"microchip_number": "12345", "microchip_manufacturer": "HomeAgain"})
    assert bad.status_code == 400 and "HomeAgain" in bad.content.decode()  # named, and what was typed is kept
    good = client.post(
        url, {"microchip_number": "985 112 003 456 789", "microchip_manufacturer": "HomeAgain"}
    )
    assert good.status_code == 302
    proof = ProofSubmission.objects.get(case=s.case, condition=chip.id)
    assert proof.status == "submitted"
    sent = Event.objects.get(case=s.case, act="submit_proof")
    assert sent.actor_id is None and sent.actor_name == "Olive Owner" and sent.actor_roles == "owner"

    with django_capture_on_commit_callbacks(execute=True):  # the review's signal is sent once it commits
        services.reject(proof, actor=s.staff["officer"], reason="The number does not match the dog's scan.")
    told = Message.objects.get(case=s.case, kind="proof_rejected")
    assert "The number does not match the dog's scan." in told.body
    assert told.address == "olive@example.org"


def test_another_persons_portal_session_cannot_reach_the_proof_form(story):
    mine = served_recently(story, designation="dangerous")
    other = served_recently(story, designation="dangerous")
    client = Client()
    assert sign_in(client, issue(other)).status_code == 302
    assert client.get(f"/owner/cases/{mine.case.number}/proof/").status_code == 404
    chip = next(c for c in conditions(mine.case) if c.kind == "microchip")
    response = client.post(
        f"/owner/cases/{mine.case.number}/proof/{chip.id}/", {"microchip_number": "985112003456789"}
    )
    assert response.status_code == 404
    assert not ProofSubmission.objects.filter(case=mine.case).exists()

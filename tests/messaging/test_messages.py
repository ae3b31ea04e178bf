"""Messages to owners and staff: stored on the case, sent once by a background job to a real SMTP server
(aiosmtpd, started by the tests), retried when the server fails for a while, turned into a staff task (serve
on paper) when it fails for good or bounces, and recorded as not sent when the owner has no e-mail address."""

from __future__ import annotations

import datetime as dt
from email import message_from_bytes, policy
from io import BytesIO
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases import updates
from dogcase.cases.models import Obligation, Ownership, Person, Task
from dogcase.messaging.delivery import deliver, record_bounce
from dogcase.messaging.models import DailyRun, Message
from dogcase.messaging.reminders import send_reminders, stored_keys
from dogcase.messaging.schedule import schedule_daily_sweep
from dogcase.messaging.tasks import send_message
from tests.documents.conftest import at, on


def served_case(make_case, *, email="olive@example.org", language="en"):
    """A potentially dangerous dog declared and the notice served: the owner's 14 days to ask for a hearing
    run (§ 90.15 (B)(2)(b))."""
    c = make_case()
    changes = {"email": email} if email else {}
    if language != "en":
        changes["preferred_language"] = language
    if changes:
        updates.update_person(c.owner, actor=c.staff["officer"], changes=changes, reason="Told us")
    c.declare()
    c.serve(received_on=on(2))
    return c


def hearing_obligation(c) -> Obligation:
    ob = c.case.obligations.get(deadline_id="owner.request_hearing")
    assert ob.status == "open" and ob.due_date is not None
    return ob


def seven_days_before(ob: Obligation) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(ob.due_date - dt.timedelta(days=7), dt.time(0, 15)))


def received(mailbox) -> list:
    return [message_from_bytes(e.original_content, policy=policy.default) for e in mailbox.messages]


def test_a_reminder_reaches_a_real_smtp_server_once_even_when_the_job_runs_twice(
    make_case, smtp_server, django_capture_on_commit_callbacks
):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()  # the documents' own messages: not this test's
    with django_capture_on_commit_callbacks(execute=False) as queued:
        send_reminders(seven_days_before(ob))
    message = Message.objects.get(kind="deadline_soon")
    assert message.status == "queued" and message.person == c.owner and len(queued) == 1
    # the job, then the same job again (a worker retrying it, or two workers at once)
    assert send_message.call(message.pk) == "sent"
    assert send_message.call(message.pk) == "sent"
    mails = received(smtp_server)
    assert len(mails) == 1
    mail = mails[0]
    assert mail["To"] == "olive@example.org" and mail["From"] == "animals@battlelake.example"
    body = mail.get_content()
    line = next(x for x in body.splitlines() if x.startswith("In 7 days, on"))
    assert "request a hearing" in line and "(§ 90.15 (B)(2)(b)" in line  # the citation beside the deadline
    assert "/owner/" in body and "owner.request_hearing" not in body  # the portal, never the engine's ids
    message.refresh_from_db()
    assert message.attempts == 1 and message.sent_at is not None
    assert message.message_id == mail["Message-ID"]
    # the sweep of the same day again: the same reminder, not a second one
    with django_capture_on_commit_callbacks(execute=True):
        send_reminders(seven_days_before(ob))
    assert Message.objects.filter(kind="deadline_soon").count() == 1
    assert len(smtp_server.messages) == 1


def test_the_two_day_reminder_and_the_missed_deadline(make_case, immediate_tasks, mailoutbox):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    two_days = timezone.make_aware(dt.datetime.combine(ob.due_date - dt.timedelta(days=2), dt.time(0, 15)))
    send_reminders(two_days)
    assert Message.objects.get(kind="deadline_soon").subject.endswith("due in 2 days — " + c.case.number)
    # the day after the last day: the sweep marks it overdue, the reminder says it was missed
    day_after = timezone.make_aware(dt.datetime.combine(ob.due_date + dt.timedelta(days=1), dt.time(0, 15)))
    from dogcase.cases.acts import sweep

    sweep(at=day_after)
    send_reminders(day_after)
    missed = Message.objects.get(kind="deadline_missed")
    # a right unused in its time: it lapsed (not a duty overdue)
    assert "Your time ended on" in missed.body and "request a hearing" in missed.body
    assert "(§ 90.15 (B)(2)(b)" in missed.body


def test_a_transient_smtp_failure_is_retried_and_sent(
    make_case, smtp_server, immediate_tasks, django_capture_on_commit_callbacks
):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    smtp_server.refuse, smtp_server.refusals = "451 4.3.0 Mailbox busy, try again later", 1
    with django_capture_on_commit_callbacks(execute=True):
        send_reminders(seven_days_before(ob))
    message = Message.objects.get(kind="deadline_soon")
    assert message.status == "sent" and message.attempts == 2
    assert [h["outcome"] for h in message.history] == ["error", "sent"]
    assert "451" in message.history[0]["detail"]
    assert len(smtp_server.messages) == 1
    assert not Task.objects.filter(key__startswith="message:").exists()


def test_the_last_failed_attempt_raises_a_staff_task_to_serve_on_paper(
    make_case, smtp_server, immediate_tasks, django_capture_on_commit_callbacks, client
):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    smtp_server.refuse, smtp_server.refusals = "451 4.3.0 Try again later", 10
    with django_capture_on_commit_callbacks(execute=True):
        send_reminders(seven_days_before(ob))
    message = Message.objects.get(kind="deadline_soon")
    assert message.status == "failed" and message.attempts == 3  # two retries (DOGCASE_MAIL_RETRY_SECONDS)
    assert "not delivered after 3 attempts" in message.status_reason
    task = Task.objects.get(key=f"message:{message.pk}:paper")
    assert task.case == c.case and task.done_at is None
    assert task.text.startswith("Serve on paper:") and "Olive Ostrander" in task.text
    assert ",animal_control_officer," in task.staff_roles
    assert Message.objects.get(pk=message.pk).paper_task == task  # the message links the task it raised
    assert smtp_server.messages == []
    client.force_login(c.staff["officer"])
    page = client.get(f"/cases/{c.case.number}?full=1").content.decode()  # the messages fold, whole
    assert "Serve on paper:" in page and "task raised: serve on paper" in page


def test_a_permanent_refusal_is_not_retried(make_case, smtp_server, immediate_tasks):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    smtp_server.refuse, smtp_server.refusals = "550 5.1.1 No such user", 10
    send_reminders(seven_days_before(ob))
    message = Message.objects.get(kind="deadline_soon")
    assert deliver(message.pk) == "failed"
    message.refresh_from_db()
    assert message.attempts == 1 and "refused by the mail server: 550" in message.status_reason
    assert Task.objects.filter(key=f"message:{message.pk}:paper").exists()


def test_a_bounce_marks_the_message_and_raises_the_paper_task(make_case, smtp_server, capsys):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    send_reminders(seven_days_before(ob))
    message = Message.objects.get(kind="deadline_soon")
    assert deliver(message.pk) == "sent"
    message.refresh_from_db()
    dsn = (
        "From: MAILER-DAEMON@mail.example\r\nTo: animals@battlelake.example\r\nSubject: Undelivered\r\n"
        "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n"
        "--b\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
        "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mail.example\r\n\r\n"
        "Final-Recipient: rfc822; olive@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        "Diagnostic-Code: smtp; 550 5.1.1 user unknown\r\n\r\n"
        f"--b\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: {message.message_id}\r\n"
        "Subject: x\r\n\r\n--b--\r\n"
    )

    class Stdin:
        buffer = BytesIO(dsn.encode())

    import sys

    saved, sys.stdin = sys.stdin, Stdin()
    try:
        call_command("record_bounce", "--from-dsn")
    finally:
        sys.stdin = saved
    message.refresh_from_db()
    assert message.status == "bounced" and "550 5.1.1 user unknown" in message.status_reason
    assert Task.objects.filter(key=f"message:{message.pk}:paper", case=c.case).exists()
    # told twice, it is one bounce and one task
    record_bounce(str(message.pk), detail="again")
    assert Task.objects.filter(key__startswith=f"message:{message.pk}:").count() == 1


def test_an_owner_without_an_e_mail_address_is_recorded_as_not_sent_and_the_case_page_says_so(
    make_case, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        c = served_case(make_case, email="")
    sent = Message.objects.filter(case=c.case)
    assert sent.exists()  # the notice issued to the owner
    assert set(sent.values_list("status", "status_reason")) == {("not_sent", "no e-mail address")}
    assert not any("enqueue_send" in repr(cb) for cb in callbacks)
    client.force_login(c.staff["officer"])
    page = client.get(f"/cases/{c.case.number}?full=1").content.decode()  # the messages fold, whole
    assert "Not told by e-mail:" in page and "Olive Ostrander" in page and "no e-mail address" in page
    assert page.count('data-status="not_sent"') == sent.count()


def test_the_document_issued_to_the_owner_is_a_message_on_the_case(make_case, client):
    c = served_case(make_case)
    message = Message.objects.filter(kind="document_issued").earliest("pk")
    document = c.case.documents.filter(audience="owner").earliest("pk")
    assert message.person == c.owner and message.status == "queued"
    assert document.title in message.body and document.number in message.body
    client.force_login(c.staff["officer"])
    page = client.get(f"/cases/{c.case.number}?full=1").content.decode()  # the messages fold, whole
    assert "Document issued" in page and "olive@example.org" in page


def test_scheduling_the_hearing_tells_the_owner_and_the_hearing_officer(make_case):
    c = served_case(make_case)
    c.staff["hearing"].email = "ruth@battlelake.example"
    c.staff["hearing"].save()
    c.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    c.step(
        "schedule_hearing",
        "clerk",
        6,
        hearing_at=at(15, 14).isoformat(),
        place="City Hall, 105 Main Street",
        hearing_officer=str(c.staff["hearing"].pk),
    )
    to_owner = Message.objects.get(kind="hearing_scheduled", person=c.owner)
    assert "City Hall, 105 Main Street" in to_owner.body and "2:00" not in to_owner.subject
    to_officer = Message.objects.get(kind="hearing_scheduled", user=c.staff["hearing"])
    assert to_officer.address == "ruth@battlelake.example" and to_officer.language == "en"
    # the hearing moved (the date the step recorded, corrected): they are told again, the new date
    from dogcase.cases import acts

    scheduling = c.case.events.get(act="schedule_hearing")
    c.case.refresh_from_db()
    acts.correct_event_date(
        c.case,
        event=scheduling,
        name="hearing_scheduled",
        value=at(16, 10),
        reason="The council chambers are taken on the 15th",
        actor=c.staff["clerk"],
        expected_version=c.case.version,
        at=at(7),
    )
    moved = Message.objects.filter(kind="hearing_scheduled", person=c.owner).latest("pk")
    assert moved.pk != to_owner.pk
    from dogcase.documents.next_steps import date_words

    assert date_words(at(16, 10)) in moved.body and date_words(at(15, 14)) not in moved.body
    assert Message.objects.filter(kind="hearing_scheduled").count() == 4


def test_a_spanish_speaking_owner_gets_the_message_in_spanish(make_case, immediate_tasks, mailoutbox):
    c = served_case(make_case, language="es")
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    send_reminders(seven_days_before(ob))
    message = Message.objects.get(kind="deadline_soon")
    assert message.language == "es"
    assert message.body.startswith("Estimado/a Olive Ostrander:")
    assert "Dentro de 7 días" in message.body and "(§ 90.15 (B)(2)(b)" in message.body
    assert "/owner/" in message.body
    assert "In 7 days" not in message.body


def test_a_reminder_goes_to_each_current_owner_and_not_to_a_former_one(make_case):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    when = seven_days_before(ob)
    today = timezone.localdate(when)
    co = Person.objects.create(jurisdiction=c.case.jurisdiction, full_name="Carl Co-Owner", created_at=when)
    former = Person.objects.create(jurisdiction=c.case.jurisdiction, full_name="Fran Former", created_at=when)
    Ownership.objects.create(dog=c.case.dog, person=co)
    Ownership.objects.create(dog=c.case.dog, person=former, until=today - dt.timedelta(days=1))
    Message.objects.all().delete()
    assert send_reminders(when)["deadline_soon"] == 2
    told = set(Message.objects.filter(kind="deadline_soon").values_list("person__full_name", flat=True))
    assert told == {c.owner.full_name, "Carl Co-Owner"}
    # the same day again: both stored, nothing new
    with CaptureQueriesContext(connection) as again:
        assert send_reminders(when)["deadline_soon"] == 2
    assert Message.objects.filter(kind="deadline_soon").count() == 2
    assert not any(q["sql"].lstrip().upper().startswith("INSERT") for q in again.captured_queries)


def test_the_reminder_query_does_not_grow_with_the_number_of_cases(make_case, story):
    c = served_case(make_case)
    ob = hearing_obligation(c)
    when = seven_days_before(ob)

    def count() -> int:
        Message.objects.all().delete()
        with CaptureQueriesContext(connection) as ctx:
            counts = send_reminders(when)
        assert counts["deadline_soon"] == 1
        return len(ctx.captured_queries)

    few = count()
    for i in range(6):  # open cases whose deadlines fall on other days
        story("battle-lake-mn", day=40 + 9 * i)
    assert count() == few


def test_the_scheduler_enqueues_one_sweep_a_day(db, django_capture_on_commit_callbacks):
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        assert schedule_daily_sweep(now) is True
        assert schedule_daily_sweep(now + dt.timedelta(minutes=5)) is False
    assert DailyRun.objects.count() == 1
    from django_tasks_db.models import DBTaskResult

    jobs = DBTaskResult.objects.filter(task_path="dogcase.messaging.tasks.daily_sweep")
    assert jobs.count() == 1
    assert jobs.get().args_kwargs["kwargs"] == {"day": timezone.localdate(now).isoformat()}


@pytest.mark.django_db(transaction=True)
def test_the_database_worker_runs_the_daily_sweep(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    assert schedule_daily_sweep() is True
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    run = DailyRun.objects.get()
    assert run.finished_at is not None
    assert {"cases", "overdue", "messages", "documents"} <= set(run.report)


def test_the_day_s_documents_are_read_back_and_a_damaged_one_raises_a_task(make_case, media):
    from dogcase.messaging.tasks import verify_documents

    c = served_case(make_case)
    document = c.case.documents.earliest("pk")
    day = timezone.localtime(document.issued_at).date().isoformat()
    issued_that_day = c.case.documents.filter(
        issued_at__date=timezone.localtime(document.issued_at).date()
    ).count()
    report = verify_documents.call(day=day)
    assert report == {"checked": issued_that_day, "bad": []}
    (media / document.blob).chmod(0o640)
    (media / document.blob).write_bytes(b"%PDF-1.7 not the document that was issued")
    report = verify_documents.call(day=day)
    assert report["bad"] == [document.number]
    task = Task.objects.get(key=f"document:{document.pk}:v1:storage")
    assert "does not match the one recorded when it was issued" in task.text and task.case == c.case


def test_a_rejected_proof_tells_the_owner_why(make_case):
    from dogcase.messaging import notify

    c = served_case(make_case)
    (message,) = notify(
        c.case,
        "proof_rejected",
        to="owners",
        context={
            "condition": "proof of liability insurance of at least $300,000",
            "reason": "The certificate ended on 1 May 2026.",
            "citation": "Minn. Stat. § 347.51, subd. 2",
        },
        key="proof:7:rejected",
    )
    assert "The reason: The certificate ended on 1 May 2026." in message.body
    assert "(Minn. Stat. § 347.51, subd. 2)" in message.body
    assert notify(c.case, "proof_rejected", to="owners", context={}, key="proof:7:rejected") == [message]


def test_the_city_s_missed_deadline_goes_to_the_staff_whose_roles_meet_it(make_case):
    from dogcase.cases.acts import sweep

    c = served_case(make_case)
    c.staff["clerk"].email = "clerk@battlelake.example"
    c.staff["clerk"].save()
    c.step("receive_hearing_request", "clerk", 5, received_on=on(5))
    ob = c.case.obligations.get(deadline_id="city.schedule_hearing")
    assert ob.who == "city" and ob.status == "open"
    day_after = timezone.make_aware(dt.datetime.combine(ob.due_date + dt.timedelta(days=1), dt.time(0, 15)))
    sweep(at=day_after)
    Message.objects.all().delete()
    send_reminders(day_after)
    to_staff = Message.objects.filter(kind="deadline_missed", case=c.case, person=None)
    schedule = [m for m in to_staff if "schedule the appeal hearing" in m.body]
    assert {m.user for m in schedule} == {c.staff["clerk"]}  # ",city_clerk,": not the officer, not the owner
    (message,) = schedule
    assert message.address == "clerk@battlelake.example" and message.status == "queued"
    assert message.body.startswith(f"{c.staff['clerk'].get_username()},") and "Overdue since" in message.body
    assert f"/cases/{c.case.number}" in message.body
    assert not Message.objects.filter(
        kind="deadline_missed", person=c.owner, body__contains="schedule the appeal"
    )


def test_a_daily_sweep_that_fails_is_enqueued_again_with_the_next_attempt(db, monkeypatch, settings):
    from django_tasks_db.models import DBTaskResult

    from dogcase.messaging import tasks

    def broken(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr("dogcase.cases.acts.sweep", broken)
    result = tasks.daily_sweep.call(day="2026-06-01")
    assert result["retried"] is True
    again = DBTaskResult.objects.get(task_path="dogcase.messaging.tasks.daily_sweep")
    assert again.args_kwargs["kwargs"] == {"day": "2026-06-01", "attempt": 2}
    assert again.run_after is not None and again.run_after > timezone.now()
    with pytest.raises(RuntimeError):
        tasks.daily_sweep.call(day="2026-06-01", attempt=tasks.JOB_ATTEMPTS)  # the last one fails for good


def test_the_sweep_command_queues_the_day_s_reminders_and_its_scheduler_enqueues_the_job(
    make_case, capsys, monkeypatch
):
    import json

    from dogcase import cli

    c = served_case(make_case)
    ob = hearing_obligation(c)
    Message.objects.all().delete()
    when = seven_days_before(ob)
    assert cli.main(["sweep", "--at", when.isoformat()]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["messages"] == {"deadline_soon": 1, "deadline_missed": 0}
    assert Message.objects.filter(kind="deadline_soon", person=c.owner).count() == 1
    # --every: the scheduler enqueues the day's job (and does not sweep itself); stopped after its first wait
    monkeypatch.setattr("time.sleep", lambda seconds: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        cli.main(["sweep", "--every", "86400"])
    assert json.loads(capsys.readouterr().out)["enqueued"] is True
    assert DailyRun.objects.filter(day=timezone.localdate()).exists()
    with pytest.raises(SystemExit):
        cli.main(["sweep", "--every", "86400", "--at", when.isoformat()])


def test_a_message_whose_worker_stopped_while_sending_is_not_sent_again_but_served_on_paper(make_case):
    # handed to the mail server when its worker stopped (issue 19 item 6: tests/messaging/test_no_message_lost.py
    # for the other points of a send, where it is queued again)
    from dogcase.messaging.recovery import recover_stuck

    c = served_case(make_case)
    message = Message.objects.filter(kind="document_issued").earliest("pk")
    an_hour_ago = timezone.now() - dt.timedelta(hours=2)
    Message.objects.filter(pk=message.pk).update(
        status="sending", attempts=1, last_attempt_at=an_hour_ago, handed_at=an_hour_ago
    )
    assert deliver(message.pk) == "sending"  # a second job does not send it again
    assert recover_stuck()["failed"] == 1
    message.refresh_from_db()
    assert message.status == "failed" and "may not have been delivered" in message.status_reason
    assert Task.objects.filter(key=f"message:{message.pk}:paper", case=c.case).exists()
    assert recover_stuck()["failed"] == 0


def test_a_second_run_the_same_day_sends_nothing_again_in_a_few_queries_whatever_the_deadlines(make_case):
    """The sweep may run every hour: once the day's reminders are queued, running them again reads the day's
    deadlines, their owners and the messages already stored, a fixed number of queries, and writes nothing."""
    cases = [served_case(make_case, email="olive@example.org")]
    when = seven_days_before(hearing_obligation(cases[0]))

    def again() -> int:
        Message.objects.all().delete()
        first = send_reminders(when)
        assert first["deadline_soon"] == len(cases)  # one owner each, told of the same day's deadline
        stored = Message.objects.count()
        built = []  # the messages read back into Python: none, their keys are enough to know they were sent

        def count_built(sender, **kwargs):
            built.append(sender)

        from dogcase.cases.models import Ownership, Person

        user = get_user_model()
        # nor the owners nor the staff: their ids make the messages' keys
        for model in (Message, Person, Ownership, user):
            post_init.connect(count_built, sender=model)
        try:
            with CaptureQueriesContext(connection) as ctx:
                assert send_reminders(when) == first
        finally:
            for model in (Message, Person, Ownership, user):
                post_init.disconnect(count_built, sender=model)
        assert Message.objects.count() == stored and built == []
        return len(ctx.captured_queries)

    one = again()
    cases += [served_case(make_case, email=f"owner{i}@example.org") for i in range(4)]
    assert {hearing_obligation(c).due_date for c in cases} == {hearing_obligation(cases[0]).due_date}
    # the day's obligations, their owners' ids and the keys stored (the deadlines are the owners': no staff read)
    assert again() == one == 3


def test_the_keys_stored_already_are_found_among_many_in_one_query_on_postgresql(make_case):
    """A heavy day has thousands of reminders: which are stored already is one query on PostgreSQL (the keys
    one array), one per 500 keys on SQLite; either way exactly the keys stored, none of the others."""
    case = served_case(make_case).case
    keys = [
        f"reminder:{case.pk}:owner.test:2026-12-{d:02d}:7:person:{i}" for d in (1, 2, 3) for i in range(400)
    ]
    now = timezone.now()
    stored = set(keys[::7])
    Message.objects.bulk_create(
        Message(
            case=case,
            jurisdiction=case.jurisdiction,
            kind=Message.Kind.DEADLINE_SOON,
            recipient_name="R",
            subject="s",
            body="b",
            created_at=now,
            key=k,
        )  # fmt: skip
        for k in sorted(stored)
    )
    with CaptureQueriesContext(connection) as ctx:
        found = stored_keys(sorted([*keys, "reminder:none"]))
    assert found == stored
    assert len(ctx.captured_queries) == (1 if connection.vendor == "postgresql" else 3)
    assert stored_keys([]) == set()
    # the keys are given to PostgreSQL as lines of one text: a key with a line break is given as an array
    broken = "reminder:line\nbreak"
    Message.objects.filter(key=keys[0]).update(key=broken)
    assert stored_keys(sorted([broken, *keys[:14], "reminder:line"])) == {broken, keys[7]}
    assert stored_keys(["reminder:line", "break"]) == set()


def test_the_day_s_rows_from_the_compiled_statement_are_the_orm_s_rows_on_every_day(make_case, story):
    """reminder_rows runs due_today's statement compiled once, with each day's dates: the same rows, columns
    and types as the query built for that day, and nothing compiled again on another day."""
    from django.db.models.sql.compiler import SQLCompiler

    from dogcase.messaging import reminders

    c = served_case(make_case)
    for i in range(3):
        story("battle-lake-mn", day=20 + 11 * i)
    due_days = sorted(set(Obligation.objects.exclude(due_date=None).values_list("due_date", flat=True)))
    assert len(due_days) >= 3, due_days
    days = {d - dt.timedelta(days=n) for d in due_days for n in (-2, 0, 1, 2, 7, 30)}
    reminders._statements.clear()
    reminders.reminder_rows(due_days[0])  # compiled here
    compiled = []
    real_as_sql = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        compiled.append(self.query.model)
        return real_as_sql(self, *args, **kwargs)

    found = 0
    for day in sorted(days):
        with mock.patch.object(SQLCompiler, "as_sql", counting):
            rows = reminders.reminder_rows(day)
        assert not compiled, f"compiled again for {day}"
        expected = [reminders.Due(*row) for row in reminders.due_today(day)]
        assert rows == expected, day
        assert all(isinstance(r.due_date, dt.date) for r in rows)
        found += len(rows)
    assert found, "some day of the cases' deadlines has reminders"
    assert c.case.pk in {r.case_id for day in days for r in reminders.reminder_rows(day)}


def test_the_staff_of_many_cities_and_roles_are_read_in_two_queries_and_are_each_city_s_staff(
    make_staff_user,
):
    """The day's reminders read the staff of every (city, roles) pair at once: the same people, in the same
    order, as city_staff of each pair (active only, never an auditor alone, only the roles asked when any)."""
    from django.contrib.auth.models import Group

    from dogcase.messaging.outbox import city_staff, staff_ids_of_cities, staff_of_cities

    officer = make_staff_user(
        "animal_control_officer", username="officer", cities=["battle-lake-mn", "tracy-mn"]
    )
    make_staff_user("city_clerk", username="clerk", cities=["tracy-mn"])
    make_staff_user("auditor", username="auditor", cities=["battle-lake-mn"])
    both = make_staff_user("hearing_officer", username="hearing", cities=["battle-lake-mn"])
    both.groups.add(Group.objects.get_or_create(name="auditor")[0])
    gone = make_staff_user("city_clerk", username="gone", cities=["battle-lake-mn"])
    gone.is_active = False
    gone.save()
    pairs = [
        ("battle-lake-mn", ""),
        ("battle-lake-mn", ",city_clerk,"),
        ("battle-lake-mn", ",hearing_officer,animal_control_officer,"),
        ("tracy-mn", ""),
        ("tracy-mn", ",city_clerk,"),
        ("elsewhere-mn", ""),
    ]
    with CaptureQueriesContext(connection) as ctx:
        found = staff_of_cities(pairs)
    assert len(ctx.captured_queries) == 2
    with CaptureQueriesContext(connection) as ctx:
        ids = staff_ids_of_cities(pairs)  # what the messages' keys need, in one query
    assert len(ctx.captured_queries) == 1
    assert ids == {pair: [u.pk for u in found[pair]] for pair in pairs}
    names = {pair: [u.username for u in found[pair]] for pair in pairs}
    assert names == {pair: [u.username for u in city_staff(*pair)] for pair in pairs}
    assert names[("battle-lake-mn", "")] == ["officer", "hearing"]
    assert names[("battle-lake-mn", ",city_clerk,")] == []
    assert names[("tracy-mn", ",city_clerk,")] == ["clerk"]
    assert names[("elsewhere-mn", "")] == [] and officer.pk < both.pk

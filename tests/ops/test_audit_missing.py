"""`dogcase audit verify` notices what is missing: a record an event wrote, deleted behind the application's
back by the database's superuser (triggers and foreign keys off), is named from the event that wrote it; a
table of derived rows emptied is reported; the last events of a chain, or a whole case, deleted with the head
moved back, are caught by a checkpoint (the number of events and each chain's head).

On the demo data, which records people, dogs, premises, incidents with evidence and witnesses, opens cases,
issues every document type, takes proof with files, issues access codes and raises tasks."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from dogcase.cases import acts, append_only, audit
from dogcase.cases.models import (
    Case,
    ChainHead,
    Dog,
    Event,
    Evidence,
    Incident,
    Obligation,
    Ownership,
    Person,
    Premises,
    StoredFile,
    Task,
    Victim,
    Witness,
)
from dogcase.documents.models import IssuedDocument
from dogcase.messaging.models import Message
from dogcase.ops.integrity import verify_all
from dogcase.owners.models import CaseAccessCode
from dogcase.proofs.models import ProofFile, ProofSubmission
from tests.cases.conftest import BITE, at
from tests.proofs.helpers import STORED_PNG

pytestmark = pytest.mark.django_db
PG = connection.vendor == "postgresql"
PNG = STORED_PNG  # a real picture: images are re-encoded when they are read


class Rollback(Exception):
    pass


def as_superuser(sql: str, params=()) -> None:
    """Run `sql` as the database's superuser would, past every guard: the append-only triggers dropped (put
    back after), and the foreign keys not checked (on PostgreSQL the checks are deferred, the pending ones of
    the seeding run first; on SQLite they are checked only at a commit). A superuser would set
    session_replication_role = replica; the test's role may not, and the savepoint is rolled back anyway."""
    with connection.cursor() as cursor:
        if PG:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the checks pending from the seeding: they pass
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        append_only.remove(connection)
        try:
            cursor.execute(sql, params)
        finally:
            append_only.install(connection)


def delete_rows(model, pks) -> None:
    pks = list(pks)
    marks = ", ".join(["%s"] * len(pks))
    as_superuser(f"DELETE FROM {model._meta.db_table} WHERE id IN ({marks})", pks)  # noqa: S608 - our tables


def empty_table(model) -> None:
    table = model._meta.db_table
    as_superuser(f"TRUNCATE {table} CASCADE" if PG else f"DELETE FROM {table}")  # noqa: S608 - our tables


def problems_after(change) -> list[dict]:
    """verify's problems with `change` made, then undone (a savepoint rolled back)."""
    found: list[dict] = []
    try:
        with transaction.atomic():
            change()
            report = verify_all()
            assert not report["ok"]
            found = report["problems"]
            raise Rollback
    except Rollback:
        pass
    return found


def named(problems: list[dict], record: str, *, exact: bool = True) -> list[dict]:
    return [p for p in problems if (p.get("record") == record if exact else record in str(p.get("record")))]


@pytest.fixture
def demo(settings, monkeypatch, tmp_path):
    settings.DEBUG = True
    settings.MEDIA_ROOT = tmp_path / "media"
    monkeypatch.delenv("DOGCASE_DEMO_PASSWORD", raising=False)
    call_command("seed_demo", stdout=None)
    # evidence found after the intake, and a witness (the demo records neither)
    incident = Incident.objects.order_by("pk").first()
    officer = Event.objects.filter(act="record_incident", actor__isnull=False).order_by("seq").first().actor
    acts.add_to_incident(
        incident,
        actor=officer,
        evidence=[(SimpleUploadedFile("bite.png", PNG, content_type="image/png"), "the wound")],
        witnesses=[{"name": "Wes Witness", "statement": "I saw it."}],
        at=timezone.now(),
    )
    report = verify_all()
    assert report["ok"], report["problems"][:3]
    return report


def _recorded(act: str, key: str = "id"):
    event = Event.objects.filter(act=act).order_by("seq").first()
    assert event is not None, f"the demo has no {act}"
    return event, event.data[key]


def test_each_record_an_event_wrote_deleted_is_named_from_the_event(demo):
    """One deletion at a time (each undone before the next); each must be named, with the event that wrote
    the record. The table of what was tried is the test's own report."""
    tried: dict[str, bool] = {}

    def attempt(label, change, record, *, exact=True, event=None, field=None):
        found = named(problems_after(change), record, exact=exact)
        ok = bool(found) and (event is None or any(p.get("event") == event for p in found))
        ok = ok and (field is None or any(p.get("field") == field for p in found))
        tried[label] = ok

    e, pk = _recorded("record_person")
    person = Person.objects.get(pk=pk)
    attempt("person", lambda: delete_rows(Person, [pk]), f"person #{pk} ({person.full_name})", event=e.seq)

    e, pk = _recorded("record_dog")
    attempt("dog", lambda: delete_rows(Dog, [pk]), f"dog #{pk} ({e.data['name']})", event=e.seq)

    if Event.objects.filter(act="record_premises").exists():
        e, pk = _recorded("record_premises")
        attempt("premises", lambda: delete_rows(Premises, [pk]), f"premises #{pk}", exact=False, event=e.seq)

    e, pk = _recorded("record_incident")
    number = e.data["number"]
    attempt("incident", lambda: delete_rows(Incident, [pk]), f"incident #{pk} ({number})", event=e.seq)

    evidence = Evidence.objects.order_by("pk").first()
    assert evidence is not None
    attempt(
        "evidence record",
        lambda: delete_rows(Evidence, [evidence.pk]),
        f"evidence (stored file #{evidence.file_id}) of incident #{evidence.incident_id}",
    )
    attempt(
        "evidence file's row",
        lambda: delete_rows(StoredFile, [evidence.file_id]),
        f"stored file #{evidence.file_id} ({evidence.file.original_name})",
    )
    if PG:
        attempt(
            "evidence table (TRUNCATE CASCADE)",
            lambda: empty_table(Evidence),
            f"of incident #{evidence.incident_id}",
            exact=False,
        )

    victim = Victim.objects.order_by("pk").first()
    attempt(
        "victim", lambda: delete_rows(Victim, [victim.pk]), f"incident #{victim.incident_id}", field="victims"
    )
    witness = Witness.objects.order_by("pk").first()
    if witness is not None:
        attempt(
            "witness",
            lambda: delete_rows(Witness, [witness.pk]),
            f"incident #{witness.incident_id}",
            field="witnesses",
        )

    ownership = Ownership.objects.order_by("pk").first()
    attempt(
        "ownership",
        lambda: delete_rows(Ownership, [ownership.pk]),
        f"ownership of dog #{ownership.dog_id} by person #{ownership.person_id}",
        exact=False,
    )

    case = Case.objects.order_by("pk").first()
    opened = Event.objects.get(case=case, act="open_case")
    attempt("case", lambda: delete_rows(Case, [case.pk]), f"case {case.number}", event=opened.seq)

    doc = IssuedDocument.objects.order_by("pk").first()
    attempt(
        "issued document's row",
        lambda: delete_rows(IssuedDocument, [doc.pk]),
        f"issued document {doc.number}, version {doc.version}",
        event=doc.event.seq,
    )
    if PG:
        attempt(
            "issued documents (TRUNCATE CASCADE)",
            lambda: empty_table(IssuedDocument),
            f"issued document {doc.number}, version {doc.version}",
        )

    proof = ProofSubmission.objects.filter(files__isnull=False).order_by("pk").first()
    assert proof is not None
    attempt(
        "proof record",
        lambda: delete_rows(ProofSubmission, [proof.pk]),
        f"proof #{proof.pk} ({proof.condition})",
        event=proof.submitted_event.seq,
    )
    pf = proof.files.order_by("pk").first()
    attempt(
        "proof file's row",
        lambda: delete_rows(ProofFile, [pf.pk]),
        f"proof #{proof.pk} ({proof.condition})",
        field="proof file",
    )

    code = CaseAccessCode.objects.order_by("pk").first()
    assert code is not None
    attempt(
        "access code",
        lambda: delete_rows(CaseAccessCode, [code.pk]),
        f"access code #{code.pk} of person #{code.person_id}",
    )

    task = Task.objects.order_by("pk").first()
    if task is not None:
        attempt("task", lambda: delete_rows(Task, [task.pk]), f"task {task.key}")

    # the tables of rows derived or sent, emptied whole (TRUNCATE on PostgreSQL): named through the events
    # (each task and access code, each case's obligations) and the documents (each one's messages)
    some_open = Case.objects.filter(status=Case.Status.OPEN, obligations__isnull=False).order_by("pk").first()
    told = Message.objects.filter(key__startswith="document:").order_by("pk").first()
    assert told is not None and task is not None
    told_doc = IssuedDocument.objects.get(pk=int(told.key.split(":")[1]))
    told_record = f"issued document {told_doc.number}, version {told_doc.version} (#{told_doc.pk})"
    by_events = {
        Obligation: (f"case {some_open.number}", "obligations"),
        Task: (f"task {task.key}", "task"),
        Message: (told_record, "messages"),
        CaseAccessCode: (f"access code #{code.pk} of person #{code.person_id}", "access code"),
    }
    for model, (record, field) in by_events.items():
        attempt(
            f"table {model._meta.db_table} emptied",
            lambda model=model: empty_table(model),
            record,
            field=field,
        )
    sent = list(
        Message.objects.filter(key__startswith=f"document:{told_doc.pk}:").values_list("pk", flat=True)
    )
    attempt("messages of one document", lambda: delete_rows(Message, sent), told_record, field="messages")
    attempt(
        "obligations of one case deleted",
        lambda: as_superuser("DELETE FROM cases_obligation WHERE case_id = %s", [some_open.pk]),
        f"case {some_open.number}",
        field="obligations",
    )

    print("\ndeletions tried / detected:")
    for label, ok in tried.items():
        print(f"  {label:40} {'detected' if ok else 'NOT DETECTED'}")
    assert all(tried.values()), {k: v for k, v in tried.items() if not v}
    assert len(tried) >= 15


# ------------------------------------------------------------------------------ chains and checkpoints


def _story(staff, n_cases: int = 2):
    officer = staff["officer"]
    cases = []
    for i in range(n_cases):
        owner = acts.record_person(
            jurisdiction="battle-lake-mn", actor=officer, full_name=f"Owner {i}", at=at(0, 9)
        )
        dog = acts.record_dog(
            jurisdiction="battle-lake-mn", actor=officer, owners=[owner], name=f"Dog {i}", at=at(0, 9)
        )
        incident = acts.record_incident(
            jurisdiction="battle-lake-mn",
            actor=officer,
            occurred_at=at(0, 8),
            place="Main Street",
            place_type="public",
            kind="bite",
            dogs=[dog],
            facts=BITE,
            victims=[{"kind": "human", "name": "Val", "injury": "minor"}],
            at=at(0, 9),
        )
        cases.append(acts.open_case(incident=incident, dog=dog, actor=officer, at=at(0, 10)))
    return cases


def test_the_last_events_of_a_chain_deleted_are_caught_by_the_checkpoint(staff):
    cases = _story(staff)
    cp = audit.read_checkpoint(audit.checkpoint())
    chain = "city:battle-lake-mn"
    events = list(Event.objects.filter(chain=chain).order_by("chain_seq"))
    keep = events[-3]
    tail = [e.seq for e in events[-2:]]  # the last incident recorded, and its record before
    marks = ", ".join(["%s"] * len(tail))
    # the superuser deletes the incident's record events and moves the head back: the chain is whole again
    as_superuser(f"DELETE FROM cases_event WHERE seq IN ({marks})", tail)  # noqa: S608 - constant table
    ChainHead.objects.filter(chain=chain).update(seq=keep.chain_seq, hash=keep.hash)
    assert audit.verify_chain().ok
    report = audit.verify_chains(checkpoint=cp)
    assert not report.ok
    texts = [p["problem"] for p in report.problems]
    assert any(p.get("chain") == chain and "is gone" in p["problem"] for p in report.problems), texts
    assert any(f"counted {cp['events']} events" in t and f"{cp['events'] - 2} of them" in t for t in texts), (
        texts
    )
    assert cases  # the cases' chains are untouched
    assert not any(p.get("chain", "").startswith("case:") for p in report.problems)


def test_a_whole_case_deleted_is_caught_by_the_checkpoint(staff):
    cases = _story(staff)
    gone = cases[1]
    acts_ = list(Event.objects.filter(case=gone).values_list("seq", flat=True))
    cp = audit.read_checkpoint(audit.checkpoint())
    # every trace of the case: its events, its chain's head, its obligations, its row
    marks = ", ".join(["%s"] * len(acts_))
    as_superuser(f"DELETE FROM cases_event WHERE seq IN ({marks})", acts_)  # noqa: S608 - constant table
    as_superuser("DELETE FROM cases_obligation WHERE case_id = %s", [gone.pk])
    as_superuser("DELETE FROM cases_task WHERE case_id = %s", [gone.pk])
    as_superuser("DELETE FROM cases_chainhead WHERE chain = %s", [audit.case_chain(gone.pk)])
    as_superuser("DELETE FROM cases_case WHERE id = %s", [gone.pk])
    assert audit.verify_chain().ok  # nothing left to say it was there
    report = verify_all(checkpoint=cp)
    assert not report["ok"]
    chain = audit.case_chain(gone.pk)
    mine = [p for p in report["problems"] if p.get("chain") == chain]
    assert mine and f"had {len(acts_)} events" in mine[0]["problem"] and "none is left" in mine[0]["problem"]
    assert any(f"{cp['events'] - len(acts_)} of them are left" in p["problem"] for p in report["problems"])
    # the other case and the city's chain are as they were
    assert not any(
        p.get("chain") in (audit.case_chain(cases[0].pk), "city:battle-lake-mn") for p in report["problems"]
    )


def test_a_checkpoint_counts_the_events_and_names_every_chains_head(staff):
    cases = _story(staff)
    cp = audit.checkpoint(at=dt.datetime(2026, 6, 2, tzinfo=dt.UTC))
    assert cp["events"] == Event.objects.count()
    heads = {h.chain: (h.seq, h.hash) for h in ChainHead.objects.filter(seq__gt=0)}
    assert {c: (v["seq"], v["hash"]) for c, v in cp["chains"].items()} == heads
    assert {audit.case_chain(c.pk) for c in cases} <= set(cp["chains"])

"""What `dogcase audit verify` checks from the events outward: every record an event says it wrote is still in
the records, and says what the event says (its number, its case, its files' SHA-256).

The other checks (dogcase.ops.integrity) start from the rows and look for the event behind each: a row deleted
leaves nothing for them to look at. These start from the events, which cannot be deleted without breaking a
chain (or, for the last events of a chain, without a checkpoint noticing): a person, a dog, premises, an
incident (its victims, witnesses and evidence files), a prior-history entry, an owner's ownership, a case,
an issued document, a proof sent and its files, an owner's access code, a staff task.

Derived rows no event writes are checked as far as they can be: a case without obligation rows while the law
gives it some (`dogcase sweep --full` rebuilds those of open cases), and a document issued to the owners
without the message written with it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils import timezone

from dogcase.cases.audit import Problems
from dogcase.cases.models import (
    Case,
    Dog,
    Event,
    Evidence,
    Incident,
    Obligation,
    Ownership,
    Person,
    Premises,
    PriorHistoryEntry,
    StoredFile,
    Task,
    Victim,
    Witness,
    case_state,
    jurisdiction_of,
)
from dogcase.cases.observations import RabiesObservation
from dogcase.documents.models import IssuedDocument
from dogcase.messaging.models import Message
from dogcase.owners.models import CaseAccessCode
from dogcase.proofs.models import ProofFile, ProofSubmission

ACTS = (
    "record_person",
    "record_premises",
    "record_dog",
    "record_incident",
    "add_to_incident",
    "record_prior_history",
    "add_owner",
    "end_ownership",
    "open_case",
    "issue_document",
    "correct_document",
    "submit_proof",
    "review_proof",
    "issue_access_code",
    "revoke_access_code",
    "raise_task",
    "complete_task",
)
CHUNK = 1000


def _ids(model, ids: Iterable[Any], *fields: str, key: str = "pk") -> dict[Any, tuple]:
    """The rows of `model` whose `key` is one of `ids`: {key: (fields…)}, a thousand ids a query."""
    ids = sorted({i for i in ids if i is not None}, key=str)
    out: dict[Any, tuple] = {}
    for start in range(0, len(ids), CHUNK):
        rows = model.objects.filter(**{f"{key}__in": ids[start : start + CHUNK]}).values_list(key, *fields)
        for row in rows:
            out[row[0]] = tuple(row[1:])
    return out


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Expected:
    """What the events say was written, gathered in one scan of the events."""

    def __init__(self) -> None:
        self.by_kind: dict[str, dict[Any, tuple[int, Mapping[str, Any]]]] = defaultdict(dict)
        self.files: dict[int, tuple[int, str, str]] = {}  # stored file id -> (event, sha256, name)
        self.evidence: list[tuple[int, int, int]] = []  # (event, incident, file)
        self.victims: Counter = Counter()
        self.witnesses: Counter = Counter()
        self.incident_event: dict[int, int] = {}
        self.owners: list[tuple[int, int, int, str | None]] = []  # (event, dog, person, since)
        self.ended: list[tuple[int, int]] = []  # (event, ownership)
        self.docs: dict[int, tuple[int, Mapping[str, Any]]] = {}  # event id -> (event seq, its data)
        # proof -> (event seq, case, data, event id)
        self.proofs: dict[int, tuple[int, int | None, Mapping[str, Any], int]] = {}
        self.reviews: list[tuple[int, int, bool]] = []  # (event, proof, accepted)
        self.codes: dict[int, tuple[int, int | None, Mapping[str, Any]]] = {}  # code -> (event, case, data)
        self.revoked: list[tuple[int, int]] = []  # (event, code)
        self.tasks: dict[str, tuple[int, int | None]] = {}  # key -> (event, case)
        self.done: list[tuple[int, str]] = []  # (event, task key)

    def add(self, seq: int, act: str, case_id: int | None, data: Any, pk: int) -> None:
        """One event: `seq` names it in the report, `pk` is what the rows' foreign keys hold."""
        if not isinstance(data, Mapping):
            return
        simple = {
            "record_person": "person",
            "record_premises": "premises",
            "record_dog": "dog",
            "record_incident": "incident",
            "record_prior_history": "prior history entry",
            "open_case": "case",
        }
        if act in simple and _int(data.get("id")) is not None:
            # only what the checks read: memory grows with the number of records, not with their events' data
            kept = {
                k: data[k] for k in ("number", "name", "full_name", "street", "incident", "dog") if k in data
            }
            self.by_kind[simple[act]][data["id"]] = (seq, kept)
        if act == "record_dog":
            photo = data.get("photo")
            if isinstance(photo, Mapping) and _int(photo.get("id")) is not None:
                self.files[photo["id"]] = (seq, str(photo.get("sha256")), str(photo.get("name", "")))
            for person in data.get("owners") or []:
                self.owners.append((seq, data.get("id"), person, None))
        elif act in ("record_incident", "add_to_incident"):
            incident = _int(data.get("id"))
            for ref in data.get("evidence") or []:
                if isinstance(ref, Mapping) and _int(ref.get("id")) is not None:
                    self.files[ref["id"]] = (seq, str(ref.get("sha256")), str(ref.get("name", "")))
                    self.evidence.append((seq, incident, ref["id"]))
            self.witnesses[incident] += len(data.get("witnesses") or [])
            self.incident_event.setdefault(incident, seq)
            if act == "record_incident":
                self.victims[incident] += len(data.get("victims") or [])
        elif act == "add_owner":
            self.owners.append((seq, data.get("dog"), data.get("person"), data.get("since")))
        elif act == "end_ownership" and _int(data.get("ownership")) is not None:
            self.ended.append((seq, data["ownership"]))
        elif act in ("issue_document", "correct_document"):
            self.docs[pk] = (seq, {k: data.get(k) for k in ("number", "version", "sha256")})
        elif act == "submit_proof" and _int(data.get("proof")) is not None:
            self.proofs[data["proof"]] = (seq, case_id, data, pk)
        elif act == "review_proof" and _int(data.get("proof")) is not None:
            self.reviews.append((seq, data["proof"], bool(data.get("accepted"))))
        elif act == "issue_access_code" and _int(data.get("access_code")) is not None:
            self.codes[data["access_code"]] = (seq, case_id, data)
            for old in data.get("revoked") or []:
                self.revoked.append((seq, old))
        elif act == "revoke_access_code" and _int(data.get("access_code")) is not None:
            self.revoked.append((seq, data["access_code"]))
        elif act == "raise_task" and isinstance(data.get("task"), str):
            self.tasks[data["task"]] = (seq, case_id)
        elif act == "complete_task" and isinstance(data.get("task"), str):
            self.done.append((seq, data["task"]))


def verify_written(problems: Problems) -> int:
    """Every record the events wrote, still there and as they wrote it. Returns the number of events read."""
    expected = _Expected()
    events = (
        Event.objects.filter(act__in=ACTS).order_by("seq").values_list("seq", "act", "case_id", "data", "pk")
    )
    read = 0
    for seq, act, case_id, data, pk in events.iterator(chunk_size=2000):
        read += 1
        expected.add(seq, act, case_id, data, pk)
    _check_records(expected, problems)
    _check_incidents(expected, problems)
    _check_owners(expected, problems)
    _check_cases(expected, problems)
    _check_documents(expected, problems)
    _check_proofs(expected, problems)
    _check_codes(expected, problems)
    _check_tasks(expected, problems)
    return read


def _gone(problems: Problems, what: str, seq: int, **where: Any) -> None:
    problems.add(
        f"{what} is not in the records: the event #{seq} that wrote it says it was", event=seq, **where
    )


def _check_records(ex: _Expected, problems: Problems) -> None:
    models = {
        "person": (Person, "full_name"),
        "premises": (Premises, "street"),
        "dog": (Dog, "name"),
        "incident": (Incident, "number"),
        "prior history entry": (PriorHistoryEntry, "dog_id"),
    }
    for label, (model, field) in models.items():
        wanted = ex.by_kind.get(label, {})
        present = _ids(model, wanted, field)
        for pk, (seq, data) in sorted(wanted.items()):
            name = data.get(field) or data.get("full_name") or ""
            record = f"{label} #{pk}" + (f" ({name})" if isinstance(name, str) and name else "")
            if pk not in present:
                _gone(problems, f"the {record}", seq, record=record, field=label)
            elif label == "incident" and present[pk][0] != data.get("number"):
                problems.add(
                    f"number is {present[pk][0]!r} but the event that recorded it gives {data.get('number')!r}",
                    record=record,
                    field="number",
                    stored=present[pk][0],
                    expected=data.get("number"),
                    event=seq,
                )
    present = _ids(StoredFile, ex.files, "sha256")
    for pk, (seq, sha256, name) in sorted(ex.files.items()):
        record = f"stored file #{pk} ({name})"
        if pk not in present:
            _gone(problems, f"the {record}", seq, record=record, field="file", expected=sha256)
        elif present[pk][0] != sha256:
            problems.add(
                "the file's row does not have the SHA-256 its event recorded",
                record=record,
                field="sha256",
                stored=present[pk][0],
                expected=sha256,
                event=seq,
            )


def _check_incidents(ex: _Expected, problems: Problems) -> None:
    incidents = set(ex.incident_event)
    rows = set()
    for start in range(0, len(ex.evidence), CHUNK):
        part = ex.evidence[start : start + CHUNK]
        rows |= set(
            Evidence.objects.filter(file_id__in=[f for _s, _i, f in part]).values_list(
                "incident_id", "file_id"
            )
        )
    for seq, incident, file_id in ex.evidence:
        if (incident, file_id) not in rows:
            record = f"evidence (stored file #{file_id}) of incident #{incident}"
            _gone(problems, f"the {record}", seq, record=record, field="evidence")
    for model, label, wanted in ((Victim, "victims", ex.victims), (Witness, "witnesses", ex.witnesses)):
        have: Counter = Counter()
        ids = sorted(i for i in incidents if i is not None)
        for start in range(0, len(ids), CHUNK):
            have.update(
                model.objects.filter(incident_id__in=ids[start : start + CHUNK]).values_list(
                    "incident_id", flat=True
                )
            )
        for incident, n in sorted(wanted.items(), key=lambda kv: str(kv[0])):
            if have[incident] < n:
                problems.add(
                    f"incident #{incident} has {have[incident]} {label} in the records; its events recorded {n}",
                    record=f"incident #{incident}",
                    field=label,
                    stored=have[incident],
                    expected=n,
                    event=ex.incident_event[incident],
                )


def _check_owners(ex: _Expected, problems: Problems) -> None:
    rows: dict[tuple, list] = defaultdict(list)
    dogs = sorted({d for _s, d, _p, _since in ex.owners if _int(d) is not None})
    for start in range(0, len(dogs), CHUNK):
        for pk, dog, person, since, until in Ownership.objects.filter(
            dog_id__in=dogs[start : start + CHUNK]
        ).values_list("pk", "dog_id", "person_id", "since", "until"):
            # an ownership brought in from another system may not say since when (dogcase.imports)
            rows[(dog, person)].append((pk, since.isoformat() if since else None, until))
    for seq, dog, person, since in ex.owners:
        if not any(since is None or since == s for _pk, s, _u in rows.get((dog, person), ())):
            record = f"ownership of dog #{dog} by person #{person}" + (f" since {since}" if since else "")
            _gone(problems, f"the {record}", seq, record=record, field="owner")
    ended = _ids(Ownership, [o for _s, o in ex.ended], "until")
    for seq, pk in ex.ended:
        record = f"ownership #{pk}"
        if pk not in ended:
            _gone(problems, f"the {record}", seq, record=record, field="owner")
        elif ended[pk][0] is None:
            problems.add(
                "the ownership is not ended, but an event ended it",
                record=record,
                field="until",
                stored=None,
                event=seq,
            )


def _check_cases(ex: _Expected, problems: Problems) -> None:
    wanted = ex.by_kind.get("case", {})
    present = _ids(Case, wanted, "number", "incident_id", "dog_id")
    for pk, (seq, data) in sorted(wanted.items()):
        record = f"case {data.get('number') or f'#{pk}'}"
        if pk not in present:
            _gone(problems, f"the {record}", seq, record=record, field="case")
            continue
        given_values = (data.get("number"), data.get("incident"), data.get("dog"))
        for name, stored, given in zip(("number", "incident", "dog"), present[pk], given_values, strict=True):
            if given is not None and stored != given:
                problems.add(
                    f"{name} is {stored!r} but the event that opened it gives {given!r}",
                    record=record,
                    field=name,
                    stored=stored,
                    expected=given,
                    event=seq,
                )


def _check_documents(ex: _Expected, problems: Problems) -> None:
    present = _ids(IssuedDocument, ex.docs, "number", "version", "sha256", key="event_id")
    for event_id, (seq, data) in sorted(ex.docs.items()):
        record = f"issued document {data.get('number')}, version {data.get('version')}"
        row = present.get(event_id)
        if row is None:
            _gone(
                problems, f"the {record}", seq, record=record, field="document", expected=data.get("sha256")
            )
        elif row != (data.get("number"), data.get("version"), data.get("sha256")):
            problems.add(
                "the document's row is not the one its event issued (number, version or SHA-256)",
                record=record,
                field="document",
                stored=f"{row[0]} version {row[1]} {row[2]}",
                expected=f"{data.get('number')} version {data.get('version')} {data.get('sha256')}",
                event=seq,
            )


def _check_proofs(ex: _Expected, problems: Problems) -> None:
    ids = set(ex.proofs) | {p for _s, p, _a in ex.reviews}
    present = _ids(ProofSubmission, ids, "case_id", "submitted_event_id", "status")
    files: dict[int, Counter] = defaultdict(Counter)
    wanted = sorted(ex.proofs)
    for start in range(0, len(wanted), CHUNK):
        for proof, sha256 in ProofFile.objects.filter(proof_id__in=wanted[start : start + CHUNK]).values_list(
            "proof_id", "sha256"
        ):
            files[proof][sha256] += 1
    for pk, (seq, case_id, data, event_id) in sorted(ex.proofs.items()):
        record = f"proof #{pk} ({data.get('condition')})"
        if pk not in present:
            _gone(problems, f"the {record}", seq, record=record, field="proof")
            continue
        if present[pk][:2] != (case_id, event_id):
            problems.add(
                "the proof's row does not name the case and the event that recorded it",
                record=record,
                field="proof",
                stored=f"case #{present[pk][0]}, event #{present[pk][1]}",
                expected=f"case #{case_id}, event #{seq}",
                event=seq,
            )
        listed = Counter(
            str(f.get("sha256")) for f in data.get("proof_files") or [] if isinstance(f, Mapping)
        )
        missing = listed - files[pk]
        for sha256, n in sorted(missing.items()):
            problems.add(
                f"{n} file(s) sent with the proof are not in the records: the event #{seq} listed them",
                record=record,
                field="proof file",
                expected=sha256,
                event=seq,
            )
    for seq, pk, accepted in ex.reviews:
        record = f"proof #{pk}"
        want = "accepted" if accepted else "rejected"
        if pk not in present:
            if pk not in ex.proofs:
                _gone(problems, f"the {record}", seq, record=record, field="proof")
        elif present[pk][2] != want:
            problems.add(
                f"status is {present[pk][2]!r} but the review gives {want!r}",
                record=record,
                field="status",
                stored=present[pk][2],
                expected=want,
                event=seq,
            )


def _check_codes(ex: _Expected, problems: Problems) -> None:
    ids = set(ex.codes) | {c for _s, c in ex.revoked}
    present = _ids(CaseAccessCode, ids, "case_id", "person_id", "revoked_at")
    for pk, (seq, case_id, data) in sorted(ex.codes.items()):
        record = f"access code #{pk} of person #{data.get('person')}"
        if pk not in present:
            _gone(problems, f"the {record}", seq, record=record, field="access code")
        elif present[pk][:2] != (case_id, data.get("person")):
            problems.add(
                "the access code's row does not name the case and the person its event issued it for",
                record=record,
                field="access code",
                stored=f"case #{present[pk][0]}, person #{present[pk][1]}",
                expected=f"case #{case_id}, person #{data.get('person')}",
                event=seq,
            )
    for seq, pk in ex.revoked:
        if pk in present and present[pk][2] is None:
            problems.add(
                "the access code is not revoked, but an event revoked it",
                record=f"access code #{pk}",
                field="revoked",
                event=seq,
            )


def _check_tasks(ex: _Expected, problems: Problems) -> None:
    present = _ids(Task, ex.tasks, "case_id", "done_at", key="key")
    for key, (seq, case_id) in sorted(ex.tasks.items()):
        record = f"task {key}"
        if key not in present:
            _gone(problems, f"the {record}", seq, record=record, field="task")
        elif present[key][0] != case_id:
            problems.add(
                "the task's row names another case than its event",
                record=record,
                field="case",
                stored=present[key][0],
                expected=case_id,
                event=seq,
            )
    for seq, key in ex.done:
        if key in present and present[key][1] is None:
            problems.add(
                "the task is not done, but an event completed it",
                record=f"task {key}",
                field="done",
                event=seq,
            )


# ------------------------------------------------------------------------------------------- derived rows


def verify_obligations(problems: Problems) -> int:
    """Each case without a single obligation row while the law gives it some: its rows were deleted (they are
    rebuilt by the next act on the case, or `dogcase sweep --full` for every open case)."""
    bare = Case.objects.exclude(pk__in=Obligation.objects.values("case_id")).order_by("pk")
    now = timezone.now()
    checked = 0
    for case in bare.iterator(chunk_size=500):
        checked += 1
        try:
            computed = jurisdiction_of(case).obligations(case_state(case), now)
        except Exception as exc:  # noqa: BLE001 - a pack gone or changed: said, not fatal to the report
            problems.add(f"its obligations cannot be computed: {exc}", record=f"case {case.number}")
            continue
        # a rabies observation of the case's dog and incident has its row among the case's (the city's procedure)
        observed = RabiesObservation.objects.filter(incident_id=case.incident_id, dog_id=case.dog_id).count()
        if computed or observed:
            gives = f"the law gives it {len(computed)}" + (
                f" and its rabies observation {observed}" if observed else ""
            )
            problems.add(
                f"the case has no obligation rows, but {gives}: they were deleted, "
                "or never computed (`dogcase sweep --full` rebuilds those of open cases)",
                record=f"case {case.number}",
                field="obligations",
                stored=0,
                expected=len(computed) + observed,
            )
    return checked


def verify_messages(problems: Problems) -> int:
    """Each document issued to the owners of a dog that has one, without a message telling them: the message
    rows are written with the document (`document:<id>:person:<id>`), so one missing was deleted."""
    told: set[int] = set()
    for key in Message.objects.filter(key__startswith="document:").values_list("key", flat=True).iterator():
        part = key.split(":")[1]
        if part.isdecimal():
            told.add(int(part))
    owned = set(Ownership.objects.values_list("dog_id", flat=True).distinct())
    docs = IssuedDocument.objects.filter(audience="owner").order_by("pk")
    checked = 0
    for pk, number, version, dog, seq in docs.values_list(
        "pk", "number", "version", "case__dog_id", "event__seq"
    ):
        checked += 1
        if pk not in told and dog in owned:
            record = f"issued document {number}, version {version} (#{pk})"
            problems.add(
                "no message to the owners about this document is in the records: the messages written when it "
                "was issued were deleted",
                record=record,
                field="messages",
                event=seq,
            )
    return checked

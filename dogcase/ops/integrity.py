"""What `dogcase audit verify` checks beyond the chains: that the stored files and the records still say what
the events that wrote them say.

- **Files**: every stored file's bytes against the SHA-256 of its row, and the row against the SHA-256 the
  event that stored it recorded: an evidence file, a proof of service, a dog's photo (`StoredFile`), each issued
  document's PDF (`issue_document`, `correct_document`) and each file an owner or the office sent as proof of
  a condition (`submit_proof`).
- **Records written** (dogcase.ops.missing): from the events outward, every record an event wrote is still
  there and says what the event says; a case without obligation rows, a document without its messages.
- **Records**: a case's status, designation, whether it is in effect, stage and version against its events
  (the opening, each act and correction: the latest event that set a value wins); a dog's and a person's
  fields against the event that recorded them and the updates since; a dog's status against the acts that
  reported its death, move or transfer.

Each mismatch names the record, the field, the value stored, the value the events give and the event that
gave it. Every pass is one ordered scan (the events merged with the records in id order), so memory does not
grow with the number of records.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from django.db.models import BigIntegerField, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from dogcase.cases import files as file_store
from dogcase.cases.acts import DOG_FIELDS, DOG_STATUS_BY_EVENT, PERSON_FIELDS
from dogcase.cases.audit import Problems, verify_chains
from dogcase.cases.models import Case, Dog, Event, Person, StoredFile
from dogcase.cases.snapshot import read_snapshot
from dogcase.ops.missing import verify_messages, verify_obligations, verify_written

CASE_FIELDS = ("status", "designation", "designation_in_effect", "stage", "version")


def verify_all(*, checkpoint: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The chains (and the checkpoint, if given), the stored files and the records; `ok` only if all agree.

    Read from one snapshot: on a live database, an act committed between two of the checks would otherwise be
    seen by one and not the other, and reported as a problem that is not there."""
    with read_snapshot():
        chains = verify_chains(checkpoint=checkpoint)
        problems = Problems()
        files = verify_files(problems) + verify_documents(problems) + verify_proof_files(problems)
        cases = verify_cases(problems)
        dogs = verify_dogs(problems)
        persons = verify_persons(problems)
        written = verify_written(problems)
        messages = verify_messages(problems)
        bare = verify_obligations(problems)
    out = chains.as_dict()
    out["ok"] = chains.ok and problems.count == 0
    out["files"] = files
    out["records"] = {"cases": cases, "dogs": dogs, "persons": persons}
    # from the events outward: every record an event wrote is still there (dogcase.ops.missing)
    out["written"] = {"events": written, "documents_messaged": messages, "cases_without_obligations": bare}
    out["problems"] = chains.problems + problems.items
    out["problem_count"] = len(chains.problems) + problems.count
    if not out["problem"] and problems.items:
        out["problem"] = problems.items[0]["problem"]
    return out


# -------------------------------------------------------------------------------------------------- files


def _file_refs(act: str, data: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    if not isinstance(data, Mapping):
        return
    yield from data.get("evidence") or []
    files = data.get("files")
    if isinstance(files, Mapping):
        yield from files.values()
    if data.get("photo"):
        yield data["photo"]
    record = (
        (data.get("changes") or {}).get("vaccination_record") if act == "record_rabies_observation" else None
    )
    if isinstance(record, Mapping) and isinstance(record.get("new"), Mapping):
        yield record["new"]  # a rabies observation's vaccination record (cases/acts/observation.py)


def verify_files(problems: Problems) -> int:
    """Every stored file: its bytes against its row's SHA-256, its row against the event that stored it."""
    recorded: dict[int, tuple[str, int]] = {}
    photo_unrecorded: set[int] = set()  # dogs recorded before their event named the photo
    events = Event.objects.filter(
        Q(act__in=("record_incident", "add_to_incident", "record_dog", "record_rabies_observation"))
        | Q(kind=Event.Kind.STEP)
    ).values_list("seq", "act", "data")
    for seq, act, data in events.iterator(chunk_size=2000):
        for ref in _file_refs(act, data):
            if isinstance(ref, Mapping) and "id" in ref:
                recorded[ref["id"]] = (str(ref.get("sha256")), seq)
        if act == "record_dog" and isinstance(data, Mapping) and "photo" not in data:
            photo_unrecorded.add(data.get("id"))
    legacy_photos = set(
        Dog.objects.filter(pk__in=photo_unrecorded, photo__isnull=False).values_list("photo_id", flat=True)
    )
    checked = 0
    for f in StoredFile.objects.order_by("pk").iterator(chunk_size=500):
        checked += 1
        record = f"stored file #{f.pk} ({f.original_name})"
        by_event = recorded.get(f.pk)
        if by_event is None and f.pk not in legacy_photos:
            problems.add("no event records this file", record=record, field="sha256", stored=f.sha256)
        elif by_event is not None and by_event[0] != f.sha256:
            problems.add(
                "the file's row does not have the SHA-256 its event recorded",
                record=record,
                field="sha256",
                stored=f.sha256,
                expected=by_event[0],
                event=by_event[1],
            )
        _check_bytes(
            problems,
            f.path,
            row_sha256=f.sha256,
            event_sha256=by_event[0] if by_event else None,
            record=record,
            event=by_event and by_event[1],
        )
    return checked


def _check_bytes(
    problems: Problems, path: str, *, row_sha256: str, event_sha256: str | None, record: str, event
) -> None:
    """The file's bytes read from the storage against its row's SHA-256 and the one its event recorded."""
    try:
        digest = hashlib.sha256()
        with file_store.open_blob(path) as stream:
            for chunk in iter(lambda: stream.read(1 << 20), b""):
                digest.update(chunk)
    except (OSError, ValueError) as exc:
        problems.add(f"the stored file cannot be read: {exc}", record=record, field="file", event=event)
        return
    expected = event_sha256 or row_sha256
    if digest.hexdigest() != expected or digest.hexdigest() != row_sha256:
        problems.add(
            "the stored file's content changed: its SHA-256 is not the one recorded",
            record=record,
            field="content",
            stored=digest.hexdigest(),
            expected=expected,
            event=event,
        )


def verify_documents(problems: Problems) -> int:
    """Every issued document (each version): its row against the event that issued it (number, version,
    SHA-256), and its PDF's bytes against both."""
    from dogcase.documents.models import IssuedDocument

    rows = IssuedDocument.objects.order_by("pk").values_list(
        "pk", "number", "version", "sha256", "blob", "event__seq", "event__act", "event__data"
    )
    checked = 0
    for pk, number, version, sha256, blob, seq, act, data in rows.iterator(chunk_size=500):
        checked += 1
        record = f"issued document {number}, version {version} (#{pk})"
        data = data if isinstance(data, Mapping) else {}
        recorded = data.get("sha256")
        if act not in ("issue_document", "correct_document") or (data.get("number"), data.get("version")) != (
            number,
            version,
        ):
            problems.add(
                "the event this document names did not issue it",
                record=record,
                field="event",
                stored=seq,
                expected=f"{number} version {version}",
                event=seq,
            )
            recorded = None
        elif recorded != sha256:
            problems.add(
                "the document's row does not have the SHA-256 its event recorded",
                record=record,
                field="sha256",
                stored=sha256,
                expected=recorded,
                event=seq,
            )
        _check_bytes(problems, blob, row_sha256=sha256, event_sha256=recorded, record=record, event=seq)
    return checked


def verify_proof_files(problems: Problems) -> int:
    """Every file sent as proof of a condition: its row against the files its `submit_proof` event listed,
    and its bytes against both."""
    from dogcase.proofs.models import ProofFile

    rows = ProofFile.objects.order_by("pk").values_list(
        "pk",
        "proof_id",
        "original_name",
        "sha256",
        "path",
        "proof__submitted_event__seq",
        "proof__submitted_event__data",
    )
    checked = 0
    for pk, proof, name, sha256, path, seq, data in rows.iterator(chunk_size=500):
        checked += 1
        record = f"proof file #{pk} ({name}) of proof #{proof}"
        listed = [f.get("sha256") for f in (data or {}).get("proof_files") or [] if isinstance(f, Mapping)]
        if seq is None:
            problems.add("no event records this file", record=record, field="sha256", stored=sha256)
        elif sha256 not in listed:
            problems.add(
                "the file's row does not have a SHA-256 its event recorded",
                record=record,
                field="sha256",
                stored=sha256,
                expected=", ".join(str(x) for x in listed) or "no file",
                event=seq,
            )
        _check_bytes(
            problems,
            path,
            row_sha256=sha256,
            event_sha256=sha256 if sha256 in listed else None,
            record=record,
            event=seq,
        )
    return checked


# ------------------------------------------------------------------------------------------------ records


def _merge(records, groups) -> Iterator[tuple[Any, list[Event]]]:
    """Records in id order, each with its events (grouped by the same id, in order); events whose record is
    gone come out with the record None."""
    groups = iter(groups)
    current = next(groups, None)
    for record in records:
        while current is not None and current[0] < record.pk:
            yield None, list(current[1])
            current = next(groups, None)
        if current is not None and current[0] == record.pk:
            yield record, list(current[1])
            current = next(groups, None)
        else:
            yield record, []
    while current is not None:
        yield None, list(current[1])
        current = next(groups, None)


def _report(problems: Problems, record: str, stored: Mapping, expected: Mapping, source: Mapping) -> None:
    for name, value in expected.items():
        if stored[name] != value:
            problems.add(
                f"{name.replace('_', ' ')} is {stored[name]!r} but the events give {value!r}"
                + (f" (event #{source[name]})" if source.get(name) else ""),
                record=record,
                field=name,
                stored=stored[name],
                expected=value,
                event=source.get(name),
            )


def verify_cases(problems: Problems) -> int:
    events = (
        Event.objects.filter(case__isnull=False)
        .filter(Q(kind__in=(Event.Kind.STEP, Event.Kind.CORRECTION)) | Q(act="open_case"))
        .order_by("case_id", "seq")
        .only("seq", "case_id", "kind", "act", "data", "at")
        .iterator(chunk_size=2000)
    )
    cases = Case.objects.order_by("pk").iterator(chunk_size=2000)
    checked = 0
    for case, case_events in _merge(cases, itertools.groupby(events, key=lambda e: e.case_id)):
        if case is None:
            problems.add(
                "events of a case that is not in the records",
                record=f"case #{case_events[0].case_id}",
                event=case_events[0].seq,
            )
            continue
        checked += 1
        record = f"case {case.number}"
        opening = next((e for e in case_events if e.act == "open_case"), None)
        if opening is None:
            problems.add("no event opened this case", record=record, field="case")
            continue
        expected: dict[str, Any] = {
            "status": Case.Status.OPEN,
            "designation": "",
            "designation_in_effect": False,
            "stage": "Case opened",
            "version": 1,
        }
        # a case opened with its designation (a dog that moved here with its case: cases/acts/moves.py)
        expected.update({k: v for k, v in (opening.data.get("opened_as") or {}).items() if k in expected})
        source = dict.fromkeys(expected, opening.seq)
        for e in case_events:
            if e.kind == Event.Kind.CORRECTION:
                expected["version"] += 1
                source["version"] = e.seq
            elif e.kind == Event.Kind.STEP:
                expected["version"] += 1
                source["version"] = e.seq
                after = e.data.get("case_after") or _legacy_case_after(case, e, expected)
                for name in ("status", "designation", "designation_in_effect"):
                    if name in after and after[name] != expected[name]:
                        expected[name] = after[name]
                        source[name] = e.seq
                # what the act did (its outcome); an act recorded before outcomes were kept: its step's label
                if e.data.get("stage") or e.data.get("label"):
                    expected["stage"] = e.data.get("stage") or e.data["label"]
                    source["stage"] = e.seq
        _report(problems, record, {n: getattr(case, n) for n in CASE_FIELDS}, expected, source)
    return checked


def _legacy_case_after(case: Case, event: Event, current: Mapping[str, Any]) -> dict[str, Any]:
    """What an act written before its event kept `case_after` did to the case, read again from the law."""
    from dogcase.law import InputError, library

    after = {"designation": event.data.get("designation", current["designation"])}
    j = library().jurisdictions.get(case.jurisdiction)
    if j is None:
        return after
    try:
        step = j.step(event.act, dt.date.fromisoformat(event.data["law_date"]))
    except (InputError, KeyError, ValueError):
        return after
    outcome = event.data.get("outcome")
    in_effect = current["designation_in_effect"]
    if step.opens_case and (event.data.get("inputs") or {}).get("designation"):
        in_effect = True
    if step.ends_on(outcome):
        in_effect = False
    after["designation_in_effect"] = in_effect
    after["status"] = Case.Status.CLOSED if step.closes_on(outcome) else current["status"]
    return after


def _by_record_id(acts: tuple[str, ...]):
    """The record events of `acts`, grouped by the id of the record they wrote (their data's `id`)."""
    events = (
        Event.objects.filter(kind=Event.Kind.RECORD, act__in=acts)
        .annotate(record_id=Cast(KT("data__id"), BigIntegerField()))
        .order_by("record_id", "seq")
        .only("seq", "act", "data")
        .iterator(chunk_size=2000)
    )
    return itertools.groupby(events, key=lambda e: e.record_id)


def _verify_fields(problems, model, label, fields, acts, extra=None) -> int:
    """Each record of `model` against the event that recorded it (`acts[0]`) and the updates (`acts[1]`)."""
    record_act, update_act = acts
    defaults = {name: model._meta.get_field(name).get_default() for name in fields}
    checked = 0
    records = model.objects.order_by("pk").iterator(chunk_size=2000)
    for record, events in _merge(records, _by_record_id(acts)):
        if record is None:
            continue  # a record never saved, or gone: its events stay, and say so
        checked += 1
        name = f"{label} #{record.pk} ({record})"
        recorded = next((e for e in events if e.act == record_act), None)
        if recorded is None:
            problems.add(f"no event recorded this {label}", record=name, field=label)
            continue
        expected = {f: recorded.data.get(f, defaults[f]) for f in fields}
        source = dict.fromkeys(fields, recorded.seq)
        for e in events:
            if e.act == update_act:
                for f, change in (e.data.get("changes") or {}).items():
                    if f in expected:
                        expected[f] = change[1]
                        source[f] = e.seq
        stored = {}
        for f in fields:
            field = model._meta.get_field(f)
            stored[f] = getattr(record, f)
            try:
                expected[f] = field.to_python(expected[f])
            except Exception:  # noqa: BLE001, S110 - an odd value stays as it is, and differs
                pass
        if extra is not None:
            extra(record, recorded, expected, source, stored)
        _report(problems, name, stored, expected, source)
    return checked


def verify_dogs(problems: Problems) -> int:
    status: dict[int, tuple[str, int]] = {}
    reported = (
        Event.objects.filter(kind=Event.Kind.STEP, case__isnull=False)
        .order_by("seq")
        .values_list("case__dog_id", "seq", "data__events")
    )
    for dog_id, seq, recorded in reported.iterator(chunk_size=5000):
        for event_name, dog_status in DOG_STATUS_BY_EVENT:
            if isinstance(recorded, Mapping) and event_name in recorded:
                status[dog_id] = (dog_status, seq)
                break

    def extra(dog, recorded, expected, source, stored):
        # a dog brought in from another system may come in dead (its record_dog event says so: dogcase.imports)
        as_recorded = recorded.data.get("status") or Dog.Status.IN_CITY
        expected["status"], source["status"] = status.get(dog.pk, (as_recorded, recorded.seq))
        stored["status"] = dog.status
        expected["premises"], source["premises"] = recorded.data.get("premises"), recorded.seq
        stored["premises"] = dog.premises_id
        if "photo" in recorded.data:
            expected["photo"] = (recorded.data["photo"] or {}).get("id")
            source["photo"] = recorded.seq
            stored["photo"] = dog.photo_id

    return _verify_fields(problems, Dog, "dog", DOG_FIELDS, ("record_dog", "update_dog"), extra)


def verify_persons(problems: Problems) -> int:
    return _verify_fields(problems, Person, "person", PERSON_FIELDS, ("record_person", "update_person"))

"""A whole city's records as one ZIP, for a city that leaves dogcase (docs/data.md, "Taking records out"): every
list as CSV, the audit trail as JSON Lines, every issued document's PDF and every uploaded file as stored, and a
README in plain English. Built in a temporary file, a chunk at a time, never in memory. Taking it is written
in the city's audit trail first, so the archive holds the record of its own taking."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import tempfile
import zipfile
from typing import IO

from django.core.exceptions import SuspiciousFileOperation
from django.db import transaction

from dogcase.cases.access import cities_of, staff_roles
from dogcase.cases.audit import append_event
from dogcase.cases.files import open_blob
from dogcase.cases.models import Event, StoredFile
from dogcase.cases.pages import city_names
from dogcase.documents.models import IssuedDocument
from dogcase.exports.access import ARCHIVE_ROLES
from dogcase.exports.lists import CHUNK, KINDS, Filters, archive_file_name, headers, rows
from dogcase.exports.writers import text_stream, write_csv

ACT = "export_city_archive"

EVENT_FIELDS = (
    ("seq", "The event's number across dogcase: events are in this order."),
    ("chain", "The chain it belongs to: its case's, or the city's records' when it has no case."),
    ("chain_seq", "Its position in that chain (1, 2, 3, ...)."),
    ("at", "When it was written (ISO 8601, with the offset from UTC)."),
    ("case", "The case number, or null for the city's records."),
    ("actor", "Who did it: a staff login, an owner, or dogcase (system)."),
    ("actor_roles", "The actor's roles, separated by commas."),
    ("kind", "step (a legal act), correction, record (a record changed) or system."),
    ("act", "What was done, by its id (the step's id in the law pack for a legal act)."),
    ("summary", "What was done, in words."),
    ("citation", "The provision of law it was done under, if any."),
    ("data", "Everything the act recorded: the values entered, the case before and after, and so on."),
    ("corrects", "For a correction: the seq of the event it corrects."),
    ("prev_hash", "The hash of the event before it in its chain."),
    (
        "hash",
        "This event's keyed hash (HMAC-SHA256) over its content and prev_hash: a changed or removed "
        "event breaks the chain (checked by `dogcase audit verify` with the city's audit key).",
    ),
)


class ArchiveRefused(PermissionError):
    pass


def require_archive(user, jurisdiction: str) -> None:
    """The city's administrator only (PermissionError otherwise; LookupError for a city not theirs)."""
    if jurisdiction not in cities_of(user):
        raise LookupError(jurisdiction)
    if not staff_roles(user) & ARCHIVE_ROLES:
        raise ArchiveRefused("Only the city's administrator may take the archive of all its records.")


def record_taking(jurisdiction: str, *, actor, at: dt.datetime) -> Event:
    """Write in the city's audit trail that its archive was taken, by whom and when."""
    require_archive(actor, jurisdiction)
    with transaction.atomic():
        return append_event(
            at=at,
            jurisdiction=jurisdiction,
            actor=actor,
            actor_roles=",".join(sorted(staff_roles(actor))),
            kind=Event.Kind.RECORD,
            act=ACT,
            summary=f"The archive of all the city's records was taken by {actor.get_username()} (every list, "
            "the audit trail, the documents and the uploaded files)",
            data={"lists": [k for k in KINDS], "format": "zip"},
        )


def event_line(values: tuple) -> str:
    (seq, chain, chain_seq, at, case, actor, roles, kind, act, summary, citation, data, corrects, prev, h) = (
        values
    )
    record = {
        "seq": seq,
        "chain": chain,
        "chain_seq": chain_seq,
        "at": at.isoformat(),
        "case": case,
        "actor": actor,
        "actor_roles": roles,
        "kind": kind,
        "act": act,
        "summary": summary,
        "citation": citation,
        "data": data,
        "corrects": corrects,
        "prev_hash": prev,
        "hash": h,
    }
    return json.dumps(record, ensure_ascii=False, sort_keys=False, default=str) + "\n"


def _events(jurisdiction: str, through: int):
    return (
        Event.objects.filter(jurisdiction=jurisdiction, seq__lte=through)
        .order_by("seq")
        .values_list(
            "seq",
            "chain",
            "chain_seq",
            "at",
            "case__number",
            "actor_name",
            "actor_roles",
            "kind",
            "act",
            "summary",
            "citation",
            "data",
            "corrects__seq",
            "prev_hash",
            "hash",
        )
        .iterator(chunk_size=CHUNK)
    )


def readme(city: str, taken: Event, counts: dict[str, int], missing: list[str]) -> str:
    lines = [
        f"The records of {city}, taken out of dogcase",
        "=" * 60,
        "",
        f"Taken on {taken.at.isoformat(timespec='seconds')} by {taken.actor_name} (audit event number "
        f"{taken.seq}, the last event in events.jsonl).",
        "",
        "Every file is in an open format: CSV (UTF-8, comma-separated, first line the column names), JSON Lines "
        "(one JSON object a line) and PDF. Dates are YYYY-MM-DD; times are Minnesota time, YYYY-MM-DD HH:MM; "
        "amounts are dollars and cents. A text cell that a spreadsheet could run as a formula (starting with "
        "= + - or @) begins with a single quote ('), which is not part of the value.",
        "",
    ]
    for kind in KINDS.values():
        lines += [f"{kind.id}.csv — {kind.title}: {kind.about} ({counts.get(kind.id, 0)} rows)", ""]
        lines += [f"  {c.header}: {c.meaning}" for c in kind.columns]
        lines.append("")
    lines += [
        "events.jsonl — The audit trail: every act, correction and change of the city's records, in order, one "
        "JSON object a line, with these fields:",
        "",
        *(f"  {name}: {meaning}" for name, meaning in EVENT_FIELDS),
        "",
        "documents/ — Every document issued, each version as its own PDF, named <document number>-v<version>.pdf, "
        "byte for byte as issued; its SHA-256 is in documents.csv.",
        "",
        "files/ — Every file uploaded (evidence, photos, proof, vaccination records), as stored, named "
        "<file id>.<extension>; files.csv says what each is, with its SHA-256.",
        "",
    ]
    if missing:
        lines += [
            "Missing from the storage when the archive was taken (listed in the CSVs, not in the ZIP):",
            "",
        ]
        lines += [f"  {m}" for m in missing]
        lines.append("")
    return "\n".join(lines)


def _copy(archive: zipfile.ZipFile, blob: str, name: str) -> bool:
    try:
        source = open_blob(blob)
    except (OSError, SuspiciousFileOperation):
        return False
    with source, archive.open(name, "w", force_zip64=True) as target:
        shutil.copyfileobj(source, target, 1024 * 1024)
    return True


def build(jurisdiction: str, taken: Event) -> IO[bytes]:
    """The city's archive in a temporary file (removed when closed), positioned at its start."""
    out = tempfile.TemporaryFile()  # noqa: SIM115 - the response closes it
    cities = (jurisdiction,)
    counts: dict[str, int] = {}
    missing: list[str] = []
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        for kind in KINDS.values():
            with archive.open(f"{kind.id}.csv", "w", force_zip64=True) as raw, text_stream(raw) as text:
                counts[kind.id] = write_csv(text, headers(kind), rows(kind, cities, Filters()))
        with archive.open("events.jsonl", "w", force_zip64=True) as raw, text_stream(raw) as text:
            for values in _events(jurisdiction, taken.seq):
                text.write(event_line(values))
        documents = IssuedDocument.objects.filter(jurisdiction=jurisdiction).order_by("id")
        for number, version, blob in documents.values_list("number", "version", "blob").iterator(CHUNK):
            name = f"documents/{number}-v{version}.pdf"
            if not _copy(archive, blob, name):
                missing.append(name)
        for stored in StoredFile.objects.filter(jurisdiction=jurisdiction).order_by("id").iterator(CHUNK):
            name = archive_file_name(stored)
            if not _copy(archive, stored.path, name):
                missing.append(name)
        city = city_names(cities)[jurisdiction]
        archive.writestr("README.txt", readme(city, taken, counts, missing))
    out.seek(0)
    return out

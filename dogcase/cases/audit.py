"""The tamper-evident audit trail: append-only events, each hashed together with the hash of the one before.

`append_event` is the only writer of `Event`; the legal-act functions call it inside their own transaction,
so an act and its event are committed together or not at all. `verify_chain` recomputes every hash and names
the first event that does not match.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from dogcase.cases.models import ChainHead, Event

GENESIS = "0" * 64


def canonical(event: Event) -> str:
    """The exact text that is hashed: every field that carries meaning, in a fixed order and format."""
    body = {
        "seq": event.seq,
        "at": event.at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
        "jurisdiction": event.jurisdiction,
        "case": event.case_id,
        "actor": event.actor_id,
        "actor_name": event.actor_name,
        "actor_roles": event.actor_roles,
        "kind": event.kind,
        "act": event.act,
        "summary": event.summary,
        "citation": event.citation,
        "layer": event.layer,
        "data": event.data,
        "corrects": event.corrects_id,
        "idempotency_key": event.idempotency_key,
    }
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def event_hash(prev_hash: str, event: Event) -> str:
    return hashlib.sha256(f"{prev_hash}\n{canonical(event)}".encode()).hexdigest()


def jsonable(value: Any) -> Any:
    """Data as it will read back from any database's JSON column: dates as ISO text, no floats."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, float):
        return str(value)
    return value


def append_event(
    *,
    at: dt.datetime,
    jurisdiction: str,
    kind: str,
    act: str,
    summary: str,
    actor=None,
    actor_roles: str = "",
    case=None,
    citation: str = "",
    layer: str = "",
    data: dict | None = None,
    corrects: Event | None = None,
    idempotency_key: str | None = None,
) -> Event:
    """Append one event to the chain. Must run inside the caller's transaction (the act's)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("append_event must run inside the legal act's transaction")
    ChainHead.objects.get_or_create(pk=1, defaults={"seq": 0, "hash": GENESIS})
    head = ChainHead.objects.select_for_update().get(pk=1)
    event = Event(
        seq=head.seq + 1,
        at=at,
        jurisdiction=jurisdiction,
        case=case,
        actor=actor,
        actor_name=actor.get_username() if actor is not None else "dogcase (system)",
        actor_roles=actor_roles,
        kind=kind,
        act=act,
        summary=summary[:500],
        citation=citation[:500],
        layer=layer,
        data=jsonable(data or {}),
        corrects=corrects,
        idempotency_key=idempotency_key,
        prev_hash=head.hash,
    )
    event.hash = event_hash(head.hash, event)
    event.save()
    ChainHead.objects.filter(pk=1).update(seq=event.seq, hash=event.hash)
    return event


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    checked: int
    first_broken: int | None = None  # seq of the first event that does not verify
    problem: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "first_broken_event": self.first_broken,
            "problem": self.problem,
        }


def verify_chain(*, chunk_size: int = 2000) -> ChainReport:
    """Recompute the whole chain; stop at the first event whose sequence, link or hash is wrong."""
    prev = GENESIS
    expected_seq = 1
    checked = 0
    for event in Event.objects.order_by("seq").iterator(chunk_size=chunk_size):
        if event.seq != expected_seq:
            return ChainReport(
                False, checked, expected_seq, f"event #{expected_seq} is missing (next found is #{event.seq})"
            )
        if event.prev_hash != prev:
            return ChainReport(
                False, checked, event.seq, f"event #{event.seq} does not link to the event before it"
            )
        if event_hash(prev, event) != event.hash:
            return ChainReport(
                False, checked, event.seq, f"event #{event.seq} was changed after it was written"
            )
        prev = event.hash
        expected_seq += 1
        checked += 1
    head = ChainHead.objects.filter(pk=1).first()
    if head is not None and (head.seq != checked or head.hash != prev):
        return ChainReport(
            False,
            checked,
            checked + 1 if head.seq > checked else checked,
            f"the chain should end at event #{head.seq}, but the last event found is #{checked}",
        )
    return ChainReport(True, checked)

"""The tamper-evident audit trail: append-only events in chains, each event's hash keyed and linked to the one
before it in its chain.

- **Chains.** An event with a case belongs to the case's chain (`case:<id>`), one without (a person, a dog,
  an incident recorded) to its city's chain (`city:<jurisdiction>`). An append locks only its chain's head,
  so acts on different cases, and record changes in different cities, do not wait for each other. The events
  written before chains existed are the chain `global`, hashed by the old unkeyed rule and sealed, at the
  cut-over, by a keyed event in the chain `audit` that names its length and last hash.
- **Keyed.** `hash = HMAC-SHA256(DOGCASE_AUDIT_KEY, prev_hash + "\\n" + canonical JSON)`. The key lives in
  the environment, not in the database: whoever can write the database cannot recompute a changed event's
  hash.
- **Checkpoints.** `checkpoint()` is a signed list of every chain's head and the number of events, meant to
  be kept off the server; `verify_chains(checkpoint=...)` proves that nothing before it changed or went
  missing since: not an event (the count, and each chain's hash at its place), not a chain, not a case.

`append_event` is the only writer of `Event`; the legal-act functions call it inside their own transaction,
after `lock_chain`, so an act and its event are committed together or not at all.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import itertools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone

from dogcase.cases import append_only
from dogcase.cases.append_only import SEQUENCE
from dogcase.cases.bulk import insert_rows
from dogcase.cases.models import ChainHead, Event

GENESIS = "0" * 64
LEGACY_CHAIN = "global"  # every event written before chains per case, by the unkeyed rule
AUDIT_CHAIN = "audit"  # the trail's own events: the seal of the legacy chain
SEAL_ACT = "seal_global_chain"
CHECKPOINT_FORMAT = "dogcase-audit-checkpoint/1"


# ------------------------------------------------------------------------------------------------ hashing


def audit_key() -> bytes:
    key = getattr(settings, "DOGCASE_AUDIT_KEY", "")
    if not key:
        raise RuntimeError("DOGCASE_AUDIT_KEY is not configured")
    return key.encode()


class WrongAuditKey(RuntimeError):
    """The key configured is not the one this database's events are signed with."""


# (database, key id) pairs this process has checked: the check costs one query per process, not per act
_keys_checked: set[tuple[str, str]] = set()


def check_key_matches_database() -> None:
    """Refuse to sign with a key that is not the database's: the latest keyed event must verify with it.

    Without this, a command started without the production key (say DEBUG left at its development default)
    would sign new events with another key: `verify` would later report them as changed, and events signed
    with the published development key could be forged by anyone."""
    connection = transaction.get_connection()
    mark = (str(connection.settings_dict.get("NAME")), key_id())
    if mark in _keys_checked:
        return
    last = Event.objects.exclude(chain=LEGACY_CHAIN).order_by("-seq").first()
    if last is not None and not hmac.compare_digest(event_hash(last.prev_hash, last), last.hash):
        raise WrongAuditKey(
            "DOGCASE_AUDIT_KEY is not the key this database's audit trail is signed with (its latest event does "
            f"not verify with key id {mark[1]}): set the database's key (DOGCASE_AUDIT_KEY or "
            "DOGCASE_AUDIT_KEY_FILE), or run `dogcase audit verify` if the trail itself may have been changed."
        )
    _keys_checked.add(mark)


def key_id(key: bytes | None = None) -> str:
    """A fingerprint of the key (not the key): says which key signed a checkpoint."""
    return hmac.new(key or audit_key(), b"dogcase audit key id", hashlib.sha256).hexdigest()[:16]


def _body(event: Event) -> dict[str, Any]:
    return {
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


# json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")), without a new encoder each time
_CANONICAL_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _dumps(body: Any) -> str:
    return _CANONICAL_JSON.encode(body)


def canonical(event: Event) -> str:
    """The exact text that is hashed: every field that carries meaning, in a fixed order and format. The
    chain and the place in it are part of it, so an event cannot be moved to another chain or place."""
    if event.chain == LEGACY_CHAIN:
        return _dumps(_body(event))
    return _dumps({**_body(event), "chain": event.chain, "chain_seq": event.chain_seq})


def event_hash(prev_hash: str, event: Event, *, key: bytes | None = None) -> str:
    text = f"{prev_hash}\n{canonical(event)}".encode()
    if event.chain == LEGACY_CHAIN:
        return hashlib.sha256(text).hexdigest()
    return hmac.new(key or audit_key(), text, hashlib.sha256).hexdigest()


_PLAIN = frozenset((str, int, bool, type(None)))


def jsonable(value: Any) -> Any:
    """Data as it will read back from any database's JSON column: dates as ISO text, no floats."""
    kind = type(value)
    if kind in _PLAIN:  # most of an event's data, answered without the checks below
        return value
    if kind is dict:
        return {
            k if type(k) is str else str(k): v if type(v) in _PLAIN else jsonable(v) for k, v in value.items()
        }
    if kind is list:
        return [v if type(v) in _PLAIN else jsonable(v) for v in value]
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


# ------------------------------------------------------------------------------------------------ writing


def case_chain(case_id: int) -> str:
    return f"case:{case_id}"


def city_chain(jurisdiction: str) -> str:
    return f"city:{jurisdiction}"


def chain_of(*, case=None, jurisdiction: str) -> str:
    return case_chain(case.pk) if case is not None else city_chain(jurisdiction)


def lock_chain(chain: str) -> ChainHead:
    """Lock one chain's head until the transaction ends (created at its first event). Every act takes the
    lock of the chain its event goes to before it reads what it decides on, so acts on one case (or one
    city's records) run one after the other, and acts on different ones side by side."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a chain is locked inside the legal act's transaction")
    if connection.vendor == "sqlite":
        # SQLite has no row locks; its writers already queue on the database (IMMEDIATE transactions).
        head, _ = ChainHead.objects.get_or_create(chain=chain, defaults={"seq": 0, "hash": GENESIS})
        return head
    head = ChainHead.objects.select_for_update().filter(chain=chain).first()
    if head is None:
        ChainHead.objects.get_or_create(chain=chain, defaults={"seq": 0, "hash": GENESIS})
        head = ChainHead.objects.select_for_update().get(chain=chain)
    return head


_NEXT_SEQ = (
    "SELECT CASE WHEN n > m THEN n ELSE setval(%s, m + 1) END FROM (SELECT nextval(%s) AS n, "
    "(SELECT COALESCE(MAX(seq), 0) FROM cases_event) AS m) AS x"
)


def _next_seq() -> int:
    """The next event number: from the sequence on PostgreSQL (never handed out twice, no waiting), put
    forward past the highest number stored if a restore loaded events without it; under the database's write
    lock on SQLite."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_NEXT_SEQ, [SEQUENCE, SEQUENCE])
            return cursor.fetchone()[0]
    return (Event.objects.aggregate(m=Max("seq"))["m"] or 0) + 1


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
    chain: str | None = None,
    actor_name: str | None = None,
) -> Event:
    """Append one event to its chain (its case's, or its city's). Must run inside the caller's transaction
    (the act's); the head is locked here if the act has not locked it already."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("append_event must run inside the legal act's transaction")
    if corrects is not None and kind != Event.Kind.CORRECTION:  # the index of corrections holds no other kind
        raise ValueError(f"an event that corrects another is a correction, not {kind!r}")
    check_key_matches_database()
    chain = chain or chain_of(case=case, jurisdiction=jurisdiction)
    head = lock_chain(chain)
    event = Event(
        seq=_next_seq(),
        chain=chain,
        chain_seq=head.seq + 1,
        at=at,
        jurisdiction=jurisdiction,
        case=case,
        actor=actor,
        actor_name=(actor_name or (actor.get_username() if actor is not None else "dogcase (system)"))[:150],
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
    ChainHead.objects.filter(pk=head.pk).update(seq=event.chain_seq, hash=event.hash)
    head.seq, head.hash = event.chain_seq, event.hash
    return event


_MARKS = {name: f"\x00{name}\x00" for name in ("seq", "chain_seq", "act", "summary", "data")}


def _batch_text(template: Event):
    """canonical() of the events of a batch, as a function of what differs between them (seq, chain_seq, act,
    summary, data): the template's canonical text (the other fields its own), each of those filled in where
    canonical() puts it, encoded as canonical() encodes it."""
    for name, mark in _MARKS.items():
        setattr(template, name, mark)
    pattern = canonical(template).replace("{", "{{").replace("}", "}}")
    for name, mark in _MARKS.items():
        quoted = _dumps(mark)
        if pattern.count(quoted) != 1:
            raise RuntimeError(f"the canonical text of an event holds its {name} other than once")
        pattern = pattern.replace(quoted, "{" + name + "}")
    fill = pattern.format

    def text_of(seq: int, chain_seq: int, act: str, summary: str, data_text: str) -> str:
        """`data_text` is the data as canonical() encodes it (_dumps): encoded once, hashed and written."""
        return fill(
            seq=int(seq),
            chain_seq=int(chain_seq),
            act=_dumps(act),
            summary=_dumps(summary),
            data=data_text,
        )

    return text_of


def append_events(
    *,
    at: dt.datetime,
    jurisdiction: str,
    kind: str,
    actor,
    actor_roles: str,
    items: list[tuple[str, str, dict]],
) -> int:
    """Append many record events to the city's chain at once, each (act, summary, data) its own event with
    its own number and hash, exactly as append_event would write them one by one: a file of records brought
    in (dogcase.imports) writes each record's event without a statement and a lock each. Returns how many
    were appended (no model object is built for them: most of the time of a large file went into those)."""
    if not items:
        return 0
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("append_events must run inside the legal act's transaction")
    check_key_matches_database()
    chain = city_chain(jurisdiction)
    head = lock_chain(chain)
    first = _next_seq()
    if connection.vendor == "postgresql" and len(items) > 1:
        with connection.cursor() as cursor:  # the numbers after `first`, from the same sequence
            cursor.execute("SELECT nextval(%s) FROM generate_series(2, %s)", [SEQUENCE, len(items)])
            seqs = [first, *(row[0] for row in cursor.fetchall())]
    else:
        seqs = list(range(first, first + len(items)))
    name = actor.get_username()[:150] if actor is not None else "dogcase (system)"
    # Each event as append_event writes it, without a model object: the values every event of the batch shares
    # set once, its hashed text (canonical) filled in around what differs from one event to the next
    # (_batch_text), its row written as the values are (a date and the data as the database takes them).
    fields = Event._meta.concrete_fields
    values = {f.attname: f.get_default() for f in fields}
    values.update(chain=chain, at=at, jurisdiction=jurisdiction, case_id=None, actor_id=getattr(actor, "pk", None),
                  actor_name=name, actor_roles=actor_roles, kind=str(kind), citation="", layer="",
                  corrects_id=None, idempotency_key=None)  # fmt: skip
    text_of = _batch_text(Event(*values.values()))
    mac = hmac.new(audit_key(), digestmod=hashlib.sha256)
    db = connection.ops
    values.update(at=db.adapt_datetimefield_value(at))  # the row as written (its data adapted each)
    columns = [f.attname for f in fields if not f.primary_key]
    shared = [values[c] for c in columns]
    place = {c: columns.index(c) for c in ("seq", "chain_seq", "act", "summary", "data", "prev_hash", "hash")}
    i_seq, i_chain_seq, i_act, i_summary, i_data, i_prev, i_hash = place.values()
    adapt_data, data_encoder = db.adapt_json_value, Event._meta.get_field("data").encoder
    # SQLite keeps JSON as text: the canonical text itself (the same value, read back alike) is written, not
    # a second encoding of the data; other databases take the data as they always do
    text_is_stored = connection.vendor == "sqlite" and data_encoder is None
    prev, chain_seq, rows = head.hash, head.seq, []
    for seq, (act, summary, data) in zip(seqs, items, strict=True):
        chain_seq += 1
        summary, data = summary[:500], jsonable(data)
        data_text = _dumps(data)
        one = mac.copy()
        one.update(f"{prev}\n{text_of(seq, chain_seq, act, summary, data_text)}".encode())
        row = shared.copy()
        row[i_seq], row[i_chain_seq], row[i_act], row[i_summary] = seq, chain_seq, act, summary
        row[i_data] = data_text if text_is_stored else adapt_data(data, data_encoder)
        row[i_prev] = prev
        row[i_hash] = prev = one.hexdigest()
        if not rows:  # _batch_text is canonical() to the byte: the first event's hash as verify computes it
            first = Event(**dict(zip(columns, row, strict=True)))
            first.at, first.data = at, data
            if event_hash(first.prev_hash, first) != first.hash:
                raise RuntimeError("append_events hashed an event otherwise than event_hash")
        rows.append(row)
    insert_rows(Event, columns, rows)
    ChainHead.objects.filter(pk=head.pk).update(seq=chain_seq, hash=prev)
    head.seq, head.hash = chain_seq, prev
    return len(rows)


# -------------------------------------------------------------------------------------------- verifying


@dataclass
class ChainReport:
    ok: bool
    checked: int
    first_broken: int | None = None  # seq of the first event found wrong
    problem: str = ""  # the first problem, in words
    chains: int = 0
    problems: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "chains": self.chains,
            "first_broken_event": self.first_broken,
            "problem": self.problem,
            "problems": self.problems,
        }


class Problems:
    """Problems as they are found; the report lists the first LIMIT and counts the rest."""

    LIMIT = 1000

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.count = 0
        self.first_event: int | None = None

    def add(self, problem: str, **where: Any) -> None:
        self.count += 1
        if self.first_event is None and where.get("event") is not None:
            self.first_event = where["event"]
        if len(self.items) < self.LIMIT:
            self.items.append({**{k: v for k, v in where.items() if v is not None}, "problem": problem})


def _verify_one_chain(
    chain: str, events: Iterable[Event], head: ChainHead | None, problems, key, seals: list[Event]
) -> tuple:
    """Walk one chain from its first event; stop at the first wrong one (what follows cannot be trusted).
    Returns (events checked, last chain_seq, last hash); last is None when the chain is broken."""
    prev, expected, checked = GENESIS, 1, 0
    for event in events:
        if event.chain_seq != expected:
            problems.add(
                f"chain {chain}: event {expected} of the chain is missing (next found is {event.chain_seq}, "
                f"event #{event.seq})",
                chain=chain,
                event=event.seq,
            )
            return checked, None, None
        if event.prev_hash != prev:
            problems.add(
                f"event #{event.seq} does not link to the event before it in chain {chain}",
                chain=chain,
                event=event.seq,
            )
            return checked, None, None
        if event_hash(prev, event, key=key) != event.hash:
            problems.add(
                f"event #{event.seq} (chain {chain}, {event.act}) was changed after it was written, or "
                "DOGCASE_AUDIT_KEY is not the key it was written with",
                chain=chain,
                event=event.seq,
            )
            return checked, None, None
        where = _where_it_belongs(event)
        if where is not None and where != chain:
            problems.add(
                f"event #{event.seq} belongs to chain {where} but is in chain {chain}",
                chain=chain,
                event=event.seq,
            )
            return checked, None, None
        if chain == AUDIT_CHAIN and event.act == SEAL_ACT:
            seals.append(event)
        prev = event.hash
        expected += 1
        checked += 1
    last = expected - 1
    if head is None:
        if last:
            problems.add(f"chain {chain} has {last} events but no head", chain=chain)
    elif head.seq != last or (last and head.hash != prev):
        problems.add(
            f"chain {chain} should end at its event {head.seq}, but the last event found is its event {last}",
            chain=chain,
            event=None,
        )
    return checked, last, prev


def _where_it_belongs(event: Event) -> str | None:
    if event.chain in (LEGACY_CHAIN, AUDIT_CHAIN):
        return None
    return case_chain(event.case_id) if event.case_id else city_chain(event.jurisdiction)


def _events_by_chain(chunk_size: int):
    """(chain, its events in order) for every chain, from one ordered scan of the events."""
    events = Event.objects.order_by("chain", "chain_seq").iterator(chunk_size=chunk_size)
    return itertools.groupby(events, key=lambda e: e.chain)


def verify_chains(*, checkpoint: Mapping[str, Any] | None = None, chunk_size: int = 2000) -> ChainReport:
    """Recompute every chain: each event's place, link and keyed hash, each head, the seal of the legacy
    chain, and — given a checkpoint — that every chain still holds, unchanged, what the checkpoint saw."""
    key = audit_key()
    problems = Problems()
    heads = {h.chain: h for h in ChainHead.objects.all()}
    ends: dict[str, tuple[int | None, str | None]] = {}
    checked = 0
    legacy: dict[str, Any] = {}
    seals: list[Event] = []
    for chain, events in _events_by_chain(chunk_size):
        n, last, last_hash = _verify_one_chain(chain, events, heads.get(chain), problems, key, seals)
        checked += n
        ends[chain] = (last, last_hash)
        if chain == LEGACY_CHAIN:
            legacy = {"events": last, "ok": last is not None, "head": last_hash}
    for chain, head in heads.items():
        if chain not in ends and head.seq:
            problems.add(f"chain {chain} should have {head.seq} events; none is left", chain=chain)
    _check_seal(legacy, seals, problems)
    if checkpoint is not None:
        _check_against(checkpoint, ends, problems)
    for name in append_only.missing_triggers(connection):
        problems.add(f"the database does not refuse changes to events: trigger {name} is missing or disabled")
    return ChainReport(
        ok=problems.count == 0,
        checked=checked,
        first_broken=problems.first_event,
        problem=problems.items[0]["problem"] if problems.items else "",
        chains=len(ends),
        problems=problems.items,
    )


def verify_chain(*, chunk_size: int = 2000) -> ChainReport:
    """The chains alone (no checkpoint): what tests and the backup's restore check first."""
    return verify_chains(chunk_size=chunk_size)


def _check_seal(legacy: Mapping[str, Any], seals: list[Event], problems: Problems) -> None:
    """The unkeyed legacy chain is trusted only as far as the keyed seal written at the cut-over vouches."""
    if not legacy and not seals:
        return
    if not seals:
        problems.add(
            f"the {legacy['events']} events of the chain '{LEGACY_CHAIN}' (written before chains per case) have "
            "no seal: the event that vouched for them is gone",
            chain=LEGACY_CHAIN,
        )
        return
    seal = seals[0].data
    if not legacy:
        if seal.get("events"):
            problems.add(
                f"the chain '{LEGACY_CHAIN}' had {seal['events']} events at the cut-over; none is left",
                chain=LEGACY_CHAIN,
                event=seals[0].seq,
            )
        return
    if legacy["ok"] and (seal.get("events") != legacy["events"] or seal.get("head") != legacy["head"]):
        problems.add(
            f"the chain '{LEGACY_CHAIN}' is not the chain sealed at the cut-over (event #{seals[0].seq}: "
            f"{seal.get('events')} events ending in {str(seal.get('head'))[:12]}…; now {legacy['events']} ending "
            f"in {str(legacy['head'])[:12]}…): its events were changed and their hashes recomputed",
            chain=LEGACY_CHAIN,
            event=seals[0].seq,
        )


def seal_legacy_chain(event_model, head_model, *, at: dt.datetime) -> None:
    """The cut-over (migration 0005): vouch, with the key, for the chain written before chains per case: its
    length and last hash, in the first event of the chain `audit`. Takes the migration's historical models."""
    last = event_model.objects.filter(chain=LEGACY_CHAIN).order_by("-chain_seq").first()
    if last is None:
        return
    seal = event_model(
        seq=last.seq + 1,
        chain=AUDIT_CHAIN,
        chain_seq=1,
        at=at,
        jurisdiction="",
        actor_name="dogcase (system)",
        actor_roles="",
        kind="system",
        act=SEAL_ACT,
        summary=f"Audit trail moved to chains per case and city; the {last.chain_seq} events written before are "
        f"sealed (chain '{LEGACY_CHAIN}', last hash {last.hash})",
        data={"events": last.chain_seq, "head": last.hash, "rule": "sha256, unkeyed"},
        prev_hash=GENESIS,
    )
    seal.hash = event_hash(GENESIS, seal)
    seal.save(force_insert=True)
    head_model.objects.update_or_create(chain=AUDIT_CHAIN, defaults={"seq": 1, "hash": seal.hash})


# ------------------------------------------------------------------------------------------ checkpoints


def _signature(body: Mapping[str, Any], key: bytes) -> str:
    return hmac.new(key, _dumps(body).encode(), hashlib.sha256).hexdigest()


def checkpoint(*, at: dt.datetime | None = None) -> dict[str, Any]:
    """A signed list of every chain's head, to keep off the server (a printout, another machine, a mail to
    the city attorney): `dogcase audit verify --checkpoint FILE` then proves that no event written before it
    was changed or removed. Read from the events themselves, not from the head rows."""
    key = audit_key()
    ends: dict[str, dict[str, Any]] = {}
    total = 0
    with transaction.atomic():
        for chain, last_seq, last_hash in (
            Event.objects.order_by("chain", "-chain_seq")
            .distinct("chain")
            .values_list("chain", "chain_seq", "hash")
            if connection.vendor == "postgresql"
            else _last_per_chain()
        ):
            ends[chain] = {"seq": last_seq, "hash": last_hash}
            total += last_seq
    body = {
        "format": CHECKPOINT_FORMAT,
        "created_at": (at or timezone.now()).astimezone(dt.UTC).isoformat(timespec="seconds"),
        "key_id": key_id(key),
        "events": total,
        "chains": dict(sorted(ends.items())),
    }
    return {**body, "signature": _signature(body, key)}


def _last_per_chain():
    last = Event.objects.values("chain").annotate(m=Max("chain_seq"))
    wanted = {(row["chain"], row["m"]) for row in last}
    for chain, chain_seq, hash_ in Event.objects.order_by("chain").values_list("chain", "chain_seq", "hash"):
        if (chain, chain_seq) in wanted:
            yield chain, chain_seq, hash_


class CheckpointInvalid(ValueError):
    pass


def read_checkpoint(data: Any) -> dict[str, Any]:
    """A checkpoint as written by `checkpoint()`, its signature checked; CheckpointInvalid says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointInvalid(f"not a dogcase audit checkpoint (format must be {CHECKPOINT_FORMAT!r})")
    key = audit_key()
    body = {k: v for k, v in data.items() if k != "signature"}
    if data.get("key_id") != key_id(key):
        raise CheckpointInvalid(
            f"the checkpoint was signed with another key (key id {data.get('key_id')}; DOGCASE_AUDIT_KEY here is "
            f"{key_id(key)})"
        )
    if not hmac.compare_digest(str(data.get("signature", "")), _signature(body, key)):
        raise CheckpointInvalid(
            "the checkpoint's signature does not match: it was changed after it was signed"
        )
    chains = data.get("chains")
    if not isinstance(chains, dict) or not all(
        isinstance(v, dict) and isinstance(v.get("seq"), int) and isinstance(v.get("hash"), str)
        for v in chains.values()
    ):
        raise CheckpointInvalid("chains: each chain needs its seq and hash")
    return data


def _check_against(cp: Mapping[str, Any], ends, problems: Problems) -> None:
    """Every chain the checkpoint saw is still there, with the checkpoint's hash at the checkpoint's place:
    each hash covers every event before it in its chain, so none of them changed or went missing."""
    saw = cp["chains"]
    at_checkpoint = {(e.chain, e.chain_seq): e for e in _events_at(saw)}
    for chain, then in saw.items():
        if chain not in ends:
            problems.add(
                f"chain {chain} had {then['seq']} events at the checkpoint of {cp['created_at']}; none is left",
                chain=chain,
            )
            continue
        event = at_checkpoint.get((chain, then["seq"]))
        if event is None:
            problems.add(
                f"chain {chain} had {then['seq']} events at the checkpoint of {cp['created_at']}; its event "
                f"{then['seq']} is gone",
                chain=chain,
            )
        elif event.hash != then["hash"]:
            problems.add(
                f"chain {chain} is not the chain of the checkpoint of {cp['created_at']}: its event {then['seq']} "
                f"(#{event.seq}) has another hash, so it or an event before it was changed",
                chain=chain,
                event=event.seq,
            )
    # the count last: each chain's own problem, above, names the chain
    left = sum(min(then["seq"], ends[chain][0] or 0) for chain, then in saw.items() if chain in ends)
    if isinstance(cp.get("events"), int) and left < cp["events"]:
        problems.add(
            f"the checkpoint of {cp['created_at']} counted {cp['events']} events in {len(saw)} chains; "
            f"{left} of them are left in an unbroken chain",
        )


def _events_at(saw: Mapping[str, Mapping[str, Any]]):
    """The events at the checkpoint's places: one query per thousand chains."""
    items = list(saw.items())
    for start in range(0, len(items), 1000):
        q = Q()
        for chain, then in items[start : start + 1000]:
            q |= Q(chain=chain, chain_seq=then["seq"])
        yield from Event.objects.filter(q).only("seq", "chain", "chain_seq", "hash")

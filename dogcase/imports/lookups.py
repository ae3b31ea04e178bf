"""The keys a walk of a file (dogcase.imports.walk) finds records by, kept out of the process's memory.

A row is matched to a record already there, or to the record of an earlier row of the same file: the same
person by name and street, e-mail or phone; the same dog by microchip; the same premises; what the same source
brought in under the same id. Those keys are as many as the city's records and the file's rows; held in dicts
they made an import grow by about 0.75 KB a row. Here they live in a temporary table of the walk's own
connection (CREATE TEMP TABLE, on SQLite and PostgreSQL alike: no migration; dropped at the end of the walk, and
gone with the connection or a rolled-back transaction in any case), one row a key: its kind, the key's text (the
primary key with the kind: a key is found by its whole text, so two keys are never taken for each other) and the
record's id (NEW in a check, which saves nothing).

A kind is filled from the city's records the first time it is asked for, a few thousand records at a time. A
chunk of rows names the keys it will ask for (`want`) before its rows are handled, and they are read in one
query a kind. The records the rows of a chunk create or link are kept in a small dict until the chunk is
flushed (`flush`, after the records are written and have their ids), then written to the table in order of
their keys, a few hundred a statement (the pages of the table each statement touches are then neighbours). What
the process holds grows with a chunk, not with the file: the table is in SQLite's temporary file behind its
page cache of a few megabytes, or in PostgreSQL's temp_buffers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.db import DatabaseError, connection

from dogcase.cases.bulk import rewrite_once

NEW = -1  # in a check, which saves nothing: a record new in this file, in place of its id
PER_QUERY = 2048  # keys a query asks for at most (within every database's limit of parameters)
PER_INSERT = 1024  # rows a statement writes at most (four values each: within every database's limit)
PAD = 0  # the kind of the rows that fill a statement up to its size (never asked for)
SPOTS = 1 << 24  # bits of the store's sketch of the keys it has (2 MB, however many keys)
_LOW = SPOTS - 1
FILL_BATCH = 5000  # records read at a time when a kind is filled from the city's records
_tables = itertools.count(1)


def by_pk(queryset, *fields: str, newest_first: bool = False, size: int = FILL_BATCH) -> Iterator[tuple]:
    """(pk, *fields) of every row of `queryset`, in the order of their ids, read `size` rows at a time (a
    city's records are never all in memory at once)."""
    last = None
    while True:
        page = queryset
        if last is not None:
            page = page.filter(pk__lt=last) if newest_first else page.filter(pk__gt=last)
        batch = list(page.order_by("-pk" if newest_first else "pk").values_list("pk", *fields)[:size])
        yield from batch
        if len(batch) < size:
            return
        last = batch[-1][0]


def _id_of(value: Any) -> int:
    """What the table keeps of a value: an id as it is; a record its id once saved, else NEW (a record a
    commit with a problem will never save, which later rows still find as taken)."""
    if type(value) is int:
        return value
    pk = getattr(value, "pk", None)
    return pk if pk is not None else NEW


class Store:
    """One walk's keys. `fill(kind)`: the (key, id) pairs of the city's records of a kind, or None; where a key
    is given more than once, the last one wins (as a later row's value does)."""

    def __init__(self, fill: Callable[[str], Iterable[tuple[str, int]] | None]) -> None:
        self.fill = fill
        self.table = f"dogcase_import_keys_{next(_tables)}"
        self.created = False
        self.codes: dict[str, int] = {}  # kind -> its number in the table (filled when numbered)
        self.chunk: dict[str, dict[str, Any]] = {}  # kind -> key -> value: what this chunk's rows kept
        self.notes: dict[str, dict[str, str]] = {}  # kind -> key -> a text kept with the value
        self.known: dict[str, dict[str, Any]] = {}  # kind -> key -> id or None: what the table answered
        self.wanted: dict[str, set[str]] = {}  # kind -> keys this chunk will ask for
        # two bits a key written (of its hash, in this process): a key with either bit clear is not in the table,
        # and is not asked for (most keys of a file new to the city); a key with both set is asked for
        self.sketch = bytearray(SPOTS // 8)

    # ------------------------------------------------------------------------------------------ table

    def open(self) -> None:
        if self.created:
            return
        if connection.vendor == "postgresql":
            kind, key, clustered = "SMALLINT", 'TEXT COLLATE "C"', ""
        else:
            kind, key, clustered = "INTEGER", "TEXT", " WITHOUT ROWID"  # the rows in the primary key's order
        with connection.cursor() as cur:
            cur.execute(
                f"CREATE TEMPORARY TABLE {self.table} (kind {kind} NOT NULL, key {key} NOT NULL, "
                f"id BIGINT NOT NULL, note TEXT, PRIMARY KEY (kind, key)){clustered}"
            )
        self.created = True

    def close(self) -> None:
        """The table dropped (a transaction that failed has taken it back already)."""
        if not self.created:
            return
        self.created = False
        try:
            with connection.cursor() as cur:
                cur.execute(f"DROP TABLE IF EXISTS {self.table}")
        except DatabaseError:  # the transaction failed: its rollback removes the table
            pass

    def code(self, kind: str) -> int:
        """The kind's number, the kind filled from the city's records the first time it is used."""
        code = self.codes.get(kind)
        if code is None:
            self.open()
            code = self.codes[kind] = len(self.codes) + 1
            pairs = self.fill(kind)
            if pairs is not None:
                batch: dict[str, tuple] = {}
                for key, pk in pairs:
                    batch[key] = (code, key, pk, None)  # the last of a key's records wins
                    if len(batch) >= FILL_BATCH:
                        self._write(list(batch.values()))
                        batch = {}
                self._write(list(batch.values()))
        return code

    def _write(self, rows: list[tuple]) -> None:
        """(kind, key, id, note) rows, each replacing the row of its key if there is one (no key twice)."""
        rows.sort()  # by kind and key (no key twice: the rest of a row is never compared)
        sketch = self.sketch
        for code, key, _id, _note in rows:
            h = hash(key) + code
            a, b = h & _LOW, (h >> 32) & _LOW
            sketch[a >> 3] |= 1 << (a & 7)
            sketch[b >> 3] |= 1 << (b & 7)
        t = self.table
        with connection.cursor() as cur:
            rewrite_once(cur)
            for start in range(0, len(rows), PER_INSERT):
                batch = rows[start : start + PER_INSERT]
                # filled up to its size with rows of their own kind: see _size
                batch += [(PAD, str(i), 0, None) for i in range(_size(len(batch)) - len(batch))]
                marks = ", ".join(["(%s, %s, %s, %s)"] * len(batch))
                cur.execute(
                    f"INSERT INTO {t} (kind, key, id, note) VALUES {marks} "  # noqa: S608 - our own table
                    "ON CONFLICT (kind, key) DO UPDATE SET id = excluded.id, note = excluded.note",
                    [v for row in batch for v in row],
                )

    # ------------------------------------------------------------------------------------------ keys

    def want(self, kind: str, key: str) -> None:
        """A key a row of the coming chunk will ask for: read with the chunk's others, in one query."""
        wanted = self.wanted.get(kind)
        if wanted is None:
            wanted = self.wanted[kind] = set()
        wanted.add(key)

    def want_all(self, kind: str, keys: Iterable[str]) -> None:
        """Keys a row of the coming chunk will ask for (want's)."""
        wanted = self.wanted.get(kind)
        if wanted is None:
            wanted = self.wanted[kind] = set()
        wanted.update(keys)

    def get(self, kind: str, key: str) -> Any:
        """The value kept under the key (an id, NEW, or a record of this chunk not yet flushed), or None."""
        chunk = self.chunk.get(kind)
        if chunk is not None and key in chunk:
            return chunk[key]
        known = self.known.get(kind)
        if known is None:
            known = self.known[kind] = {}
        elif key in known:
            return known[key]
        wanted = self.wanted.pop(kind, None) or set()
        wanted.add(key)
        self._read(kind, wanted, known)
        return known[key]

    def _read(self, kind: str, wanted: set[str], known: dict[str, Any]) -> None:
        """The wanted keys' values (None: not in the table) into `known`; a key the sketch says the table has
        not is not asked for."""
        code = self.codes.get(kind) or self.code(kind)
        sketch, keys = self.sketch, []
        for key in wanted:
            if key in known:
                continue
            known[key] = None
            h = hash(key) + code
            a, b = h & _LOW, (h >> 32) & _LOW
            if sketch[a >> 3] & (1 << (a & 7)) and sketch[b >> 3] & (1 << (b & 7)):
                keys.append(key)
        if not keys:
            return
        keys.sort()
        with connection.cursor() as cur:
            rewrite_once(cur)
            for start in range(0, len(keys), PER_QUERY):
                batch = keys[start : start + PER_QUERY]
                batch += batch[-1:] * (_size(len(batch)) - len(batch))  # a key twice: see _size
                marks = ", ".join(["%s"] * len(batch))
                cur.execute(
                    f"SELECT key, id FROM {self.table} WHERE kind = %s AND key IN ({marks})",  # noqa: S608
                    [code, *batch],
                )
                known.update(cur.fetchall())

    def put(self, kind: str, key: str, value: Any, note: str | None = None) -> None:
        """Keep `value` under the key (a record not yet saved: its id once the chunk is flushed)."""
        self.chunk.setdefault(kind, {})[key] = value
        if note is not None:
            self.notes.setdefault(kind, {})[key] = note

    def flush(self) -> None:
        """What this chunk's rows kept, written to the table (once their records have their ids)."""
        rows = []
        for kind, entries in self.chunk.items():
            code = self.code(kind)
            notes = self.notes.get(kind, {})
            rows.extend((code, key, _id_of(value), notes.get(key)) for key, value in entries.items())
        self._write(rows)
        self.chunk.clear()
        self.notes.clear()
        self.known.clear()
        self.wanted.clear()

    def noted(self, kind: str, size: int = 1000) -> Iterator[list[tuple[int, str]]]:
        """(id, note) of every key of a kind, in the order of the keys, `size` at a time."""
        if kind not in self.codes:
            return
        code, last = self.codes[kind], None
        while True:
            with connection.cursor() as cur:
                cur.execute(
                    f"SELECT key, id, note FROM {self.table} WHERE kind = %s AND key > %s "  # noqa: S608
                    "ORDER BY key LIMIT %s",
                    [code, "" if last is None else last, size],
                )
                batch = cur.fetchall()
            if batch:
                yield [(pk, note) for _key, pk, note in batch]
            if len(batch) < size:
                return
            last = batch[-1][0]


def _size(n: int) -> int:
    """The size of a statement for `n` rows or keys: a power of two from 16. The database's driver prepares
    each statement text once and keeps it (one of a thousand rows is a large program): a statement for every
    number met would be hundreds kept, megabytes each, where these are at most eight."""
    return max(16, 1 << (n - 1).bit_length())


class Keyed:
    """One kind of the store, read and written by a walk's code as a dict (key -> value); `text` turns a key
    that is not a text (a tuple) into one."""

    def __init__(self, store: Store, kind: str, text: Callable[[Any], str] = str) -> None:
        self.store = store
        self.kind = kind
        self.text = text

    def get(self, key, default=None):
        value = self.store.get(self.kind, self.text(key))
        return default if value is None else value

    def __contains__(self, key) -> bool:
        return self.store.get(self.kind, self.text(key)) is not None

    def __getitem__(self, key):
        value = self.store.get(self.kind, self.text(key))
        if value is None:
            raise KeyError(key)
        return value

    def __setitem__(self, key, value) -> None:
        self.store.put(self.kind, self.text(key), value)

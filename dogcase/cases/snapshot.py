"""One consistent view of the database for a long read (an audit verification, a backup): what commits while
it runs is not seen at all, rather than seen by one part of the read and not by another."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connections, transaction


@contextlib.contextmanager
def read_snapshot(using: str = "default") -> Iterator[None]:
    """PostgreSQL: a REPEATABLE READ, READ ONLY transaction (writers go on; the read sees the state at its
    first query). SQLite: a plain deferred read transaction (a shared lock: in WAL mode writers go on and the
    read sees one state; otherwise writers wait until it ends). Django's own transactions on SQLite take the
    write lock at once, which would stop every writer for the whole read: not used here."""
    connection = connections[using]
    if connection.in_atomic_block:
        # already inside a transaction (a caller's, or a test's): the read has what consistency it gives
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic(using=using):
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    connection.ensure_connection()
    raw = connection.connection
    raw.execute("BEGIN DEFERRED")
    try:
        raw.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # takes the shared lock now
        yield
    finally:
        raw.execute("ROLLBACK")

"""The dashboard's kept statements (staff/ranked.py `read_kept`) prepared once on each PostgreSQL connection.

A dashboard's two large statements are the same words at every request of a user's kind of dashboard but for
one value, the moment. PostgreSQL planned them afresh at each request: at statewide size their planning cost
more than reading the rows (2-9 ms a statement against under 1 ms of execution). Here each is written once with
every value in it as the connection would have sent it (the same text the client-side binding sends today) but
the moment, which becomes the statement's one parameter ($1, timestamptz); it is PREPAREd on the connection the
first time that connection sends it, then sent as EXECUTE with the moment alone. The connection asks PostgreSQL
for the generic plan of a prepared statement (plan_cache_mode, config/settings.py): planned once on the
connection whatever the moment (again only when PostgreSQL must, after an ANALYZE or a change of the tables),
which appears only in the lists' conditions on what is overdue, never in how a list is read.

Each connection keeps at most KEPT_PER_CONNECTION statements (the oldest DEALLOCATEd). A connection that no
longer holds a statement (a DISCARD ALL, a pooler handing the session to another server connection) refuses its
EXECUTE: the statement is then sent as before, unprepared, and prepared again at the next request; one it holds
already though this process forgot it is used as it is (its name is its text's digest). DOGCASE_PG_PREPARE=off
sends every statement unprepared (the setting for a pooler in transaction mode)."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from collections import OrderedDict

from django.conf import settings
from django.db import DatabaseError, connection, transaction

KEPT_PER_CONNECTION = 64  # statements prepared on one connection (users' kinds of dashboard and days)


def enabled() -> bool:
    return connection.vendor == "postgresql" and settings.DOGCASE_PG_PREPARE == "on"


def inlined(sql: str, params: list | tuple, at: tuple[int, ...]) -> str:
    """`sql` with `params` written in as this connection writes them when it sends the statement, but those at
    the places `at` (the moment's), each written as $1. ValueError when a place cannot be told apart."""
    import psycopg

    token = f"dogcase-moment-{secrets.token_hex(8)}"
    values = [token if i in at else value for i, value in enumerate(params)]
    connection.ensure_connection()
    with psycopg.ClientCursor(connection.connection) as cursor:
        text = cursor.mogrify(sql, values)
    quoted = f"'{token}'"
    if text.count(quoted) != len(at) or token in text.replace(quoted, ""):
        raise ValueError("the moment's places were not written as expected")
    return text.replace(quoted, "$1")


def name_of(text: str) -> str:
    return "dogcase_" + hashlib.sha256(text.encode()).hexdigest()[:24]


def _known() -> OrderedDict[str, None]:
    """The statements this process prepared on the current connection (a new connection knows none)."""
    connection.ensure_connection()
    raw = connection.connection
    held = getattr(connection, "_dogcase_prepared", None)
    if held is None or held[0] is not raw:
        held = (raw, OrderedDict())
        connection._dogcase_prepared = held
    return held[1]


def forget() -> None:
    """Forget which statements the current connection holds (they are prepared again when next sent)."""
    connection._dogcase_prepared = None


def _recoverable():
    """Inside a transaction, a savepoint: a refused statement then leaves the transaction usable (a request is
    not inside one: the dashboard reads in autocommit)."""
    if connection.in_atomic_block or not connection.get_autocommit():
        return transaction.atomic()
    return contextlib.nullcontext()


def _errors() -> tuple[tuple[type[Exception], ...], tuple[type[Exception], ...]]:
    try:
        from psycopg import errors
    except ImportError:  # no PostgreSQL driver: nothing is ever prepared
        return (), ()
    return (errors.InvalidSqlStatementName,), (errors.DuplicatePreparedStatement,)


# the connection does not hold a statement this process prepared on it; holds one it did not know of
MISSING, HELD = _errors()


def _refused(error: DatabaseError, kinds: tuple[type[Exception], ...]) -> bool:
    return bool(kinds) and isinstance(error.__cause__, kinds)


def _send(sql: str, params=None) -> list[tuple] | None:
    with _recoverable(), connection.cursor() as cursor:
        # no values: the text goes as it is (its % signs are the statement's own)
        cursor.execute(sql) if params is None else cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def _prepare(name: str, text: str, known: OrderedDict[str, None]) -> None:
    try:
        _send(f"PREPARE {name}(timestamptz) AS {text}")
    except DatabaseError as error:
        # held already (by a request whose process forgot it): the name is the text's digest, the same statement
        if not _refused(error, HELD):
            raise
    known[name] = None
    while len(known) > KEPT_PER_CONNECTION:
        oldest, _ = known.popitem(last=False)
        try:
            _send(f"DEALLOCATE {oldest}")
        except DatabaseError as error:
            if not _refused(error, MISSING):
                raise


def fetch(text: str, moment, fallback: tuple[str, list]) -> list[tuple]:
    """The rows of `text` (a statement from `inlined`) at `moment`, prepared on this connection; `fallback`, the
    same statement as SQL and values, when the connection no longer holds it (it is prepared again next time)."""
    name = name_of(text)
    known = _known()
    if name in known:
        known.move_to_end(name)
    else:
        _prepare(name, text, known)
    try:
        return _send(f"EXECUTE {name}(%s)", [moment])
    except DatabaseError as error:
        if not _refused(error, MISSING):
            raise
        known.pop(name, None)
    sql, params = fallback
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()

"""bench/scale.py's pages: staff pages by URL through Django's test Client, each beside two floors measured in
the same run, and the measuring helpers the other parts share.

Every role's dashboard, then as the officer the case, dog, person and incident pages, each list's first page
and a page deep in it, search and the Law page: p50/p95 server time, bytes, queries. Beside each page:

- floor raw SQL: what the page's main query needs, written by hand and run through the same connection: the
  record's row for a record's page; for a list page, its rows after its cursor in its order, which must be
  the very rows the page shows. A page with no one main query (a dashboard, search, the Law page) has as its
  floor its own SELECT statements, captured from one request and sent again as they were.
- floor empty request: a view that only checks that the user is staff and answers an empty body
  (bench/scale_urls.py), through the same client and middleware: the fixed cost of a request.

A list pages only by a keyset cursor (dogcase/staff/keyset.py): `after=` the id of the previous page's last
row, in the link the page renders; `?page=N` is ignored (it is the first page). A deep page is reached the
way a link reaches it: page 1's rendered "next" link is followed and must be the link built here for page 2
(the cursor encoded as the view encodes it), then page N's cursor is built from the row the database holds
at that depth. The page timed must show the row expected there, not page 1's, or the run fails.
"""

from __future__ import annotations

import contextlib
import html
import math
import re
import statistics
import time
from dataclasses import dataclass

ROLE_USERS = ("officer", "police", "clerk", "hearing", "council", "auditor", "admin")
EMPTY_URL = "/bench/empty"  # bench/scale_urls.py
URLCONF = "bench.scale_urls"
DEPTH = 0.9  # the deep page of a list: this far into it

# ------------------------------------------------------------------------------------------ measurement


class QueryCount:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


@contextlib.contextmanager
def counting():
    from django.db import connection

    counter = QueryCount()
    with connection.execute_wrapper(counter):
        yield counter


class Capture:
    """The statements a request sends, as sent."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, object]] = []

    def __call__(self, execute, sql, params, many, context):
        if not many:
            self.statements.append((sql, params))
        return execute(sql, params, many, context)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    k = (len(ordered) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def measure_page(client, url: str, reps: int, budget: float) -> dict:
    client.get(url)  # warm-up: templates, the law pack's pages
    times, queries, size, status = [], 0, 0, None
    spent = 0.0
    for _ in range(reps):
        with counting() as q:
            started = time.perf_counter()
            response = client.get(url)
            seconds = time.perf_counter() - started
        times.append(seconds)
        queries, size, status = q.n, len(response.content), response.status_code
        spent += seconds
        if spent > budget and len(times) >= 3:
            break
    return {
        "url": url,
        "status": status,
        "n": len(times),
        "p50_ms": statistics.median(times) * 1000,
        "p95_ms": pct(times, 0.95) * 1000,
        "bytes": size,
        "queries": queries,
    }


def timed_reps(fn, reps: int, budget: float) -> dict:
    """`fn()` once to warm up, then up to `reps` times (3 at least, fewer past `budget` seconds): p50/p95
    server time and the queries of the last call."""
    fn()
    times, queries, spent = [], 0, 0.0
    for _ in range(reps):
        with counting() as q:
            started = time.perf_counter()
            fn()
            seconds = time.perf_counter() - started
        times.append(seconds)
        queries = q.n
        spent += seconds
        if spent > budget and len(times) >= 3:
            break
    return {
        "n": len(times),
        "p50_ms": statistics.median(times) * 1000,
        "p95_ms": pct(times, 0.95) * 1000,
        "queries": queries,
    }


# ------------------------------------------------------------------------------------------------ floors


def run_sql(sql: str, params) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchall()


def replayed(statements: list[tuple[str, object]]):
    """The page's own SELECT statements, sent again as they were (a prepared one as EXECUTE, on the same
    connection): the floor of a page with no one main query. Anything else (a session written, a savepoint,
    a statement prepared) is left out."""
    reads = [(s, p) for s, p in statements if s.lstrip().upper().startswith(("SELECT", "WITH", "EXECUTE"))]

    def run() -> None:
        for sql, params in reads:
            run_sql(sql, params)

    return run, f"the page's own {len(reads)} SELECT statements, sent again (*)", len(reads)


def in_list(values) -> str:
    return "(" + ", ".join(["%s"] * len(values)) + ")"


def joined(model, joins: tuple[str, ...]) -> tuple[list[str], str]:
    """The columns and LEFT JOINs of the rows a page's main query joins to `model`'s (select_related)."""
    from django.db import connection

    qn = connection.ops.quote_name
    select, join = ["t.*"], []
    for i, name in enumerate(joins):
        field = model._meta.get_field(name)
        alias = f"j{i}"
        table = qn(field.related_model._meta.db_table)
        join.append(f"LEFT JOIN {table} {alias} ON {alias}.id = t.{qn(field.column)}")
        select.append(f"{alias}.*")
    return select, " ".join(join)


# Table and column names below come from the models, quoted; every value is a parameter.


def record_sql(model, key: str, value, joins: tuple[str, ...] = ()) -> tuple[str, list]:
    """One record's row by its key, with the rows its page's main query joins to it."""
    from django.db import connection

    qn = connection.ops.quote_name
    select, join = joined(model, joins)
    column = qn(model._meta.get_field(key).column)
    table = qn(model._meta.db_table)
    return f"SELECT {', '.join(select)} FROM {table} t {join} WHERE t.{column} = %s", [value]  # noqa: S608


def list_sql(spec: ListSpec, cities, after: int | None, limit: int) -> tuple[str, list]:
    """A list page's rows (the first column their id) as one statement: the user's cities, after the row
    `after` in the list's order (a row value compared with that row's own, read in the statement), the
    tables the page's query joins, `limit` rows."""
    from django.db import connection

    qn = connection.ops.quote_name
    model = spec.model()
    table = qn(model._meta.db_table)
    select, join = joined(model, spec.joins)
    order = spec.order()
    descending = {o.startswith("-") for o in order}
    assert len(descending) == 1, order  # one direction: a row value compares them all at once
    desc = descending.pop()
    columns = [qn(model._meta.get_field(o.lstrip("-")).column) for o in order]
    where, params = [f"t.jurisdiction IN {in_list(cities)}"], list(cities)
    if after is not None:
        mine = ", ".join(f"t.{c}" for c in columns)
        its = ", ".join(f"a.{c}" for c in columns)
        where.append(
            f"({mine}) {'<' if desc else '>'} (SELECT {its} FROM {table} a "  # noqa: S608
            f"WHERE a.id = %s AND a.jurisdiction IN {in_list(cities)})"
        )
        params += [after, *cities]
    direction = " DESC" if desc else ""
    sql = (
        f"SELECT t.id, {', '.join(select)} FROM {table} t {join} WHERE {' AND '.join(where)} "  # noqa: S608
        f"ORDER BY {', '.join(f't.{c}{direction}' for c in columns)} LIMIT %s"
    )
    return sql, [*params, limit]


# ------------------------------------------------------------------------------------------------- lists


@dataclass(frozen=True)
class ListSpec:
    name: str  # "dog list"
    path: str  # its URL
    queryset: str  # the function of dogcase.staff.queries that gives a user's rows
    order_name: str  # and the order it pages in
    model_name: str
    key: str  # the field a row's own link carries ("pk", "number")
    link: str  # where a row's own link goes
    joins: tuple[str, ...] = ()  # the rows the page's main query joins (select_related)

    def model(self):
        from dogcase.cases import models

        return getattr(models, self.model_name)

    def order(self) -> tuple[str, ...]:
        from dogcase.staff import queries

        return getattr(queries, self.order_name)

    def rows(self, user):
        from dogcase.staff import queries

        return getattr(queries, self.queryset)(user).order_by(*self.order())


LISTS = (
    ListSpec("case list", "/cases/", "cases", "CASE_ORDER", "Case", "number", "/cases/", ("dog", "incident")),
    ListSpec("dog list", "/dogs/", "dogs", "DOG_ORDER", "Dog", "pk", "/dogs/", ("premises",)),
    ListSpec("people list", "/people/", "people", "PERSON_ORDER", "Person", "pk", "/people/"),
    ListSpec(
        "incident list", "/incidents/", "incidents", "INCIDENT_ORDER", "Incident", "number", "/incidents/"
    ),
)


class NotThatPage(AssertionError):
    """A list page measured is not the page it is named after."""


def page_size() -> int:
    from dogcase.staff.views import records

    return records.PAGE_SIZE  # read when asked: what the list views page by


def first_row(content: bytes | str, spec: ListSpec) -> str | None:
    """The key in the link of the first row a list page shows, None when it shows none."""
    text = content.decode() if isinstance(content, bytes) else content
    body = text.split("<tbody>", 1)
    if len(body) < 2:
        return None
    match = re.search(r'href="' + re.escape(spec.link) + r'([^"/?]+)"', body[1].split("</tbody>", 1)[0])
    return html.unescape(match.group(1)) if match else None


def next_link(content: bytes | str, path: str) -> str | None:
    """The "next page" link the page renders, as a URL (its href is relative to the list's path)."""
    text = content.decode() if isinstance(content, bytes) else content
    match = re.search(r'<a href="([^"]*)" rel="next">', text)
    if match is None:
        return None
    href = html.unescape(match.group(1))
    return path + href if href.startswith("?") else href


def cursor_url(spec: ListSpec, after: int | None) -> str:
    """The list's URL after the row `after`, encoded as the view encodes a position (keyset._cursor: the
    row's id)."""
    return spec.path if after is None else f"{spec.path}?after={after}"


def position(spec: ListSpec, user, page: int) -> dict:
    """Page `page` (1-based) of the list as the user sees it, from the rows themselves (an OFFSET, not
    timed): the id its cursor carries, the keys of the rows it must show."""
    size = page_size()
    start = (page - 1) * size
    fields = ("pk",) if spec.key == "pk" else ("pk", spec.key)
    window = [
        (r[0], r[-1]) for r in spec.rows(user).values_list(*fields)[max(start - 1, 0) : start + size + 1]
    ]
    before = window.pop(0) if start else None
    return {
        "page": page,
        "after": before[0] if before else None,
        "ids": [pk for pk, _ in window],  # the page's rows and the one after it
        "keys": [str(k) for _, k in window[:size]],
    }


def check_page(content: bytes, spec: ListSpec, at: dict, first: str | None) -> None:
    """The page shows the row expected at its depth, and it is not page 1's."""
    shown = first_row(content, spec)
    if not at["keys"] or shown != at["keys"][0]:
        raise NotThatPage(
            f"{spec.name}, page {at['page']}: shows {shown!r} first, the row at that depth is "
            f"{at['keys'][0] if at['keys'] else None!r}"
        )
    if at["page"] > 1:
        text = content.decode()
        if shown == first or 'rel="first"' not in text or "could not be followed" in text:
            raise NotThatPage(f"{spec.name}, page {at['page']}: the first page was shown")


def list_pages(spec: ListSpec, client, user) -> list[tuple[str, str, dict]]:
    """(name, url, depth) of the list's first page and its deep page; the deep page's cursor checked against
    the "next" link page 1 renders and the rows the database holds at that depth."""
    size = page_size()
    count = spec.rows(user).count()
    pages = max(1, math.ceil(count / size))
    one = client.get(spec.path)
    first = first_row(one.content, spec)
    at_one = position(spec, user, 1)
    check_page(one.content, spec, at_one, None)
    out = [
        (f"{spec.name}, page 1", spec.path, {"page": 1, "pages": pages, "rows": count, "first_row": first})
    ]
    if pages < 2:
        print(f"  {spec.name}: {count} rows, one page: no deep page", flush=True)
        return out
    # the link a user follows to page 2 is the link built here for page 2
    at_two = position(spec, user, 2)
    followed = next_link(one.content, spec.path)
    built = cursor_url(spec, at_two["after"])
    if followed != built:
        raise NotThatPage(f"{spec.name}: page 1 links to {followed!r} for the next page, not {built!r}")
    check_page(client.get(followed).content, spec, at_two, first)
    deep = min(pages, max(2, round(pages * DEPTH)))
    at = position(spec, user, deep)
    url = cursor_url(spec, at["after"])
    check_page(client.get(url).content, spec, at, first)
    depth = {"page": deep, "pages": pages, "rows": count, "after": at["after"], "first_row": at["keys"][0]}
    out.append((f"{spec.name}, page {deep:,} of {pages:,} (cursor)", url, depth))
    return out


# ------------------------------------------------------------------------------------------------ pages


def page_urls(client, user) -> tuple[list[tuple[str, str, dict]], dict]:
    """(name, url, what the floor and the checks need) of the pages measured as the officer (`user`, logged
    in on `client`), and what they were chosen from."""
    from dogcase.cases.access import cities_of
    from dogcase.cases.models import Case, Dog, Incident, Person

    cities = cities_of(user)
    case = Case.objects.filter(jurisdiction="battle-lake-mn").order_by("-version", "pk").first()
    owner = case.dog.owners.order_by("pk").first()
    (surname, bearers), (dog_name, dogs_named) = most_common(cities)

    urls = [
        ("case page", f"/cases/{case.number}", {"sql": record_sql(Case, "number", case.number)}),
        ("dog page", f"/dogs/{case.dog_id}", {"sql": record_sql(Dog, "id", case.dog_id, ("premises",))}),
        (
            "incident page",
            f"/incidents/{case.incident.number}",
            {"sql": record_sql(Incident, "number", case.incident.number)},
        ),
    ]
    if owner is not None:
        urls.append(("person page", f"/people/{owner.pk}", {"sql": record_sql(Person, "id", owner.pk)}))
    size = page_size()
    for spec in LISTS:
        for name, url, depth in list_pages(spec, client, user):
            after = depth.get("after")
            urls.append(
                (name, url, {"list": spec, "depth": depth, "sql": list_sql(spec, cities, after, size + 1)})
            )
    urls += [
        (f"search: the most common surname ({surname}, {bearers:,} people)", f"/search?q={surname}", {}),
        (f"search: the most common dog name ({dog_name}, {dogs_named:,} dogs)", f"/search?q={dog_name}", {}),
        ("Law page", "/law/battle-lake-mn/", {}),
    ]
    return urls, {"case": case.number, "surname": surname, "dog_name": dog_name}


def most_common(cities) -> tuple[tuple[str, int], tuple[str, int]]:
    """The surname most people of `cities` bear (the last word of a name of two words: a business's name is not
    a person's) and the name most of their dogs bear, each with how many bear it: what search is timed on."""
    from collections import Counter

    from django.db.models import Count

    from dogcase.cases.models import Dog, Person

    names = Person.objects.filter(jurisdiction__in=cities).values_list("full_name", flat=True)
    surnames = Counter(words[1] for name in names.iterator() if len(words := name.split()) == 2)
    surname = min(surnames.items(), key=lambda kv: (-kv[1], kv[0]), default=("Olson", 0))
    named = (
        Dog.objects.filter(jurisdiction__in=cities)
        .values("name")
        .annotate(n=Count("id"))
        .order_by("-n", "name")
        .values_list("name", "n")
        .first()
    )
    return surname, named or ("Bailey", 0)


def sql_floor(client, url: str, plan: dict, user, reps: int, budget: float) -> dict:
    """The page's raw SQL floor: its main query written by hand (a list's: the rows it shows, checked), or
    its own SELECT statements sent again."""
    if "sql" in plan:
        sql, params = plan["sql"]
        run, what, statements = (lambda: run_sql(sql, params)), "main query, hand-written", 1
        if "list" in plan:
            spec = plan["list"]
            at = position(spec, user, plan["depth"]["page"])
            got = [row[0] for row in run_sql(sql, params)]
            if got != at["ids"]:
                raise NotThatPage(
                    f"{spec.name}, page {at['page']}: the raw SQL reads {got[:3]}..., not {at['ids'][:3]}..."
                )
            what = f"the page's {page_size() + 1} rows after its cursor, hand-written"
    else:
        from django.db import connection

        capture = Capture()
        with connection.execute_wrapper(capture):
            client.get(url)
        run, what, statements = replayed(capture.statements)
    replay = "sql" not in plan
    return {"what": what, "statements": statements, "replayed": replay, **timed_reps(run, reps, budget)}


def empty_floor(client, reps: int, budget: float) -> dict:
    row = measure_page(client, EMPTY_URL, reps, budget)
    if row["status"] != 200:
        raise RuntimeError(f"the empty view answered HTTP {row['status']}")
    return row


def with_floors(row: dict, sql: dict, empty: dict) -> dict:
    return {
        **row,
        "floor_sql_ms": sql["p50_ms"],
        "floor_empty_ms": empty["p50_ms"],
        "floor_sql": sql,
        "floor_empty": {k: empty[k] for k in ("n", "p50_ms", "p95_ms", "queries")},
    }


def measure_pages(reps: int, budget: float) -> tuple[list[dict], dict]:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import override_settings

    from dogcase.ops.warm import ready_for_requests

    User = get_user_model()
    rows = []
    # as a web process starts (config/wsgi.py): the law read and what the process holds frozen, so that a full
    # collection of what the parts before this one left behind does not fall in a timed request
    ready_for_requests()

    def client_for(username: str):
        client = Client(HTTP_HOST="localhost")
        client.force_login(User.objects.get(username=username))
        return client

    with override_settings(ROOT_URLCONF=URLCONF):
        for username in ROLE_USERS:
            client = client_for(username)
            empty = empty_floor(client, reps, budget)
            row = measure_page(client, "/", reps, budget)
            sql = sql_floor(client, "/", {}, None, reps, budget)
            rows.append(with_floors({"page": f"dashboard ({username})", "role": username, **row}, sql, empty))
            print_page(rows[-1])
        officer = client_for("officer")
        user = User.objects.get(username="officer")
        urls, chosen = page_urls(officer, user)
        empty = empty_floor(officer, reps, budget)
        for name, url, plan in urls:
            row = {"page": name, "role": "officer", **measure_page(officer, url, reps, budget)}
            if "depth" in plan:
                row["depth"] = plan["depth"]
            sql = sql_floor(officer, url, plan, user, reps, budget)
            rows.append(with_floors(row, sql, empty))
            print_page(rows[-1])
    return rows, chosen


def print_page(row: dict) -> None:
    print(
        f"  {row['page']:<44} p50 {row['p50_ms']:9.1f} ms  p95 {row['p95_ms']:9.1f} ms  "
        f"{row['bytes'] / 1024:9.1f} KB  {row['queries']:5d} queries  HTTP {row['status']}  "
        f"floors: raw SQL {row['floor_sql_ms']:7.2f} ms, empty request {row['floor_empty_ms']:6.2f} ms",
        flush=True,
    )


# ------------------------------------------------------------------------------------------------ method


def analyze_state() -> list[dict]:
    """When the tables the lists read were last analyzed, and the rows changed since (PostgreSQL)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    rows = run_sql(
        "SELECT relname, GREATEST(last_analyze, last_autoanalyze), n_mod_since_analyze "
        "FROM pg_stat_user_tables WHERE relname = ANY(%s) ORDER BY relname",
        [[spec.model()._meta.db_table for spec in LISTS]],
    )
    return [{"table": t, "analyzed": str(at) if at else None, "changed_since": n} for t, at, n in rows]


def method(reps: int, budget: float, analyzed: str) -> dict:
    return {
        "client": "django.test.Client in this process (no HTTP server, no network), force_login as each demo "
        "user, DEBUG off; server time is the Client.get call",
        "process": "made ready as a web process starts (config/wsgi.py, dogcase/ops/warm.py): the law packs "
        "read, then the objects alive frozen out of the garbage collector's full collections",
        "reps": f"{reps} requests a page after one warm-up request (at least 3, fewer past {budget:g} s)",
        "caches": "PostgreSQL restarted before the first part (below), its buffers then filled only by the "
        "parts run before the pages; each URL requested once before it is timed (the warm-up a restarted "
        "server's first visitor pays is not counted)",
        "analyze": analyzed,
        "tables": analyze_state(),
        "floor raw SQL": "a page's main query written by hand through the same connection (a list page's "
        "rows after its cursor, checked equal to the rows it shows); a dashboard, search and the Law page: "
        "their own SELECT statements sent again (marked *)",
        "floor empty request": f"{EMPTY_URL}: staff_required and an empty body, same client and middleware",
        "deep pages": f"page 1's rendered next link followed and checked, then the cursor of the page "
        f"{DEPTH:.0%} into the list built from the row at that depth; the page shows that row, not page 1's",
    }


def markdown(rows: list[dict], how: dict | None) -> list[str]:
    lines = []
    if how:
        lines.append("Pages, method:")
        for key, value in how.items():
            if key == "tables":
                value = "; ".join(
                    f"{t['table']} analyzed {t['analyzed']}, {t['changed_since']:,} rows changed since"
                    for t in value
                )
            if value:
                lines.append(f"- {key}: {value}")
        lines.append("")
    lines += [
        "| page (role) | p50 ms | p95 ms | queries | floor raw SQL ms | floor empty request ms | KB | HTTP |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        name = r["page"] if r["page"].startswith("dashboard") else f"{r['page']} ({r['role']})"
        sql = r.get("floor_sql")
        mark = "*" if sql and sql.get("replayed") else ""
        floor_sql = f"{r['floor_sql_ms']:.2f}{mark}" if "floor_sql_ms" in r else ""
        floor_empty = f"{r['floor_empty_ms']:.2f}" if "floor_empty_ms" in r else ""
        lines.append(
            f"| {name} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['queries']} | {floor_sql} | {floor_empty} "
            f"| {r['bytes'] / 1024:,.1f} | {r['status']} |"
        )
    return lines

"""The staff pages at two sizes of city: per page, the median and p95 server time, the bytes of HTML and the
number of SQL queries, so that what grows with the data shows.

    .venv/bin/python bench/pages.py                    # 10,000 and 100,000 dogs, each in a fresh SQLite file
    .venv/bin/python bench/pages.py --sizes 5000 50000 --rounds 15
    DATABASE_URL=postgres://... .venv/bin/python bench/pages.py --sizes 100000   # a PostgreSQL (emptied first)

Records are written in bulk (bulk_create: people, premises, dogs, ownerships, incidents, cases, obligations,
tasks and each record's "first recorded" event), not through the acts: it measures the pages, not intake.
The ratios follow the issue's statewide set (1,000,000 dogs, 100,000 incidents, 20,000 cases) with more
cases, to load the dashboards: dogs : incidents : cases = 10 : 1 : 1; four obligations a case. One case is
made through the acts, for a real case page. Server time is a request through Django's test client, in
process (no network). A benchmark reports; it does not gate. Results also go to var/bench-pages.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_MS = 50.0
TARGET_BYTES = 200_000
CITIES = ("battle-lake-mn", "tracy-mn")
FIRST = "Olsen Johnson Anderson Nelson Carlson Peterson Larson Swenson Berg Lindqvist Quist Hanson".split()
GIVEN = "Ada Ben Cora Dale Ellen Finn Greta Hal Ida Jon Kari Lars Mona Nils Ole Pia Rolf Siri Tor Una".split()
DOGS = "Rex Bella Max Luna Charlie Daisy Rocky Molly Buddy Sadie Duke Maggie Bear Lucy Tucker Ruby".split()
BREEDS = "Labrador Boxer Beagle Poodle Husky Collie Terrier Shepherd Pointer Spaniel".split()
ROLES = {
    "schedule_hearing": ",city_clerk,",
    "hold_hearing": ",hearing_officer,",
    "council_decision": ",council_clerk,",
    "serve_notice": ",animal_control_officer,police_officer,",
}
USERS = {
    "officer": "animal_control_officer",
    "police": "police_officer",
    "clerk": "city_clerk",
    "hearing": "hearing_officer",
    "council": "council_clerk",
    "auditor": "auditor",
    "admin": "administrator",
}


def setup_django(db_path: str | None) -> None:
    if db_path:
        os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    if os.environ.get("DATABASE_URL", "").startswith("sqlite"):
        os.environ.setdefault("DB_CONN_MAX_AGE", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def build(n_dogs: int, seed: int = 20261130) -> dict:
    """A city's records in bulk: n_dogs dogs with owners and premises, n_dogs/10 incidents and cases."""
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from dogcase.cases.models import (
        Case,
        CityAccess,
        Dog,
        Event,
        Incident,
        Obligation,
        Ownership,
        Person,
        Premises,
        Task,
        Victim,
    )

    rnd = random.Random(seed)  # noqa: S311 - a reproducible data set, not a secret
    call_command("migrate", verbosity=0)
    now = timezone.now()
    today = timezone.localdate(now)
    users = {}
    for username, group in USERS.items():
        user = User.objects.create_user(username=username, password="bench-only-password")  # noqa: S106
        if group == "administrator":
            user.is_staff = user.is_superuser = True
            user.save()
        user.groups.add(Group.objects.get_or_create(name=group)[0])
        for city in CITIES:
            CityAccess.objects.create(user=user, jurisdiction=city)
        users[username] = user
    officer = users["officer"]
    # one case through the acts (a real case page); the bulk events are numbered after its events
    real_case = _one_real_case(officer)
    batch = 5000
    t0 = time.perf_counter()
    with transaction.atomic():
        people = [
            Person(
                jurisdiction=CITIES[i % 2],
                full_name=f"{rnd.choice(GIVEN)} {rnd.choice(FIRST)}{'' if i % 7 else '-' + rnd.choice(FIRST)} {i}",
                street=f"{i} {rnd.choice(['Main', 'Lake', 'Oak', 'Elm'])} St",
                phone=f"555-{i % 10000:04d}",
                postal_code=f"56{i % 1000:03d}",
                created_at=now,
            )
            for i in range(n_dogs)
        ]
        Person.objects.bulk_create(people, batch_size=batch)
        premises = [
            Premises(
                jurisdiction=CITIES[i % 2],
                street=f"{i} {rnd.choice(['Main', 'Lake', 'Oak', 'Elm'])} Ave",
                city_name="Battle Lake" if i % 2 == 0 else "Tracy",
                created_at=now,
            )
            for i in range(n_dogs // 2)
        ]
        Premises.objects.bulk_create(premises, batch_size=batch)
        dogs = [
            Dog(
                jurisdiction=CITIES[i % 2],
                name=f"{rnd.choice(DOGS)} {i}",
                breed=rnd.choice(BREEDS),
                microchip_number=f"985{i:012d}",
                licence_number=f"L-{i:07d}",
                premises=premises[i // 2] if (i // 2) % 2 == i % 2 else None,
                created_at=now,
            )
            for i in range(n_dogs)
        ]
        Dog.objects.bulk_create(dogs, batch_size=batch)
        Ownership.objects.bulk_create(
            [
                Ownership(dog=d, person=p, since=today - dt.timedelta(days=400))
                for d, p in zip(dogs, people, strict=True)
            ],
            batch_size=batch,
        )
        seq = Event.objects.order_by("-seq").values_list("seq", flat=True).first() or 0
        events = []
        for kind, rows in (("record_person", people), ("record_dog", dogs)):
            for r in rows:
                seq += 1
                events.append(
                    Event(
                        seq=seq,
                        # a chain of their own (the audit's chains are not what this measures)
                        chain="bench-pages",
                        chain_seq=seq,
                        at=now,
                        jurisdiction=r.jurisdiction,
                        actor=officer,
                        actor_name="officer",
                        kind="record",
                        act=kind,
                        summary=f"{kind.split('_')[1].title()} first recorded",
                        data={"id": r.pk},
                        prev_hash=f"{seq - 1:064x}",
                        hash=f"{seq:064x}",
                    )
                )
        Event.objects.bulk_create(events, batch_size=batch)
        n_cases = n_dogs // 10
        incidents = [
            Incident(
                jurisdiction=dogs[i * 10].jurisdiction,
                number=f"I-B-{i:07d}",
                occurred_at=now - dt.timedelta(minutes=rnd.randrange(60 * 24 * 700)),
                place=f"{i} Lake Ave",
                place_type="public",
                kind="bite",
                facts={"bit": True},
                reported_by=officer,
                created_at=now,
            )
            for i in range(n_cases)
        ]
        Incident.objects.bulk_create(incidents, batch_size=batch)
        Incident.dogs.through.objects.bulk_create(
            [Incident.dogs.through(incident=inc, dog=dogs[i * 10]) for i, inc in enumerate(incidents)],
            batch_size=batch,
        )
        Victim.objects.bulk_create(
            [
                Victim(incident=inc, kind="human", name=f"Victim {i}", injury="minor")
                for i, inc in enumerate(incidents)
            ],
            batch_size=batch,
        )
        cases = [
            Case(
                jurisdiction=inc.jurisdiction,
                number=f"C-B-{i:07d}",
                dog=dogs[i * 10],
                incident=inc,
                designation=rnd.choice(["", "potentially_dangerous", "dangerous"]),
                status="open" if rnd.random() < 0.8 else "closed",
                stage="Declared",
                opened_at=inc.occurred_at + dt.timedelta(days=1),
                opened_by=officer,
                updated_at=now,
            )
            for i, inc in enumerate(incidents)
        ]
        Case.objects.bulk_create(cases, batch_size=batch)
        obligations = []
        for c in cases:
            for j, (deadline, roles) in enumerate(ROLES.items()):
                due = today + dt.timedelta(days=rnd.randrange(-60, 30))
                status = rnd.choice(["open", "open", "overdue", "met"]) if due < today else "open"
                obligations.append(
                    Obligation(
                        case=c,
                        jurisdiction=c.jurisdiction,
                        deadline_id=f"city.{deadline}" if j < 3 else f"owner.{deadline}",
                        who="city" if j < 3 else "owner",
                        kind="due",
                        what=f"the city must {deadline.replace('_', ' ')}",
                        status=status,
                        due_date=due,
                        staff_roles=roles if j < 3 else "",
                        detail={"citations": [{"citation": "§ 90.15 (I)(1)"}]},
                        updated_at=now,
                    )
                )
        Obligation.objects.bulk_create(obligations, batch_size=batch)
        Task.objects.bulk_create(
            [
                Task(
                    case=o.case,
                    jurisdiction=o.jurisdiction,
                    obligation=o,
                    key=f"bench-{k}",
                    text=f"Overdue: {o.what}",
                    citation="§ 90.15 (I)(1)",
                    staff_roles=o.staff_roles,
                    created_at=now,
                )
                for k, o in enumerate(o for o in obligations if o.status == "overdue")
            ],
            batch_size=batch,
        )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")  # as autovacuum would soon: statistics and the visibility map
    elif connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    built = time.perf_counter() - t0
    return {
        "users": users,
        "dog": dogs[n_dogs // 2],
        "person": people[n_dogs // 3],
        "incident": incidents[len(incidents) // 2],
        "case": real_case,
        "built_s": built,
        "counts": {"dogs": n_dogs, "incidents": n_cases, "cases": n_cases, "obligations": len(obligations)},
    }


def _one_real_case(officer):
    from dogcase.cases import acts
    from tests.incident_facts import UNPROVOKED_BITE_IN_PUBLIC

    owner = acts.record_person(
        jurisdiction=CITIES[0], actor=officer, full_name="Harriet Quist", phone="555-0100"
    )
    dog = acts.record_dog(
        jurisdiction=CITIES[0], actor=officer, owners=[owner], name="Biscuit", breed="Boxer"
    )
    incident = acts.record_incident(
        jurisdiction=CITIES[0],
        actor=officer,
        occurred_at=acts.now() - dt.timedelta(days=20),
        place="1 Lake Ave",
        place_type="public",
        kind="bite",
        dogs=[dog],
        facts=dict(UNPROVOKED_BITE_IN_PUBLIC),
        victims=[{"kind": "human", "name": "A victim", "injury": "minor"}],
    )
    return acts.open_case(incident=incident, dog=dog, actor=officer)


def deep_cursor(model, order, fraction: float) -> str:
    """The position of the row `fraction` of the way down the list, as the list's link would carry it."""
    from dogcase.staff import keyset

    qs = model.objects.order_by(*order)
    n = qs.count()
    row = qs[int(n * fraction)]
    return keyset._cursor(row, keyset._split(order))


def pages(data) -> list[tuple[str, str, str]]:
    """(name, user, url) of every page measured."""
    from dogcase.cases.models import Case, Dog, Incident, Person
    from dogcase.staff import queries

    out = [(f"dashboard ({u})", u, "/") for u in USERS]
    out += [
        ("dashboard hearing requests to schedule, page 1", "clerk", "/?list=schedule"),
        ("dashboard other deadlines, page 20", "admin", "/?list=other&page=20"),
        ("case list", "clerk", "/cases/"),
        ("case list, deep", "clerk", "/cases/?after=" + deep_cursor(Case, queries.CASE_ORDER, 0.9)),
        ("dog list", "officer", "/dogs/"),
        ("dog list, deep", "officer", "/dogs/?after=" + deep_cursor(Dog, queries.DOG_ORDER, 0.9)),
        ("people", "officer", "/people/"),
        ("people, deep", "officer", "/people/?after=" + deep_cursor(Person, queries.PERSON_ORDER, 0.9)),
        ("incident list", "officer", "/incidents/"),
        (
            "incident list, deep",
            "officer",
            "/incidents/?after=" + deep_cursor(Incident, queries.INCIDENT_ORDER, 0.9),
        ),
        ("search: owner surname", "officer", "/search?q=quist"),
        ("search: dog name", "officer", "/search?q=biscuit"),
        ("search: common dog name", "officer", "/search?q=bella"),
        ("search: microchip", "officer", f"/search?q={data['dog'].microchip_number[-8:]}"),
        ("dog page", "officer", f"/dogs/{data['dog'].pk}"),
        ("person page", "officer", f"/people/{data['person'].pk}"),
        ("incident page", "officer", f"/incidents/{data['incident'].number}"),
        ("case page", "officer", f"/cases/{data['case'].number}"),
        ("Law page", "officer", "/law/"),
    ]
    return out


def measure(data, rounds: int) -> dict:
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    clients = {}
    results = {}
    for name, username, url in pages(data):
        if username not in clients:
            clients[username] = Client()
            clients[username].force_login(data["users"][username])
        client = clients[username]
        response = client.get(url)  # warm
        assert response.status_code == 200, (name, url, response.status_code)
        executed: list[str] = []

        def count(execute, sql, *args, executed=executed):
            executed.append(sql)
            return execute(sql, *args)

        with connection.execute_wrapper(count):
            response = client.get(url)
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        results[name] = {
            "url": url,
            "median_ms": statistics.median(times),
            "p95_ms": times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))],
            "bytes": len(response.content),
            "queries": len(executed),
        }
    return results


def run_size(n: int, rounds: int) -> dict:
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        call_command("migrate", verbosity=0)
        call_command("flush", interactive=False, verbosity=0)
    data = build(n)
    print(f"  built {data['counts']} in {data['built_s']:.1f} s", flush=True)
    return {"database": connection.vendor, "counts": data["counts"], "pages": measure(data, rounds)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    if "DOGCASE_BENCH_OUT" in os.environ:  # one size, in its own process (Django is set up once a process)
        setup_django(None)
        result = run_size(args.sizes[0], args.rounds)
        Path(os.environ["DOGCASE_BENCH_OUT"]).write_text(json.dumps(result))
        return 0
    runs = {}
    for n in args.sizes:
        print(f"== {n:,} dogs", flush=True)
        env = dict(os.environ)
        if not os.getenv("DATABASE_URL"):
            env["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='dogcase-bench-pages-')}/bench.sqlite3"
        fd, out = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        env["DOGCASE_BENCH_OUT"] = out
        cmd = [sys.executable, __file__, "--sizes", str(n), "--rounds", str(args.rounds)]
        subprocess.run(cmd, env=env, check=True)
        runs[n] = json.loads(Path(out).read_text())
        Path(out).unlink()
        if env["DATABASE_URL"].startswith("sqlite:///"):
            shutil.rmtree(Path(env["DATABASE_URL"].removeprefix("sqlite:///")).parent, ignore_errors=True)
    report(runs)
    return 0


def report(runs: dict) -> None:
    sizes = sorted(runs)
    names = list(runs[sizes[0]]["pages"])
    head = f"{'page':32}" + "".join(f" | {n:>7,} dogs: p50 ms  p95 ms    bytes  q" for n in sizes)
    print()
    print(f"database: {runs[sizes[0]]['database']}")
    print(head)
    print("-" * len(head))
    worst = []
    for name in names:
        line = f"{name:32}"
        for n in sizes:
            r = runs[n]["pages"][name]
            flag = "!" if r["p95_ms"] > TARGET_MS or r["bytes"] > TARGET_BYTES else " "
            line += f" | {r['median_ms']:21.1f} {r['p95_ms']:7.1f}{flag}{r['bytes']:8,} {r['queries']:2}"
            if flag == "!":
                worst.append((n, name))
        print(line)
    print()
    big, small = sizes[-1], sizes[0]
    if big != small:
        grow = [n for n in names if runs[big]["pages"][n]["queries"] != runs[small]["pages"][n]["queries"]]
        print(f"queries that changed with size: {', '.join(grow) or 'none'}")
    print(f"over {TARGET_MS:.0f} ms p95 or {TARGET_BYTES // 1000} KB: {worst or 'none'}")
    out = ROOT / "var" / "bench-pages.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    sys.exit(main())

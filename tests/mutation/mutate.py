"""`make mutate`: how much of the law packs the tests guard, measured by changing the packs one line at a time.

For every `requires:` clause of every step (dropped, or a `not:` clause flipped), every step's actors (one
dropped, one added), every `for:` designation list (one dropped), every exemption (dropped) and every
deadline (its period one day longer and one day shorter, its counting turned to `no_roll`, or to the
645.15 rule when it is `no_roll`): make that one change in a copy of the checkout, run the law tests that
read the pack and the tests that name the step or deadline changed, and report the change as

- caught: a test failed;
- survived: every test passed — a rule no test guards;
- stillborn: the changed pack does not load (`dogcase law check` refuses it), not counted;
- equivalent: survived, but listed in tests/mutation/equivalent/<pack>.yaml with the reason the change alters
  nothing the engine does (e.g. an actor added who already holds the step by another clause), not counted.

The score of a pack is caught / (caught + survived). Runs on as many workers as the machine has cores (each
in its own copy of the checkout, with its own var folder); nothing is downloaded. `--pack`, `--limit` and
`--only` narrow a run; `--list` prints the mutations without running them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from dogcase.law.clock import ALLOWED_COUNTING

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "dogcase" / "law" / "packs"
EQUIVALENT = Path(__file__).with_name("equivalent")  # <pack id>.yaml: [{what, why}]
# law tests that check something other than the rules: that the law imports no Django; that each rule has a row
# (it judges the changed pack against itself)
NOT_RULES = ("tests/law/test_no_django.py", "tests/law/test_pack_coverage.py")
# the tests every mutation runs first: the packs' own table tests, the procedure rows and the coverage of both
ALWAYS = ("tests/law/test_pack_cases.py", "tests/law/test_pack_procedure.py")


@dataclass
class Mutation:
    pack: str
    line: int  # 1-based line of the pack.yaml the change is made at
    what: str  # the change, in words
    path: tuple  # keys and indexes from the pack's root to the node changed
    op: str  # "drop" (an item or a key), "replace" (the node), "append" (to a list)
    value: object = None  # the new node's YAML text for replace and append
    ids: tuple[str, ...] = ()  # the step or deadline ids the change is about (to find their tests)
    outcome: str = ""
    detail: str = ""
    seconds: float = 0.0
    key: str = field(default="")

    def __post_init__(self) -> None:
        self.key = f"{self.pack}:{self.line}:{self.what}"


# ------------------------------------------------------------------------------------------ the mutations


def _map(node: yaml.MappingNode) -> dict[str, yaml.Node]:
    return {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _scalars(node: yaml.Node | None) -> list[str]:
    if isinstance(node, yaml.SequenceNode):
        return [n.value for n in node.value if isinstance(n, yaml.ScalarNode)]
    return []


def _flow(node: yaml.Node) -> str:
    """A node as one line of its pack's text, for the report."""
    lines = _TEXT.get("lines", [])
    start, end = node.start_mark, node.end_mark
    chunk = lines[start.line : end.line + 1]
    if chunk:
        chunk[-1] = (
            chunk[-1][: end.column] if start.line != end.line else chunk[-1][start.column : end.column]
        )
        if start.line != end.line:
            chunk[0] = chunk[0][start.column :]
    text = " ".join(" ".join(chunk).split())
    return text if len(text) <= 90 else text[:87] + "..."


_TEXT: dict[str, list[str]] = {}


def mutations_of(pack: str, text: str) -> list[Mutation]:
    _TEXT["lines"] = text.splitlines()
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    top = _map(root)
    declared = top.get("roles")
    # each role the pack declares, with the staff roles that act as it
    roles = {
        _map(r)["id"].value: set(_scalars(_map(r).get("staff")))
        for r in (declared.value if isinstance(declared, yaml.SequenceNode) else ())
        if isinstance(r, yaml.MappingNode) and "id" in _map(r)
    }
    out: list[Mutation] = []
    procedure = top.get("procedure")
    for si, step in enumerate(procedure.value if isinstance(procedure, yaml.SequenceNode) else ()):
        fields = _map(step)
        sid = fields["id"].value
        base = ("procedure", si)
        requires = fields.get("requires")
        for ci, clause in enumerate(requires.value if isinstance(requires, yaml.SequenceNode) else ()):
            out.append(
                Mutation(
                    pack,
                    _line(clause),
                    f"{sid}: drop requires {_flow(clause)}",
                    (*base, "requires", ci),
                    "drop",
                    ids=(sid,),
                )
            )
            inner = _map(clause).get("not") if isinstance(clause, yaml.MappingNode) else None
            if inner is not None:
                out.append(
                    Mutation(
                        pack,
                        _line(clause),
                        f"{sid}: flip requires {_flow(clause)}",
                        (*base, "requires", ci),
                        "replace",
                        yaml.serialize(inner),
                        ids=(sid,),
                    )
                )
        step_roles = _scalars(fields.get("roles"))
        if len(step_roles) > 1:
            for ri, role in enumerate(step_roles):
                out.append(
                    Mutation(
                        pack,
                        _line(fields["roles"]),
                        f"{sid}: drop actor {role}",
                        (*base, "roles", ri),
                        "drop",
                        ids=(sid,),
                    )
                )
        if step_roles:
            # an actor the law does not name: a role held by a member of staff who holds none of the step's
            # roles (adding a second name for the same office, or a role no staff holds, changes nothing)
            acting = set().union(*(roles.get(r, set()) for r in step_roles))
            extra = next((r for r, staff in roles.items() if r not in step_roles and staff - acting), None)
            if extra:
                out.append(
                    Mutation(
                        pack,
                        _line(fields["roles"]),
                        f"{sid}: add actor {extra}",
                        (*base, "roles"),
                        "append",
                        extra,
                        ids=(sid,),
                    )
                )
        designations = _scalars(fields.get("for"))
        if len(designations) > 1:
            for di, d in enumerate(designations):
                out.append(
                    Mutation(
                        pack,
                        _line(fields["for"]),
                        f"{sid}: drop for {d}",
                        (*base, "for", di),
                        "drop",
                        ids=(sid,),
                    )
                )
    _walk(pack, root, (), out)
    return out


def _walk(pack: str, node: yaml.Node, path: tuple, out: list[Mutation], provision: str = "") -> None:
    """The deadlines and exemptions anywhere under the provisions."""
    if isinstance(node, yaml.SequenceNode):
        for i, child in enumerate(node.value):
            _walk(pack, child, (*path, i), out, provision)
        return
    if not isinstance(node, yaml.MappingNode):
        return
    fields = _map(node)
    if path and path[0] == "procedure":
        return
    if "citation" in fields and isinstance(fields.get("id"), yaml.ScalarNode):
        provision = fields["id"].value
    if "period" in fields and "counting" in fields and "id" in fields:
        did = fields["id"].value
        name = f"{provision} ({did})"
        period = _map(fields["period"]) if isinstance(fields["period"], yaml.MappingNode) else {}
        amount, unit = period.get("amount"), period.get("unit")
        if isinstance(amount, yaml.ScalarNode) and amount.value.isdigit():
            n = int(amount.value)
            for delta in (1, -1):
                if n + delta >= 1:
                    out.append(
                        Mutation(
                            pack,
                            _line(amount),
                            f"{name}: period {n} -> {n + delta}",
                            (*path, "period", "amount"),
                            "replace",
                            str(n + delta),
                            ids=(did, provision),
                        )
                    )
        counting = fields["counting"].value
        allowed = ALLOWED_COUNTING.get(unit.value if isinstance(unit, yaml.ScalarNode) else "", frozenset())
        for other in sorted(allowed - {counting}):
            out.append(
                Mutation(
                    pack,
                    _line(fields["counting"]),
                    f"{name}: counting {counting} -> {other}",
                    (*path, "counting"),
                    "replace",
                    other,
                    ids=(did, provision),
                )
            )
        designations = _scalars(fields.get("for"))
        if len(designations) > 1:
            for di, d in enumerate(designations):
                out.append(
                    Mutation(
                        pack,
                        _line(fields["for"]),
                        f"{name}: drop for {d}",
                        (*path, "for", di),
                        "drop",
                        ids=(did, provision),
                    )
                )
    if "exemption" in fields and "id" in fields:
        pid = fields["id"].value
        out.append(
            Mutation(
                pack,
                _line(fields["exemption"]),
                f"{pid}: drop the exemption",
                (*path, "exemption"),
                "drop",
                ids=(pid,),
            )
        )
    for key, child in fields.items():
        _walk(pack, child, (*path, key), out, provision)


def mutated_text(text: str, m: Mutation) -> str:
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if m.op == "none":
        return yaml.serialize(root, width=10_000, allow_unicode=True)
    parent: yaml.Node = root
    for step in m.path[:-1] if m.op != "append" else m.path:
        parent = _child(parent, step)
    if m.op == "append":
        parent.value.append(yaml.ScalarNode("tag:yaml.org,2002:str", str(m.value)))
    else:
        last = m.path[-1]
        if isinstance(parent, yaml.SequenceNode):
            if m.op == "drop":
                del parent.value[last]
            else:
                parent.value[last] = _node(m.value)
        else:
            index = next(i for i, (k, _) in enumerate(parent.value) if k.value == last)
            if m.op == "drop":
                del parent.value[index]
            else:
                parent.value[index] = (parent.value[index][0], _node(m.value))
    return yaml.serialize(root, width=10_000, allow_unicode=True)


def _child(node: yaml.Node, step) -> yaml.Node:
    if isinstance(node, yaml.SequenceNode):
        return node.value[step]
    return _map(node)[step]


def _node(value) -> yaml.Node:
    return yaml.compose(str(value), Loader=yaml.SafeLoader)


# ------------------------------------------------------------------------------------------ running them


def _naming(m: Mutation, folder: str, skip: tuple[str, ...] = ()) -> list[str]:
    """The test files under `folder` that name one of the changed ids, as a quoted string."""
    if not m.ids:
        return []
    pattern = re.compile("|".join(rf"['\"]{re.escape(i)}['\"]" for i in m.ids))
    found = []
    for path in sorted((ROOT / folder).rglob("test_*.py")):
        rel = str(path.relative_to(ROOT))
        if rel not in skip and pattern.search(path.read_text(encoding="utf-8")):
            found.append(rel)
    return found


def tests_for(m: Mutation | None) -> list[str]:
    """The law tests: those that read every pack's rows first, then each law test file that names a changed id."""
    if m is None:
        return list(ALWAYS)
    # the table most likely to fail first (the run stops at the first failure): a step's rows for a step's rule,
    # the deadline and classification rows for a provision's
    first = ALWAYS[::-1] if m.path and m.path[0] == "procedure" else ALWAYS
    return [*first, *_naming(m, "tests/law", (*ALWAYS, *NOT_RULES))]


def case_tests_for(m: Mutation) -> list[str]:
    """The case tests (a database, the whole case machinery) that name the step or deadline changed."""
    return _naming(m, "tests/cases")


def _warm() -> None:
    """Import what every law run needs once, in the parent, so that each forked run starts warm. The packs
    are not loaded here: each run loads its own changed copy."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401
    import pytest_django  # noqa: F401

    import dogcase.law  # noqa: F401
    from dogcase.law import loader

    django.setup()
    # the table tests read their rows (cases.yaml, never changed here) when imported: once, here
    import importlib

    import tests.conftest  # noqa: F401

    for path in ALWAYS:
        importlib.import_module(path.removesuffix(".py").replace("/", "."))
    loader.forget_loaded()  # each run loads its own changed copy


def _run_tests(packs: Path, tests: list[str]) -> int:
    """In a run: read the packs from `packs`, refuse a changed pack that does not load, run `tests`."""
    from dogcase.law import loader
    from dogcase.law.errors import PackError

    loader.PACKS_DIR = packs
    try:
        loader.load_all()
    except PackError as error:
        print(f"STILLBORN {error}", flush=True)
        return STILLBORN
    import pytest

    args = ["-x", "-q", "-p", "no:cacheprovider", "-m", "not browser", "-o", "addopts=-rf", *tests]
    return int(pytest.main(args))


STILLBORN = 5


class Slot:
    """One run at a time: its own copy of the packs folder, where one pack file at a time is changed, and its
    own var folder (the documents a case test issues)."""

    def __init__(self, number: int) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=f"dogcase-mutate-{number}-"))
        self.packs = self.dir / "packs"
        shutil.copytree(PACKS, self.packs, ignore=shutil.ignore_patterns("__pycache__"))
        (self.dir / "var").mkdir()
        self.log = self.dir / "pytest.log"
        self.mutation: Mutation | None = None
        self.cases = False
        self.tests: list[str] = []
        self.started = 0.0
        self.pid = 0

    def start(self, m: Mutation | None, text: str, *, cases: bool = False) -> None:
        """Run the tests against the pack changed by `m` (each pack as written when `m` is None): the law tests
        in a fork of this warm process, or (`cases`) the case tests in a fresh interpreter of their own."""
        self.mutation, self.cases, self.started = m, cases, time.monotonic()
        self.tests = case_tests_for(m) if cases and m else tests_for(m)
        if m is not None:
            (self.packs / m.pack / "pack.yaml").write_text(mutated_text(text, m), encoding="utf-8")
        pid = os.fork()
        if pid:
            self.pid = pid
            return
        code = 3
        try:  # the child: never returns
            fd = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            if cases:
                env = os.environ | {"DOGCASE_VAR_DIR": str(self.dir / "var"), "PYTHONDONTWRITEBYTECODE": "1"}
                env.pop("DATABASE_URL", None)
                args = [sys.executable, "-m", "tests.mutation.mutate", "--run", str(self.packs), *self.tests]
                os.execve(sys.executable, args, env)  # noqa: S606 - the same interpreter, our own module
            code = _run_tests(self.packs, self.tests)
        except BaseException as error:  # noqa: BLE001 - whatever happens, the child reports and exits
            print(f"ERROR {type(error).__name__}: {error}", flush=True)
            code = 4
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)

    def finish(self, status: int, original: str) -> Mutation:
        m = self.mutation
        code = os.waitstatus_to_exitcode(status)
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        (self.packs / m.pack / "pack.yaml").write_text(original, encoding="utf-8")
        m.seconds = round(m.seconds + time.monotonic() - self.started, 1)
        which = "case" if self.cases else "law"
        if code == 0:
            m.outcome, m.detail = "survived", f"{len(self.tests)} {which} test files passed"
        elif code == 1:
            failed = re.findall(r"^FAILED (.+?)(?: - |$)", text, re.M)
            m.outcome, m.detail = "caught", failed[0] if failed else _last_line(text)
            if self.cases:
                m.detail = f"by a case test: {m.detail}"
        elif code == STILLBORN:
            m.outcome, m.detail = "stillborn", _last_line(text)
        else:
            m.outcome, m.detail = "error", _last_line(text)
        self.mutation, self.pid = None, 0
        return m

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def equivalents() -> dict[str, str]:
    """The changes that alter nothing the engine does, "<pack>:<what>" -> why (tests/mutation/equivalent/)."""
    out: dict[str, str] = {}
    for path in sorted(EQUIVALENT.glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            out[f"{path.stem}:{entry['what']}"] = entry["why"]
    return out


def report(done: list[Mutation], known: dict[str, str]) -> int:
    for m in done:
        if m.outcome == "survived" and f"{m.pack}:{m.what}" in known:
            m.outcome, m.detail = "equivalent", known[f"{m.pack}:{m.what}"]
    print()
    worst = 100.0
    for pack in sorted({m.pack for m in done}):
        mine = [m for m in done if m.pack == pack]
        count = {
            o: sum(1 for m in mine if m.outcome == o)
            for o in ("caught", "survived", "equivalent", "stillborn", "error")
        }
        counted = count["caught"] + count["survived"]
        score = 100.0 * count["caught"] / counted if counted else 100.0
        worst = min(worst, score)
        print(
            f"{pack}: {score:.1f}% caught ({count['caught']} of {counted} that change behaviour); "
            f"{count['equivalent']} equivalent, {count['stillborn']} stillborn, {count['error']} errors"
        )
    survivors = [m for m in done if m.outcome in ("survived", "error")]
    if survivors:
        print("\nSurvivors (no test fails when this line of the pack is changed):")
        for m in sorted(survivors, key=lambda m: (m.pack, m.line)):
            print(f"  packs/{m.pack}/pack.yaml:{m.line}: {m.what}  [{m.outcome}: {m.detail}]")
    equivalent = [m for m in done if m.outcome == "equivalent"]
    if equivalent:
        print("\nEquivalent (the change alters nothing the engine does):")
        for m in equivalent:
            print(f"  packs/{m.pack}/pack.yaml:{m.line}: {m.what} — {m.detail}")
    return 0 if worst >= 95.0 else 1


def _control(pack: str) -> Mutation:
    return Mutation(pack, 0, "control: the pack written out again, unchanged", (), "none")


def run(
    todo: list[Mutation],
    texts: dict[str, str],
    workers: int,
    known: dict[str, str],
    quiet: bool = False,
    case_tests: bool = True,
) -> list[Mutation]:
    """Run each mutation's law tests in a forked child of this (warm) process, `workers` at a time; a mutation
    they miss that is not known to be equivalent then runs the case tests that name its step or deadline."""
    _warm()
    slots = [Slot(n) for n in range(max(1, workers))]
    by_pid: dict[int, Slot] = {}
    done: list[Mutation] = []
    queue: list[tuple[Mutation, bool]] = [(m, False) for m in todo]
    try:
        while queue or by_pid:
            for slot in slots:
                if queue and not slot.pid:
                    m, cases = queue.pop(0)
                    slot.start(m, texts[m.pack], cases=cases)
                    by_pid[slot.pid] = slot
            pid, status = os.wait()
            slot = by_pid.pop(pid, None)
            if slot is None:
                continue
            cases = slot.cases
            m = slot.finish(status, texts[slot.mutation.pack])
            if (
                m.outcome == "survived"
                and not cases
                and f"{m.pack}:{m.what}" not in known
                and case_tests_for(m)
            ):
                queue.insert(0, (m, True))
                continue
            done.append(m)
            shown = "equivalent" if m.outcome == "survived" and f"{m.pack}:{m.what}" in known else m.outcome
            if not quiet:
                print(
                    f"[{len(done)}/{len(todo)}] {shown:10} {m.seconds:5.1f}s  "
                    f"packs/{m.pack}/pack.yaml:{m.line}: {m.what}",
                    flush=True,
                )
    finally:
        for slot in slots:
            if slot.pid:
                os.kill(slot.pid, 9)
            slot.close()
    return done


def main(argv: list[str] | None = None) -> int:
    if (
        argv is None and len(sys.argv) > 2 and sys.argv[1] == "--run"
    ):  # one run of the case tests (Slot.start)
        return _run_tests(Path(sys.argv[2]), sys.argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", action="append", help="only this pack (repeatable)")
    parser.add_argument("--only", help="only mutations whose description contains this text")
    parser.add_argument("--limit", type=int, help="at most this many mutations")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="print the mutations without running them")
    parser.add_argument(
        "--law-only",
        action="store_true",
        help="the law tests only: no case tests for what they miss (quicker)",
    )
    parser.add_argument("--json", type=Path, help="also write every result to this file")
    args = parser.parse_args(argv)

    texts = {p.parent.name: p.read_text(encoding="utf-8") for p in sorted(PACKS.glob("*/pack.yaml"))}
    chosen = [pack for pack in texts if not args.pack or pack in args.pack]
    todo = [m for pack in chosen for m in mutations_of(pack, texts[pack])]
    if args.only:
        todo = [m for m in todo if args.only in m.what]
    if args.limit:
        todo = todo[: args.limit]
    if args.list:
        for m in todo:
            print(f"packs/{m.pack}/pack.yaml:{m.line}: {m.what}")
        print(f"{len(todo)} mutations")
        return 0
    started = time.monotonic()
    # first, each pack written out again unchanged: every test must pass, or no result below would mean a thing
    known = equivalents()
    controls = run([_control(pack) for pack in chosen], texts, args.workers, known, quiet=True)
    broken = [m for m in controls if m.outcome != "survived"]
    if broken:
        for m in broken:
            print(f"packs/{m.pack}/pack.yaml, written out again unchanged, fails its tests: {m.detail}")
        return 2
    print(f"{len(todo)} mutations on {args.workers} workers", flush=True)
    done = run(todo, texts, args.workers, known, case_tests=not args.law_only)
    minutes = (time.monotonic() - started) / 60
    status = report(done, known)
    print(f"\n{len(done)} mutations in {minutes:.1f} min")
    if args.json:
        args.json.write_text(json.dumps([asdict(m) for m in done], indent=1, default=str), encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())

"""The `dogcase` command: the law engine's questions from the shell, answered in JSON.

Exit codes: 0 answered, 2 bad input or an invalid law pack (the message names the field or file and line).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from dogcase import law
from dogcase.law.errors import InputError, LawError, PackError

EXIT_BAD_INPUT = 2


@functools.cache
def _columns() -> int:
    """The terminal's width, as argparse's help would read it: once a process, not once an argument (argparse
    asks the terminal each time it makes a formatter, about sixty times a parser)."""
    return shutil.get_terminal_size().columns - 2


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width=None) -> None:
        super().__init__(
            prog, indent_increment, max_help_position, width if width is not None else _columns()
        )


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # argparse's own errors exit 2 too, with our JSON shape
        _fail("arguments", message)


def _fail(field: str, rule: str) -> None:
    json.dump({"error": {"field": field, "rule": rule}}, sys.stderr, indent=2)
    sys.stderr.write("\n")
    raise SystemExit(EXIT_BAD_INPUT)


def _out(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        _fail("FACTS", f"cannot read {path}: {exc.strerror}")
    except UnicodeDecodeError as exc:
        _fail("FACTS", f"{path} is not UTF-8 text (byte {exc.start})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        _fail("FACTS", f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")


def _key_values(items: list[str], field: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            _fail(field, f"{item!r} must be written NAME=VALUE")
        out[key] = value
    return out


def cmd_classify(args: argparse.Namespace) -> None:
    data = _read_json(args.facts)
    if not isinstance(data, dict):
        _fail("FACTS", 'must be a JSON object: {"incident_date": "YYYY-MM-DD", "facts": {...}}')
    facts = data.get("facts") if "facts" in data else {k: v for k, v in data.items() if k != "incident_date"}
    in_file = data.get("incident_date")
    if args.as_of and in_file is not None and args.as_of != in_file:
        _fail("--as-of", f"{args.as_of} differs from incident_date {in_file} in the file: give one date")
    raw_date = args.as_of or in_file
    if raw_date is None:
        _fail("incident_date", "give the incident date in the file or with --as-of YYYY-MM-DD")
    day = law.parse_date(raw_date, "--as-of" if args.as_of else "incident_date")
    _out(law.classify(args.jurisdiction, facts, day))


def cmd_deadline(args: argparse.Namespace) -> None:
    events = law.parse_events(_key_values(args.event or [], "--event"), "--event")
    settings = _key_values(args.setting or [], "--setting")
    on = law.parse_date(args.on, "--on") if args.on else None
    try:
        answer = law.deadline(
            args.jurisdiction,
            args.deadline,
            events,
            on=on,
            settings=settings or None,
            designation=args.designation,
        )
    except InputError as exc:
        if exc.field == "designation":  # name the option the user typed
            raise InputError("--designation", exc.rule) from exc
        raise
    if answer.get("status") == "by_designation":
        # no one date: the provisions differ by designation (each is answered in `by_designation`)
        sys.stderr.write(
            f"note: the provisions that set {args.deadline} differ by designation: each designation is answered "
            f"on its own; --designation {{{','.join(answer['designations'])}}} gives the one for a case\n"
        )
    _out(answer)


def cmd_law(args: argparse.Namespace) -> int | None:
    if args.law_command == "changes":
        return cmd_law_changes()
    packs = getattr(args, "packs", None)
    lib = law.Library(Path(packs)) if packs else law.library()
    if args.law_command == "list":
        _out([j.describe() for j in lib.jurisdictions.values()])
        return
    if args.law_command == "check":
        warnings = lib.warnings() + _translation_warnings(lib)
        _out(
            {
                "ok": True,
                "packs": {
                    p.id: {"file": p.file, "provisions": sum(len(x.versions) for x in p.provisions.values())}
                    for p in lib.packs.values()
                },
                # not failures: what a pack author should look at (a pack without table tests, a text an owner
                # reads in English, ...)
                "warnings": warnings,
            }
        )
        for w in warnings:
            sys.stderr.write(f"warning: {w['file']}: {w['warning']}\n")
        return
    if args.law_command == "defects":
        if args.pack and args.pack not in lib.packs:
            lib.get(args.pack)  # raises the unknown-jurisdiction error
        packs = [lib.packs[args.pack]] if args.pack else list(lib.packs.values())
        if args.markdown:
            sys.stdout.write(_defects_markdown(packs))
        else:
            _out({p.id: [d.as_dict() for d in p.defects] for p in packs})
        return
    j = lib.get(args.jurisdiction)
    on = law.parse_date(args.on, "--on") if args.on else j.today()
    if args.law_command == "show":
        _out(j.show(on))
    else:
        _out(law.conflicts(args.jurisdiction, on, lib=lib))


def cmd_city(args: argparse.Namespace) -> int | None:
    from dogcase.law.loader import PACKS_DIR, site_packs_dir

    site = site_packs_dir()
    if args.city_command == "list":
        lib = law.Library(PACKS_DIR, site)
        _out(
            [
                {
                    "id": p.id,
                    "name": p.name,
                    "kind": p.kind,
                    "case_prefix": p.case_prefix,
                    "law": "the state law alone"
                    if not (p.provisions or p.procedure)
                    else "its own and the state's",
                    "pack": str(Path(p.folder) / "pack.yaml"),
                    "added_on_this_server": site is not None and Path(p.folder).parent == site,
                }
                for p in lib.packs.values()
                if p.kind != "state"
            ]
        )
        return None
    from dogcase.law import sitepacks

    if not args.state_only:
        _fail(
            "--state-only",
            "`city add` adds a city or county with no dangerous-dog text of its own; give --state-only. A city "
            "with an ordinance of its own is written as a law pack (docs/law-packs.md, Adding a city).",
        )
    new = sitepacks.add_state_only(
        args.name,
        kind="county" if args.county else "city",
        jurisdiction_id=args.id,
        case_prefix=args.case_prefix,
        observes=_key_values(args.observes or [], "--observes"),
        authority_name=args.authority,
        site=site,
    )
    answer: dict[str, Any] = {"added": new.as_dict()}
    if args.address or args.telephone:
        _django()
        from dogcase.documents.offices import supply_office

        for office in ("animal_control_authority", "letterhead"):
            supply_office(new.id, office, address=args.address or "", telephone=args.telephone or "")
        answer["offices"] = "the authority's and the letterhead's address and telephone are recorded"
    answer["next"] = [
        "the servers take the new pack within DOGCASE_LAW_RELOAD_SECONDS (or on restart)",
        f"give staff access on the Users page, or: manage.py create_administrator NAME --city {new.id}",
        "the address and telephone of its offices: the administrator's City settings page",
    ]
    _out(answer)
    return 0


def _translation_warnings(lib) -> list[dict[str, str]]:
    """The texts of the cities' law an owner reads in English for want of a translation (the catalogue is
    Django's: read with the settings, no database)."""
    _django()
    from dogcase.cases.translation import missing_translations

    return missing_translations(lib)


def cmd_law_changes() -> int:
    """What the packs on disk change from the version last taken into use (recorded in the database): what
    the servers will use within DOGCASE_LAW_RELOAD_SECONDS, and the next sweep; exit 1 if they do not load
    (the servers then keep the law they have)."""
    _django()
    from django.conf import settings

    from dogcase.cases.lawversions import current
    from dogcase.law import changes
    from dogcase.law.loader import PACKS_DIR, site_packs_dir

    site = site_packs_dir()
    texts = changes.law_texts(PACKS_DIR, site)
    on_disk: dict[str, Any] = {"fingerprint": changes.fingerprint(texts), "loads": True}
    try:
        law.Library(PACKS_DIR, site)
    except PackError as exc:
        on_disk |= {"loads": False, "error": f"{exc.file}:{exc.line or ''}: {exc.message}"}
    version = current()
    every = settings.DOGCASE_LAW_RELOAD_SECONDS
    answer: dict[str, Any] = {
        "on_disk": on_disk,
        "in_use": {"fingerprint": version.fingerprint, "since": version.first_used_at.isoformat()}
        if version
        else None,
        "changes": [str(c) for c in changes.what_changed(version.texts, texts)] if version else [],
    }
    if not on_disk["loads"]:
        answer["what_happens"] = "the packs on disk do not load: the servers keep the law in use"
    elif version is None:
        answer["what_happens"] = "no version is recorded yet: the next sweep records the one in use"
    elif version.fingerprint == on_disk["fingerprint"]:
        answer["what_happens"] = "the packs on disk are the law in use"
    else:
        answer["what_happens"] = (
            f"each web process takes them within {every} seconds of its next request"
            if every > 0
            else "a restart of the web processes takes them (DOGCASE_LAW_RELOAD_SECONDS=0)"
        ) + "; the next sweep too, and it recomputes the open cases they touch"
    _out(answer)
    return 0 if on_disk["loads"] else 1


def _defects_markdown(packs) -> str:
    lines = [
        "# Defects and ambiguities in the law texts",
        "",
        "Generated from the law packs by `dogcase law defects --markdown`; each entry is also shown in every",
        "answer that relies on the provisions it names, and on the Law page.",
        "",
    ]
    for pack in packs:
        lines += [f"## {pack.name} (`{pack.id}`)", ""]
        for d in pack.defects:
            provisions = ", ".join(f"`{p.split(':', 1)[1]}`" for p in d.provisions)
            when = f" Applies {d.applies.describe()}." if d.applies.start or d.applies.end else ""
            lines.append(
                f"- **{d.id}** ({d.kind}; {provisions}). {d.text} *dogcase's reading:* {d.reading}{when}"
            )
        lines.append("")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dogcase", description="dogcase: Minnesota dangerous-dog law, answered with citations."
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("classify", help="what the incident facts make the dog, and why")
    p.add_argument(
        "facts", metavar="FACTS.json", help='{"incident_date": "YYYY-MM-DD", "facts": {...}}; - for stdin'
    )
    p.add_argument("--jurisdiction", "-j", required=True)
    p.add_argument("--as-of", help="the incident date (overrides incident_date in the file)")
    p.set_defaults(func=cmd_classify)

    p = sub.add_parser("deadline", help="by when an act is due (or allowed), and why")
    p.add_argument("deadline", help="e.g. owner.request_hearing")
    p.add_argument("--jurisdiction", "-j", required=True)
    p.add_argument("--event", action="append", metavar="EVENT=DATE", help="e.g. notice_date=2026-03-02")
    p.add_argument("--on", help="read the law as in force on this date (default: the trigger's date)")
    p.add_argument(
        "--setting",
        action="append",
        metavar="NAME=VALUE",
        help="a city setting, e.g. registration_trigger=decision_received",
    )
    p.add_argument(
        "--designation",
        help="only the provisions that concern this designation (a case's), e.g. vicious; without it, where the "
        "provisions differ by designation, each designation is answered on its own (status by_designation)",
    )
    p.set_defaults(func=cmd_deadline)

    p = sub.add_parser("law", help="the law packs")
    law_sub = p.add_subparsers(dest="law_command", required=True, parser_class=_Parser)
    law_sub.add_parser("list", help="the jurisdictions")
    q = law_sub.add_parser("check", help="load and validate every pack (warnings go to stderr; exit 0)")
    q.add_argument("--packs", metavar="DIR", help="a packs folder to check (default: the shipped packs)")
    law_sub.add_parser(
        "changes",
        help="what the packs on disk change from the law in use (exit 1 if they do not load)",
    )
    q = law_sub.add_parser("defects", help="the known defects and ambiguities of the texts")
    q.add_argument("pack", nargs="?", help="one pack (default: all)")
    q.add_argument("--markdown", action="store_true", help="as a Markdown document")
    for name, text in (
        ("show", "the provisions in force"),
        ("conflicts", "where the city departs from state law"),
    ):
        q = law_sub.add_parser(name, help=text)
        q.add_argument("jurisdiction")
        q.add_argument("--on", help="a date (default: today in the jurisdiction)")
    p.set_defaults(func=cmd_law)

    p = sub.add_parser("city", help="the cities and counties this server serves")
    city_sub = p.add_subparsers(dest="city_command", required=True, parser_class=_Parser)
    city_sub.add_parser("list", help="each city and county, its case prefix and where its law pack is")
    q = city_sub.add_parser(
        "add",
        help="add a city or county with no dangerous-dog ordinance of its own: the state law is its whole law "
        "(347.565); its pack is written to the site's packs folder (DOGCASE_SITE_PACKS_DIR)",
    )
    q.add_argument("name", metavar="NAME", help='e.g. "Example, MN" or, with --county, "Lake County"')
    q.add_argument(
        "--state-only",
        action="store_true",
        help="the city or county has no dangerous-dog text of its own (required: a city with an ordinance is "
        "written as a law pack, docs/law-packs.md)",
    )
    q.add_argument("--county", action="store_true", help="a county: the Sheriff's office is the authority")
    q.add_argument("--id", help="the jurisdiction id (default: from the name, e.g. example-mn)")
    q.add_argument("--case-prefix", help="the letters case numbers start with (default: the name's initials)")
    q.add_argument(
        "--observes",
        action="append",
        metavar="HOLIDAY=yes|no",
        help="whether it observes a holiday the state leaves to it (645.44 subd. 5); each such holiday once",
    )
    q.add_argument(
        "--authority",
        help="the name of its animal control authority as documents print it (default: the city's animal "
        "control, or the county Sheriff's Office)",
    )
    q.add_argument("--address", help="the authority's address, printed on documents (the city's offices)")
    q.add_argument("--telephone", help="the authority's telephone, printed on documents")
    p.set_defaults(func=cmd_city)

    p = sub.add_parser("audit", help="the audit trail")
    audit_sub = p.add_subparsers(dest="audit_command", required=True, parser_class=_Parser)
    q = audit_sub.add_parser(
        "verify",
        help="recompute every chain, check the stored files and the records against their events, and that "
        "every record an event wrote is still there; name each problem (exit 1)",
    )
    q.add_argument(
        "--checkpoint", metavar="FILE", help="a signed checkpoint: prove nothing written before it changed"
    )
    q = audit_sub.add_parser(
        "checkpoint",
        help="a signed JSON of the number of events and every chain's head, to keep off the server (stdout or "
        "--out; docs/deploy.md)",
    )
    q.add_argument("--out", metavar="FILE", help="write it to FILE (refused if FILE exists)")
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser(
        "sweep", help="mark overdue obligations and raise staff tasks (run daily: cron, systemd or --every)"
    )
    p.add_argument("--at", help="the instant to sweep as of (default: now), ISO with time zone")
    p.add_argument("--city", help="one jurisdiction id (default: all)")
    p.add_argument(
        "--every",
        type=int,
        metavar="SECONDS",
        help="keep running as the scheduler: enqueue the day's sweep job (run by the worker, manage.py "
        "db_worker) once a day, checking every SECONDS (at most an hour)",
    )
    p.add_argument(
        "--full",
        action="store_true",
        help="recompute every open case, not only those whose time ran out or whose law changed "
        "(after an upgrade of dogcase itself)",
    )
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser(
        "backup", help="back up the database and the stored files, with a manifest (docs/deploy.md)"
    )
    p.add_argument("directory", metavar="DIR", help="a new or empty folder")
    p.set_defaults(func=cmd_backup)
    p = sub.add_parser(
        "restore",
        help="restore a backup into a fresh database and the storage, then verify it (exit 1 if not)",
    )
    p.add_argument("directory", metavar="DIR", help="a folder written by `dogcase backup`")
    p.set_defaults(func=cmd_restore)
    return parser


def _django() -> None:
    """The case commands read the database: set Django up (the law commands never need it)."""
    import os

    import django

    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()


def cmd_audit(args: argparse.Namespace) -> int:
    _django()
    from dogcase.cases import audit
    from dogcase.ops.integrity import verify_all

    if args.audit_command == "checkpoint":
        signed = audit.checkpoint()
        if args.out:
            try:
                with open(args.out, "x", encoding="utf-8") as f:
                    json.dump(signed, f, indent=2)
                    f.write("\n")
            except OSError as exc:
                _fail("--out", f"cannot write {args.out}: {exc.strerror or exc}")
            _out({"written": args.out, "chains": len(signed["chains"]), "events": signed["events"]})
        else:
            _out(signed)
        return 0
    checkpoint = None
    if args.checkpoint:
        try:
            checkpoint = audit.read_checkpoint(_read_json(args.checkpoint))
        except audit.CheckpointInvalid as exc:
            _fail("--checkpoint", str(exc))
    report = verify_all(checkpoint=checkpoint)
    _out(report)
    return 0 if report["ok"] else 1


def _progress(line: str) -> None:
    """A long recompute (a new law pack) tells how far it is, on stderr: stdout is the report."""
    print(line, file=sys.stderr, flush=True)


def cmd_sweep(args: argparse.Namespace) -> int:
    import datetime as dt
    import time

    _django()
    from django.utils import timezone

    from dogcase.cases.acts import sweep

    at = None
    if args.at:
        try:
            at = dt.datetime.fromisoformat(args.at)
        except ValueError:
            _fail("--at", "must be an ISO date and time, e.g. 2026-03-02T08:00-06:00")
        if timezone.is_naive(at):
            _fail("--at", "give the time zone, e.g. 2026-03-02T08:00-06:00")
    if args.every:
        # the scheduler: enqueue the day's sweep job once a day (a restarted scheduler does not enqueue a day
        # twice); the worker (`manage.py db_worker`) runs it, with the day's reminders (dogcase.messaging)
        from dogcase.messaging.schedule import schedule_daily_sweep

        if args.at or args.city or args.full:
            _fail(
                "--every",
                "schedules the daily sweep of every city; --at, --city and --full are for one sweep",
            )
        while True:
            when = timezone.now()
            queued = schedule_daily_sweep(when)
            _out({"at": when.isoformat(), "day": timezone.localdate(when).isoformat(), "enqueued": queued})
            sys.stdout.flush()
            time.sleep(min(args.every, 3600))
    from dogcase.messaging.reminders import send_reminders

    report = sweep(at=at, jurisdiction=args.city, full=args.full, progress=_progress)
    answer = {"at": (at or timezone.now()).isoformat(), **report.as_dict()}
    if not args.city:
        answer["messages"] = send_reminders(at)  # the day's reminders, sent by the worker
        if at is None:
            from dogcase.messaging.cleanup import delete_expired_credentials

            answer["expired_credentials"] = delete_expired_credentials()
    _out(answer)
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    _django()
    from dogcase.ops.backup import BackupRefused, backup

    try:
        manifest = backup(Path(args.directory))
    except BackupRefused as exc:
        _fail("DIR", str(exc))
    _out(
        {key: manifest[key] for key in ("taken_at", "database", "rows", "problems")}
        | {
            "tables": len(manifest["tables"]),
            "files": len(manifest["files"]),
            "audit_chain_heads": manifest["audit_chain_heads"],
        }
    )
    return 1 if manifest["problems"] else 0


def cmd_restore(args: argparse.Namespace) -> int:
    _django()
    from dogcase.ops.backup import BackupRefused, restore

    try:
        report = restore(Path(args.directory))
    except BackupRefused as exc:
        _fail("DIR", str(exc))
    _out(report)
    return 0 if report["ok"] else 1


# The exit status of a process ended by a closed pipe (128 + SIGPIPE), as `yes | head` gives.
CLOSED_PIPE = 141


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """build_parser(), once a process: the same parser every time, which took longer to build (1.5 ms) than
    a quiet sweep spends in Python on the sweep itself; parsing leaves it as it was."""
    return build_parser()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        result = args.func(args)
        sys.stdout.flush()  # here, not at exit, so that a reader gone away is caught below
        if isinstance(result, int):
            return result
    except BrokenPipeError:
        # `dogcase law show … | head`: the reader has what it wanted. Nothing more goes to the closed pipe
        # (Python would otherwise report the failed flush at exit), and nothing is printed about it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    except PackError as exc:
        _fail(f"{exc.file}:{exc.line}" if exc.line else exc.file, exc.message)
    except InputError as exc:
        _fail(exc.field, exc.rule)
    except LawError as exc:
        _fail("law", str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())

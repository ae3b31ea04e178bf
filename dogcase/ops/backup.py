"""Backup and restore of everything dogcase keeps: the database and the stored files, with a manifest.

A backup folder holds:

    manifest.json       row counts per table, the audit chain head(s), every stored file with its SHA-256
    database.sqlite3    SQLite: a copy taken with SQLite's online backup API
    database.pgdump     PostgreSQL: pg_dump's custom format (restored with pg_restore)
    files/<name>        each stored file under its name in the storage (content-addressed: its hash)
    packs/<pack>/...    the law packs of the cities added on this server (DOGCASE_SITE_PACKS_DIR): restore
                        writes them back, never over a file that is there

The database copy, the counts, the chain head and the list of files are read from one snapshot (SQLite: in one
read transaction, during which writers wait, for the second or two the copy takes; PostgreSQL: pg_dump runs on
a snapshot exported from the transaction that reads the rest, and nobody waits), so the manifest describes exactly the copy. Files are written before the
row that names them and never change, so every file the copy names exists when it is copied.

A backup holds no live credential: the rows of the sessions (staff and owners' sign-ins), the failed-login
counts and the owners' one-time sign-in links are left out (LEFT_OUT: the tables are there, empty), so that
nobody who reads a backup can take over a session or use a link, and a restore starts with everyone signed out.
A backup taken before this rule had them: restore empties those tables after loading it. The rest (people,
cases, users with their password hashes, documents, the audit chain) is what a backup is for.

`restore` needs a fresh database (no tables) and writes the files into the configured storage without ever
writing over one, then checks what it restored: equal row counts, equal chain head(s), every file's hash, and
the audit chain (`dogcase audit verify`).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.core.files import File
from django.core.files.storage import storages
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connections

from dogcase.cases.snapshot import read_snapshot

FORMAT = 1
MANIFEST = "manifest.json"
DUMP_NAMES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
CHUNK = 1024 * 1024
# The tables whose rows are credentials or their traces, by model: (app label, model name) -> what they hold.
LEFT_OUT_MODELS = {
    ("sessions", "Session"): "sessions: the staff's logins and the owners' portal sign-ins",
    ("accounts", "LoginThrottle"): "failed-login counts and locks",
    ("owners", "SignInLink"): "the owners' one-time sign-in links",
    ("accounts", "KnownSignIn"): "the devices and addresses people signed in from (they pass a login lock)",
    ("accounts", "SignInLock"): "the record of login locks",
}


class BackupRefused(Exception):
    """The backup or restore cannot start: the message says why and what to do."""


def _sha256_of(handle) -> str:
    digest = hashlib.sha256()
    for chunk in iter(lambda: handle.read(CHUNK), b""):
        digest.update(chunk)
    return digest.hexdigest()


def _file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return _sha256_of(handle)


def _inside(root: Path, name: str) -> Path:
    path = (root / name).resolve()
    if root.resolve() not in path.parents:
        raise BackupRefused(f"stored file name {name!r} leaves the backup folder")
    return path


def table_counts(using: str = "default") -> dict[str, int]:
    """Rows in every table of the database, by table name (not SQLite's own tables: its planner statistics,
    sqlite_stat1, appear whenever the database is analyzed and are not data)."""
    connection = connections[using]
    with connection.cursor() as cursor:
        names = sorted(n for n in connection.introspection.table_names(cursor) if not n.startswith("sqlite_"))
        counts = {}
        for name in names:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(name)}")  # noqa: S608 - a table name
            counts[name] = cursor.fetchone()[0]
    return counts


def chain_heads() -> list[dict[str, Any]]:
    """The audit chains' head rows as JSON reads them back (one per case and one per city's records)."""
    from dogcase.cases.models import ChainHead

    rows = list(ChainHead.objects.order_by("pk").values())
    return json.loads(json.dumps(rows, cls=DjangoJSONEncoder))


def left_out_tables() -> dict[str, str]:
    """Table name -> what it holds, for every table a backup keeps empty (LEFT_OUT_MODELS)."""
    from django.apps import apps

    tables = {}
    for (app_label, model_name), what in LEFT_OUT_MODELS.items():
        try:
            model = apps.get_model(app_label, model_name)
        except LookupError:
            continue
        tables[model._meta.db_table] = what
    return tables


def _empty_sqlite_copy(path: Path, tables: list[str]) -> None:
    """Delete the left-out rows from the SQLite copy, and their bytes with them (secure_delete overwrites the
    freed pages; VACUUM rebuilds the file without them)."""
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA secure_delete = ON")
        existing = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table in tables:
            if table in existing:
                db.execute(f'DELETE FROM "{table}"')  # noqa: S608 - a table name from the models
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()


def drop_credentials(using: str = "default") -> dict[str, int]:
    """Delete every row of the left-out tables in the configured database (a restore of an older backup that
    still had them); the rows deleted, by table."""
    connection = connections[using]
    deleted = {}
    with connection.cursor() as cursor:
        existing = set(connection.introspection.table_names(cursor))
        for table in left_out_tables():
            if table in existing:
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")  # noqa: S608 - a model's table
                deleted[table] = cursor.rowcount
    return deleted


def _stored_files() -> list[tuple[str, str]]:
    """(name in the storage, SHA-256) of every file any record keeps: evidence, proof of service and photos,
    the issued documents' PDFs and the files sent as proof of a condition (one entry per stored name: the
    storage keeps each content once)."""
    from dogcase.cases.models import StoredFile
    from dogcase.documents.models import IssuedDocument
    from dogcase.proofs.models import ProofFile

    return sorted(
        set(StoredFile.objects.values_list("path", "sha256"))
        | set(IssuedDocument.objects.values_list("blob", "sha256"))
        | set(ProofFile.objects.values_list("path", "sha256"))
    )


def _pg_tool(name: str) -> str:
    """pg_dump/pg_restore of the newest PostgreSQL installed (a dump needs a pg_dump at least as new as the
    server); DOGCASE_PG_BINDIR chooses another folder."""
    bindir = os.getenv("DOGCASE_PG_BINDIR")
    if bindir:
        return str(Path(bindir) / name)
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name or 0))
    for candidate in reversed(versions):
        if (candidate / name).exists():
            return str(candidate / name)
    found = shutil.which(name)
    if not found:
        raise BackupRefused(
            f"{name} is missing: install the PostgreSQL client (apt-get install postgresql-client)"
        )
    return found


def _pg_args_env(using: str) -> tuple[list[str], dict[str, str]]:
    """Connection options for pg_dump/pg_restore; the password goes through the environment, never argv."""
    params = connections[using].settings_dict
    args = ["--dbname", params["NAME"]]
    if params.get("HOST"):
        args += ["--host", params["HOST"]]
    if params.get("PORT"):
        args += ["--port", str(params["PORT"])]
    if params.get("USER"):
        args += ["--username", params["USER"]]
    env = {**os.environ}
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = params["PASSWORD"]
    sslmode = (params.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = sslmode
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    # pg_dump/pg_restore with arguments built from the settings, never from a shell.
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if result.returncode != 0:
        raise BackupRefused(f"{Path(command[0]).name} failed: {result.stderr.strip()[-2000:]}")


def _snapshot(directory: Path, using: str) -> dict[str, Any]:
    """Copy the database and read what the manifest says about it, from one consistent state."""
    connection = connections[using]
    vendor = connection.vendor
    if vendor not in DUMP_NAMES:
        raise BackupRefused(f"backups support SQLite and PostgreSQL, not {vendor}")
    dump = directory / DUMP_NAMES[vendor]
    left_out = sorted(left_out_tables())
    if vendor == "sqlite" and connection.in_atomic_block:
        raise BackupRefused("a backup cannot run inside a transaction")
    with read_snapshot(using):
        if vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_export_snapshot()")
                snapshot = cursor.fetchone()[0]
            args, env = _pg_args_env(using)
            _run(
                [_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges"]
                + [f"--exclude-table-data={table}" for table in left_out]
                + ["--snapshot", snapshot, "--file", str(dump), *args],
                env,
            )
        else:
            target = sqlite3.connect(dump)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
            _empty_sqlite_copy(dump, left_out)
        return _describe(vendor, dump, using, left_out)


def _describe(vendor: str, dump: Path, using: str, left_out: list[str]) -> dict[str, Any]:
    counts = table_counts(using)
    return {
        "vendor": vendor,
        # the copy's counts: the left-out tables are there, empty
        "tables": {name: 0 if name in left_out else n for name, n in counts.items()},
        "chain_heads": chain_heads(),
        "files": _stored_files(),
        "dump": dump,
    }


def _private_files(function):
    """Everything the backup writes is readable by its owner only (0600 files, 0700 folders), not just its top
    folder: a copy of the folder made by another user or tool keeps the files' own modes."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        old = os.umask(0o077)
        try:
            return function(*args, **kwargs)
        finally:
            os.umask(old)

    return wrapper


@_private_files
def backup(directory: Path, *, using: str = "default") -> dict[str, Any]:
    """Write a backup of the database and the stored files into `directory` (new or empty); return the
    manifest. Files that are missing or whose bytes no longer match their recorded hash are listed under
    "problems" (the backup still holds everything else)."""
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        raise BackupRefused(f"{directory} is not empty: back up into a new folder")
    directory.mkdir(parents=True, exist_ok=True)
    # People's names, addresses and evidence: readable by the owner of the backup only.
    directory.chmod(0o700)
    taken_at = dt.datetime.now(tz=dt.UTC)
    snap = _snapshot(directory, using)

    storage = storages["default"]
    files_root = directory / "files"
    files, problems = [], []
    for name, recorded in snap["files"]:
        target = _inside(files_root, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        size = 0
        try:
            with storage.open(name, "rb") as source, open(target, "wb") as out:
                for chunk in iter(lambda source=source: source.read(CHUNK), b""):
                    digest.update(chunk)
                    out.write(chunk)
                    size += len(chunk)
        except OSError:
            problems.append({"file": name, "problem": "missing from the storage"})
            target.unlink(missing_ok=True)
            continue
        if digest.hexdigest() != recorded:
            problems.append({"file": name, "problem": "its bytes do not match the SHA-256 recorded for it"})
        files.append({"name": name, "sha256": digest.hexdigest(), "size": size})

    site_packs = _copy_site_packs(directory / "packs")
    dump = snap["dump"]
    manifest = {
        "format": FORMAT,
        "taken_at": taken_at.isoformat(),
        "database": {"vendor": snap["vendor"], "file": dump.name, "sha256": _file_sha256(dump)},
        "tables": snap["tables"],
        "rows": sum(snap["tables"].values()),
        "left_out": {table: what for table, what in left_out_tables().items() if table in snap["tables"]},
        "audit_chain_heads": snap["chain_heads"],
        "files": files,
        # the law packs of the cities added on this server (DOGCASE_SITE_PACKS_DIR): their law is theirs to keep
        "site_packs": site_packs,
        "problems": problems,
    }
    # Written last: a folder without a manifest is an interrupted backup, and restore refuses it.
    partial = directory / (MANIFEST + ".partial")
    partial.write_text(json.dumps(manifest, indent=2, ensure_ascii=False))
    os.replace(partial, directory / MANIFEST)
    return manifest


def _copy_site_packs(target: Path) -> list[dict[str, Any]]:
    """Copy the site's own law files (each pack.yaml and its translations) under `target`; their list."""
    from dogcase.law import changes
    from dogcase.law.loader import PACKS_DIR, site_packs_dir

    site = site_packs_dir()
    if site is None or not site.is_dir():
        return []
    out = []
    for path in changes.law_files(PACKS_DIR, site):
        if path.parent.parent != site:
            continue  # the shipped packs come with dogcase itself
        name = f"{path.parent.name}/{path.name}"
        data = path.read_bytes()
        (target / path.parent.name).mkdir(parents=True, exist_ok=True)
        (target / name).write_bytes(data)
        out.append({"name": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)})
    return out


def _restore_site_packs(directory: Path, manifest: dict[str, Any]) -> list[dict[str, str]]:
    """Write the backup's site packs into the site's folder; a file there already is never written over (one
    that differs is a problem to settle by hand)."""
    from dogcase.law.loader import site_packs_dir

    entries = manifest.get("site_packs") or []
    site = site_packs_dir()
    if not entries:
        return []
    if site is None:
        return [
            {
                "file": "packs/",
                "problem": "the backup has law packs of its own and DOGCASE_SITE_PACKS_DIR is empty",
            }
        ]
    problems = []
    for entry in entries:
        data = (_inside(directory / "packs", entry["name"])).read_bytes()
        target = _inside(site, entry["name"])
        if target.exists():
            if target.read_bytes() != data:
                problems.append({"file": str(target), "problem": "differs from the backup's; left as it is"})
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return problems


def read_manifest(directory: Path) -> dict[str, Any]:
    path = Path(directory) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise BackupRefused(f"{path} is missing: not a backup folder, or the backup did not finish") from None
    except json.JSONDecodeError as exc:
        raise BackupRefused(f"{path} is not valid JSON (line {exc.lineno})") from None
    if manifest.get("format") != FORMAT:
        raise BackupRefused(
            f"{path} has format {manifest.get('format')!r}; this dogcase reads format {FORMAT}"
        )
    return manifest


def restore(directory: Path, *, using: str = "default") -> dict[str, Any]:
    """Restore a backup into the configured database (which must have no tables) and storage, then verify
    it; the report's "ok" is true only when every check passed."""
    directory = Path(directory)
    manifest = read_manifest(directory)
    connection = connections[using]
    vendor = manifest["database"]["vendor"]
    if vendor != connection.vendor:
        raise BackupRefused(
            f"this backup is of a {vendor} database; the configured one is {connection.vendor}"
        )
    dump = directory / manifest["database"]["file"]
    if not dump.exists() or _file_sha256(dump) != manifest["database"]["sha256"]:
        raise BackupRefused(f"{dump} is missing or does not match the SHA-256 in the manifest")
    with connection.cursor() as cursor:
        existing = connection.introspection.table_names(cursor)
    if existing:
        raise BackupRefused(
            f"the configured database already has {len(existing)} tables: restore into a fresh, empty database"
        )

    storage = storages["default"]
    files_root = directory / "files"
    for entry in manifest["files"]:
        source = _inside(files_root, entry["name"])
        if not source.exists() or _file_sha256(source) != entry["sha256"]:
            raise BackupRefused(f"{source} is missing or does not match the SHA-256 in the manifest")
    for entry in manifest.get("site_packs") or []:
        source = _inside(directory / "packs", entry["name"])
        if not source.exists() or _file_sha256(source) != entry["sha256"]:
            raise BackupRefused(f"{source} is missing or does not match the SHA-256 in the manifest")

    if vendor == "postgresql":
        args, env = _pg_args_env(using)
        _run(
            [
                _pg_tool("pg_restore"),
                "--no-owner",
                "--no-privileges",
                "--exit-on-error",
                "--single-transaction",
            ]
            + [*args, str(dump)],
            env,
        )
    else:
        connection.ensure_connection()
        source_db = sqlite3.connect(dump)
        try:
            source_db.backup(connection.connection)
        finally:
            source_db.close()

    drop_credentials(using)  # a backup taken before they were left out still has them: none is restored live

    problems: list[dict[str, str]] = _restore_site_packs(directory, manifest)
    for entry in manifest["files"]:
        name = entry["name"]
        if storage.exists(name):
            continue  # content-addressed: checked below like the others, never written over
        with open(_inside(files_root, name), "rb") as handle:
            saved = storage.save(name, File(handle))
        if saved != name:
            problems.append({"file": name, "problem": f"the storage saved it as {saved}"})
    return {**verify_restored(manifest, using=using, problems=problems), "restored_from": str(directory)}


def verify_restored(
    manifest: dict[str, Any], *, using: str = "default", problems: list[dict[str, str]] | None = None
) -> dict[str, Any]:
    """Compare the database and storage with the manifest, and verify the audit chain."""
    from dogcase.cases.audit import verify_chain

    problems = list(problems or [])
    counts = table_counts(using)
    left_out = left_out_tables()
    for table in sorted(set(counts) | set(manifest["tables"])):
        expected, found = manifest["tables"].get(table), counts.get(table)
        if table in left_out:
            continue  # kept empty by a backup and a restore; who signs in afterwards is not the backup's
        if expected != found:
            problems.append({"table": table, "problem": f"{found} rows, the backup has {expected}"})
    if chain_heads() != manifest["audit_chain_heads"]:
        problems.append({"table": "audit chain", "problem": "the chain head differs from the backup's"})
    storage = storages["default"]
    for entry in manifest["files"]:
        try:
            with storage.open(entry["name"], "rb") as handle:
                digest = _sha256_of(handle)
        except OSError:
            problems.append({"file": entry["name"], "problem": "missing from the storage"})
            continue
        if digest != entry["sha256"]:
            problems.append({"file": entry["name"], "problem": "its bytes differ from the backup's"})
    audit = verify_chain()
    if not audit.ok:
        problems.append({"table": "audit chain", "problem": audit.problem or "does not verify"})
    return {
        "ok": not problems,
        "tables": len(counts),
        "rows": sum(counts.values()),
        "files": len(manifest["files"]),
        "audit": audit.as_dict(),
        "problems": problems,
    }

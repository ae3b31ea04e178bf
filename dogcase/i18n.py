"""The translation catalogues (dogcase/locale): .po files compiled to the .mo files Django reads, in Python.

The compiled .mo files are committed beside their .po, so that a fresh clone runs without gettext's tools;
`make messages` (python -m dogcase.i18n) compiles them again after a .po changes, and a test fails when a
committed .mo no longer matches its .po. Only what our catalogues use is read: msgctxt, msgid, msgstr,
comments, flags; plural forms are refused (none of our strings has one).
"""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class CatalogueError(ValueError):
    pass


def parse_po(text: str, *, name: str = "<po>") -> dict[str, str]:
    """The messages of a .po file: {key: translation}, the key being `msgctxt + "\\x04" + msgid` for a
    message with a context. Untranslated and fuzzy messages are left out (gettext's msgfmt does the same)."""
    messages: dict[str, str] = {}
    entry: dict[str, str] = {}
    fuzzy = False
    field: str | None = None

    def finish() -> None:
        nonlocal entry, fuzzy, field
        if "msgid" in entry:
            key = entry["msgid"]
            if "msgctxt" in entry:
                key = f"{entry['msgctxt']}\x04{key}"
            if key in messages:
                raise CatalogueError(f"{name}: {entry['msgid']!r} is translated twice")
            if entry.get("msgstr") and (not fuzzy or key == ""):
                messages[key] = entry["msgstr"]
        entry, fuzzy, field = {}, False, None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid", "msgstr"):
            if keyword in ("msgctxt", "msgid") and "msgstr" in entry:
                finish()
            field = keyword
            entry[field] = _string(rest, name, number)
        elif keyword in ("msgid_plural",) or keyword.startswith("msgstr["):
            raise CatalogueError(f"{name}:{number}: plural forms are not supported")
        elif line.startswith('"') and field is not None:
            entry[field] += _string(line, name, number)
        else:
            raise CatalogueError(f"{name}:{number}: cannot read {line!r}")
    finish()
    return messages


def _string(token: str, name: str, number: int) -> str:
    token = token.strip()
    if not (len(token) >= 2 and token.startswith('"') and token.endswith('"')):
        raise CatalogueError(f"{name}:{number}: expected a quoted string, found {token!r}")
    try:
        return ast.literal_eval(token)
    except (SyntaxError, ValueError):
        raise CatalogueError(f"{name}:{number}: cannot read the string {token!r}") from None


def mo_bytes(messages: dict[str, str]) -> bytes:
    """The GNU .mo file of `messages`, keys sorted (as msgfmt writes them), without a hash table."""
    keys = sorted(messages)
    ids = [k.encode() for k in keys]
    strs = [messages[k].encode() for k in keys]
    count = len(keys)
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + count * 8
    data_start = strs_table + count * 8
    offsets_ids, offsets_strs, blob = [], [], b""
    for value in ids:
        offsets_ids.append((len(value), data_start + len(blob)))
        blob += value + b"\0"
    for value in strs:
        offsets_strs.append((len(value), data_start + len(blob)))
        blob += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0)
    out += b"".join(struct.pack("<2I", *o) for o in offsets_ids)
    out += b"".join(struct.pack("<2I", *o) for o in offsets_strs)
    return out + blob


def compile_catalogues(root: Path = LOCALE_DIR, *, check: bool = False) -> list[Path]:
    """Compile every .po under `root` to its .mo; with `check`, write nothing and return the .mo files that
    are missing or differ from their .po."""
    stale = []
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        data = mo_bytes(parse_po(po.read_text(encoding="utf-8"), name=str(po)))
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.read_bytes() == data:
            continue
        stale.append(mo)
        if not check:
            mo.write_bytes(data)
    return stale


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = compile_catalogues(check=check)
    for mo in stale:
        print(f"{'out of date' if check else 'compiled'}: {mo}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())

"""A city's file as rows of text: a CSV (UTF-8, with or without its byte-order mark, or Windows-1252 as older
spreadsheets write it; comma, semicolon or tab) or an XLSX workbook (its first sheet). The first row names the
columns. Rows are read one at a time from the stored file, never all at once."""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

MAX_BYTES = 100 * 1024 * 1024  # 100,000 dogs from ASM3 with their owners: about 40 MB of CSV
MAX_COLUMNS = 400
MAX_CELL = 5000  # characters: a narrative; longer is a file that is not a table of records
XLSX_MAGIC = b"PK\x03\x04"


class FileProblem(Exception):
    """The file cannot be read as a table: what is wrong with it, in words for the person who sent it."""


@dataclass(frozen=True)
class FileKind:
    ext: str  # ".csv" or ".xlsx"
    encoding: str = ""  # a CSV's
    delimiter: str = ","


def identify(data: bytes, name: str) -> FileKind:
    """What the uploaded bytes are (by their content, not their name), or FileProblem."""
    if not data:
        raise FileProblem("The file is empty.")
    if len(data) > MAX_BYTES:
        raise FileProblem(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB: split it in parts.")
    if data.startswith(XLSX_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = set(z.namelist())
        except zipfile.BadZipFile:
            raise FileProblem("The file looks like a spreadsheet but cannot be opened.") from None
        if "xl/workbook.xml" not in names:
            raise FileProblem("Only CSV and Excel workbooks (.xlsx) are read; this zip file is neither.")
        return FileKind(".xlsx")
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise FileProblem("This is an old Excel file (.xls): save it as .xlsx or as CSV, then send it again.")
    head = data[:65536]
    if b"\x00" in head:
        raise FileProblem("Only CSV and Excel workbooks (.xlsx) are read; this file is neither.")
    encoding = "utf-8-sig"
    try:
        # a multi-byte character may be cut at the end of the sample
        codecs.getincrementaldecoder("utf-8-sig")().decode(head, final=False)
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        encoding = "cp1252"
        try:
            data.decode(encoding)
        except UnicodeDecodeError:
            raise FileProblem(
                "The file's text is neither UTF-8 nor Windows-1252: save it as UTF-8 CSV."
            ) from None
    text = head.decode(encoding, errors="replace")
    first = text.splitlines()[0] if text.strip() else ""
    delimiter = max((",", ";", "\t"), key=first.count)
    return FileKind(".csv", encoding, delimiter)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def rows(stream, kind: FileKind) -> Iterator[list[str]]:
    """Every row of the file, the heading first, as lists of text (empty rows left out)."""
    if kind.ext == ".xlsx":
        from openpyxl import load_workbook

        try:
            book = load_workbook(stream, read_only=True, data_only=True)
        except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds for a broken workbook
            raise FileProblem(f"The workbook cannot be read ({type(exc).__name__}).") from None
        try:
            sheet = book.worksheets[0]
            for values in sheet.iter_rows(values_only=True):
                cells = [_cell(v) for v in values]
                while cells and not cells[-1]:
                    cells.pop()
                if cells:
                    yield _bounded(cells)
        finally:
            book.close()
        return
    text = io.TextIOWrapper(stream, encoding=kind.encoding, newline="")
    try:
        for cells in csv.reader(text, delimiter=kind.delimiter):
            cells = [c.strip() for c in cells]
            if any(cells):
                yield _bounded(cells)
    except csv.Error as exc:
        raise FileProblem(f"The CSV cannot be read: {exc}.") from None
    finally:
        text.detach()


def _bounded(cells: list[str]) -> list[str]:
    if len(cells) > MAX_COLUMNS:
        raise FileProblem(f"A row has more than {MAX_COLUMNS} columns: this is not a table of records.")
    for cell in cells:
        if len(cell) > MAX_CELL:
            raise FileProblem(
                f"A cell holds more than {MAX_CELL} characters: this is not a table of records."
            )
    return cells


def heading(stream, kind: FileKind) -> list[str]:
    """The file's column names (its first row), each once: a repeated name is numbered ("Phone (2)")."""
    first = next(rows(stream, kind), None)
    if not first:
        raise FileProblem("The file has no rows.")
    seen: dict[str, int] = {}
    out = []
    for index, name in enumerate(first, start=1):
        name = name or f"Column {index}"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out

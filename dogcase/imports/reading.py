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
MAX_LINE = MAX_COLUMNS * (MAX_CELL + 3)  # bytes of one line of a CSV
MAX_ROWS = 1_000_000  # a city's records; more is a file split in parts
MAX_EMPTY_RUN = (
    10_000  # empty rows in a row of a workbook: a sheet that claims a million rows it does not have
)
MAX_UNZIPPED = 200 * 1024 * 1024  # bytes of a workbook once unzipped
MAX_RATIO = 200  # a workbook's part unzips to at most this many times its size (a zip bomb is thousands)
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
                parts = z.infolist()
        except zipfile.BadZipFile:
            raise FileProblem("The file looks like a spreadsheet but cannot be opened.") from None
        if "xl/workbook.xml" not in {p.filename for p in parts}:
            raise FileProblem("Only CSV and Excel workbooks (.xlsx) are read; this zip file is neither.")
        unzipped = sum(p.file_size for p in parts)
        if unzipped > MAX_UNZIPPED or any(
            p.file_size > MAX_RATIO * max(p.compress_size, 1024) for p in parts
        ):
            raise FileProblem(
                "The workbook unzips to far more than it holds: save it as CSV, then send it again."
            )
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
    start = 0
    while start < len(data):  # one line of a million commas would be read whole before anything is checked
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end - start > MAX_LINE:
            raise FileProblem("A line of the file is longer than any table of records: this is not one.")
        start = end + 1
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


def rows(stream, kind: FileKind) -> Iterator[tuple[int, list[str]]]:
    """Every row of the file with its number as a spreadsheet shows it (the heading is row 1; empty rows are
    left out but counted), as lists of text."""
    if kind.ext == ".xlsx":
        from openpyxl import load_workbook

        try:
            book = load_workbook(stream, read_only=True, data_only=True)
        except Exception:  # noqa: BLE001 - openpyxl raises many kinds for a broken workbook
            raise FileProblem(
                "The workbook cannot be read: open it in a spreadsheet and save it again."
            ) from None
        try:
            sheet = book.worksheets[0]
            sheet.reset_dimensions()  # the rows it has, not the size it claims
            empty = 0
            for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
                cells = [_cell(v) for v in values]
                while cells and not cells[-1]:
                    cells.pop()
                if not cells:
                    empty += 1
                    if empty > MAX_EMPTY_RUN:
                        raise FileProblem(
                            f"The sheet has more than {MAX_EMPTY_RUN:,} empty rows in a row after row "
                            f"{number - empty}: delete them, or save the sheet as CSV."
                        )
                    continue
                empty = 0
                yield number, _bounded(cells, number)
        finally:
            book.close()
        return
    text = io.TextIOWrapper(stream, encoding=kind.encoding, newline="")
    number = 0
    try:
        for number, cells in enumerate(csv.reader(text, delimiter=kind.delimiter), start=1):
            cells = list(map(str.strip, cells))
            if any(cells):
                yield number, _bounded(cells, number)
    except csv.Error as exc:
        raise FileProblem(
            f"Row {number + 1} of the CSV cannot be read ({CSV_WORDS.get(str(exc), str(exc))})."
        ) from None
    finally:
        text.detach()


CSV_WORDS = {
    "line contains NUL": "it holds a character that is not text",
    "new-line character seen in unquoted field - do you need to open the file with newline=''?": "a line break "
    "inside a cell that is not in quotes",
}


def _bounded(cells: list[str], number: int) -> list[str]:
    if number > MAX_ROWS + 1:
        raise FileProblem(f"The file has more than {MAX_ROWS:,} rows: split it in parts.")
    if len(cells) > MAX_COLUMNS:
        raise FileProblem(
            f"Row {number} has more than {MAX_COLUMNS} columns: this is not a table of records."
        )
    if cells and max(map(len, cells)) <= MAX_CELL:  # (most rows: no cell looked at one by one)
        return cells
    for index, cell in enumerate(cells, start=1):
        if len(cell) > MAX_CELL:
            raise FileProblem(
                f"Row {number}, column {index} holds more than {MAX_CELL:,} characters: this is not a table "
                "of records."
            )
    return cells


def heading(stream, kind: FileKind) -> list[str]:
    """The file's column names (its first row), each once: a repeated name is numbered ("Phone (2)")."""
    _number, first = next(rows(stream, kind), (0, None))
    if not first:
        raise FileProblem("The file has no rows.")
    seen: dict[str, int] = {}
    out = []
    for index, name in enumerate(first, start=1):
        name = name or f"Column {index}"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out

"""A list written out: CSV a line at a time (UTF-8 with a byte order mark, so that Excel reads the accents), or
XLSX through openpyxl's write-only workbook into a temporary file. Memory stays flat in both.

A text cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is
written with a single quote before it (CSV injection, OWASP): a name typed as `=HYPERLINK(...)` stays text."""

from __future__ import annotations

import csv
import io
import tempfile
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import IO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from dogcase.exports.lists import Cell

BOM = "\ufeff"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_text(value: str) -> str:
    """Text a spreadsheet will show as text, never run."""
    return "'" + value if value.startswith(FORMULA_START) else value


def csv_text(value: Cell) -> str:
    """One cell as CSV text: amounts with two decimals, numbers as digits, text made safe."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, int):
        return str(value)
    return safe_text(str(value))


class _Line:
    """A file-like that hands back what csv.writer writes, one line at a time."""

    def write(self, value: str) -> str:
        return value


def csv_lines(headers: list[str], rows: Iterable[list[Cell]]) -> Iterator[str]:
    """The CSV, a line at a time, the byte order mark first."""
    writer = csv.writer(_Line())
    yield BOM + writer.writerow([safe_text(h) for h in headers])
    for row in rows:
        yield writer.writerow([csv_text(v) for v in row])


def write_csv(out: IO[str], headers: list[str], rows: Iterable[list[Cell]]) -> int:
    """The CSV into a text stream (the archive's); the number of rows written."""
    n = -1
    for n, line in enumerate(csv_lines(headers, rows)):  # noqa: B007 - the last index is the count
        out.write(line)
    return max(n, 0)


def _xlsx_cell(sheet, value: Cell):
    if value is None:
        return None
    if isinstance(value, Decimal):
        cell = WriteOnlyCell(sheet, value=value)
        cell.number_format = "0.00"
        return cell
    if isinstance(value, int):
        return value
    text = ILLEGAL_CHARACTERS_RE.sub("", safe_text(str(value)))
    cell = WriteOnlyCell(sheet, value=text)
    cell.data_type = "s"  # text, whatever it looks like: never a formula
    return cell


def xlsx_file(title: str, headers: list[str], rows: Iterable[list[Cell]]) -> IO[bytes]:
    """The workbook in a temporary file (removed when closed), positioned at its start."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=title[:31])
    sheet.append([_xlsx_cell(sheet, h) for h in headers])
    for row in rows:
        sheet.append([_xlsx_cell(sheet, v) for v in row])
    out = tempfile.TemporaryFile()  # noqa: SIM115 - the response closes it
    book.save(out)
    out.seek(0)
    return out


def text_stream(binary: IO[bytes]) -> io.TextIOWrapper:
    """A UTF-8 text stream over a binary one, with Excel's line ends (csv's default)."""
    return io.TextIOWrapper(binary, encoding="utf-8", newline="")

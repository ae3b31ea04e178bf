"""Reading an export back: the CSV's rows (byte order mark checked), the XLSX's rows, one column."""

import csv
import io

from openpyxl import load_workbook

from tests.staff.conftest import client_for

BOM = "\ufeff"


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def csv_table(response) -> list[list[str]]:
    """The CSV download as rows, the header first (the byte order mark checked and dropped)."""
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/csv")
    text = body(response).decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[1:])))


def xlsx_table(response) -> list[list]:
    assert response.status_code == 200, response.status_code
    book = load_workbook(io.BytesIO(body(response)), read_only=True)
    return [list(r) for r in book.worksheets[0].iter_rows(values_only=True)]


def export(user, kind: str, fmt: str = "csv", **filters):
    return client_for(user).get(f"/export/{kind}.{fmt}", filters)


def column(table: list[list[str]], header: str) -> list[str]:
    i = table[0].index(header)
    return [r[i] for r in table[1:]]

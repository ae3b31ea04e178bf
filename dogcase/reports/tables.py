"""A report's tables as CSV, and the annual report as a printable PDF."""

from __future__ import annotations

import csv
import io

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from .charts import bar_chart
from .figures import Report, Table

# A cell a spreadsheet would read as a formula is written as text (a leading apostrophe).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value) -> str:
    text = "" if value is None else str(value)
    if isinstance(value, str) and text.startswith(FORMULA_START):
        return "'" + text
    return text


def table_csv(report: Report, table: Table) -> str:
    """The table as CSV: a line saying what it counts and over which period, the header, the rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [_cell(f"{report.city_name}: {table.title}"), f"{report.start:%Y-%m-%d} to {report.end:%Y-%m-%d}"]
    )
    writer.writerow([_cell(table.counts)])
    writer.writerow([_cell(c) for c in table.columns])
    for row in table.rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def charted(report: Report) -> list[dict]:
    """Each table with its chart (None for a table drawn as a table only), for a page or the PDF."""
    return [{"table": t, "chart": mark_safe(bar_chart(t)) if t.series else None} for t in report.tables]  # noqa: S308 — bar_chart escapes every label


class RefusedFetch(ValueError):
    pass


def _refuse(url: str, *args, **kwargs):  # noqa: ARG001
    raise RefusedFetch(f"the annual report fetches nothing (asked for {url[:80]!r})")


def annual_html(report: Report, *, made_on) -> str:
    return render_to_string(
        "reports/annual.html", {"report": report, "figures": charted(report), "made_on": made_on}
    )


def annual_pdf(report: Report, *, made_on) -> bytes:
    """The annual report a council asks for: every chart with its table and what it counts, as a PDF made by
    WeasyPrint from HTML, nothing fetched."""
    from weasyprint import HTML

    return HTML(string=annual_html(report, made_on=made_on), url_fetcher=_refuse).write_pdf()

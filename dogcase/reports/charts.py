"""Charts drawn on the server as inline SVG: horizontal bars, stacked when a figure has several columns.

No script, no fonts or images fetched: the same markup prints, goes into the annual PDF, and shrinks to a
390-pixel phone (the SVG scales to the width it is given; each row's label sits above its bar, so a long
label never squeezes the bar). Every label is escaped.
"""

from __future__ import annotations

from django.utils.html import escape

from .figures import Table

WIDTH = 640
ROW = 46  # a label line and a bar
BAR = 18
TOP = 34  # the title
LEGEND = 22
LABEL_CHARS = 86  # a label longer than this is cut, with its full text in the bar's own <title>
# Fills that stay apart in greyscale print (light to dark), with a pattern-free legend beside them.
FILLS = ("#2b6cb0", "#9bc1e6", "#c05621", "#718096")


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def _cut(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1].rstrip() + "…"


def bar_chart(table: Table) -> str:
    """The table as an SVG chart: one row (`<g class="row">`) per table row, its label above its bar (or its
    stacked bars, one per column in `table.series`, with a legend), the numbers written beside them."""
    rows = table.chart_rows()
    stacked = len(table.series) > 1
    top = TOP + (LEGEND if stacked else 0)
    height = top + ROW * max(len(rows), 1) + 8
    largest = max((sum(values) for _label, values in rows), default=0) or 1
    span = WIDTH - 80  # room for the total after the longest bar
    title_id = f"chart-{escape(table.id)}-title"
    summary = "; ".join(
        f"{label}: " + ", ".join(f"{name} {_number(v)}" for name, v in zip(table.series, values, strict=True))
        for label, values in rows
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" preserveAspectRatio="xMinYMin meet" aria-label="{escape(table.title)}" '
        f'data-table="{escape(table.id)}">',
        f'<title id="{title_id}">{escape(table.title)}</title>',
        f"<desc>{escape(table.counts)} {escape(summary or 'Nothing to count in the period.')}</desc>",
        f'<text x="0" y="20" font-size="17" font-weight="bold" fill="#1a202c">{escape(table.title)}</text>',
    ]
    if stacked:
        x = 0
        for i, name in enumerate(table.series):
            out.append(
                f'<rect x="{x}" y="{TOP - 4}" width="12" height="12" fill="{FILLS[i % len(FILLS)]}"/>'
                f'<text x="{x + 16}" y="{TOP + 6}" font-size="12" fill="#1a202c">{escape(name)}</text>'
            )
            x += 24 + 7 * len(name)
    if not rows:
        out.append(
            f'<text x="0" y="{top + 20}" font-size="14" fill="#4a5568">Nothing to count in the period.</text>'
        )
    for n, (label, values) in enumerate(rows):
        y = top + n * ROW
        total = sum(values)
        out.append(f'<g class="row" data-label="{escape(label)}">')
        out.append(f"<title>{escape(label)}: {escape(_number(total))} {escape(table.unit)}</title>")
        out.append(
            f'<text class="label" x="0" y="{y + 14}" font-size="13" fill="#1a202c">{escape(_cut(label))}</text>'
        )
        x = 0.0
        for i, value in enumerate(values):
            if value <= 0:
                continue
            w = max(value / largest * span, 2)
            out.append(
                f'<rect class="bar" x="{x:.1f}" y="{y + 20}" width="{w:.1f}" height="{BAR}" '
                f'fill="{FILLS[i % len(FILLS)]}"/>'
            )
            x += w
        out.append(
            f'<text class="value" x="{x + 6:.1f}" y="{y + 34}" font-size="13" fill="#1a202c">'
            f"{escape(_number(total))}</text>"
        )
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)

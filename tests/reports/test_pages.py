"""The report pages: the chooser, the page with each chart and its table, the CSV of each table, the annual
PDF; bad dates answered on the page; a city the user does not work for refused."""

from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
import subprocess  # noqa: S404 — pdftotext on a file of our own
import xml.etree.ElementTree as ET  # noqa: S405 — parsing our own SVG

import pytest
from django.test import Client
from django.utils import timezone

from dogcase.reports.charts import bar_chart
from dogcase.reports.figures import TABLE_IDS, Table

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
PERIOD = {"from": "2021-01-01", "to": "2030-12-31"}


def test_the_chooser_offers_the_users_cities_and_the_last_year_and_the_year_to_date(make_staff_user):
    client = Client()
    client.force_login(make_staff_user("city_clerk", cities=["tracy-mn"]))

    html = client.get("/reports/").content.decode()

    assert "Tracy" in html and "Battle Lake" not in html
    assert "Last full year" in html and "This year to date" in html
    assert "/reports/tracy-mn/annual-" in html


def test_a_city_the_user_does_not_work_for_is_refused(make_staff_user):
    client = Client()
    client.force_login(make_staff_user("city_clerk", cities=["tracy-mn"]))

    assert client.get("/reports/battle-lake-mn/", PERIOD).status_code == 403
    assert client.get("/reports/battle-lake-mn/cases.csv", PERIOD).status_code == 403
    assert client.get("/reports/battle-lake-mn/annual-2025.pdf").status_code == 403
    assert client.get("/reports/tracy-mn/", PERIOD).status_code == 200


def test_reports_need_a_staff_login(client):
    assert client.get("/reports/battle-lake-mn/", PERIOD).status_code == 302


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (
            {"from": "2026-13-01", "to": "2026-12-31"},
            "The “From” date must be a real date written YYYY-MM-DD",
        ),
        ({"from": "2026-01-01", "to": "yesterday"}, "The “To” date must be a real date written YYYY-MM-DD"),
        ({"from": "2026-12-31", "to": "2026-01-01"}, "The “From” date must be on or before the “To” date"),
    ],
)
def test_a_bad_date_is_answered_on_the_page_with_the_field_and_the_rule(clerk_client, query, words):
    response = clerk_client.get("/reports/battle-lake-mn/", query)

    assert response.status_code == 400
    html = response.content.decode()
    assert words in html
    assert 'role="alert"' in html and 'aria-invalid="true"' in html
    assert clerk_client.get("/reports/battle-lake-mn/cases.csv", query).status_code == 400


def test_an_unknown_table_or_year_is_not_found(clerk_client):
    assert clerk_client.get("/reports/battle-lake-mn/nothing.csv", PERIOD).status_code == 404
    assert clerk_client.get("/reports/battle-lake-mn/annual-2999.pdf").status_code == 404


def test_each_chart_has_one_bar_per_row_with_its_label_and_each_csv_matches_its_table(demo, demo_clerk):
    response = demo_clerk.get("/reports/battle-lake-mn/", PERIOD)
    assert response.status_code == 200
    html = response.content.decode()
    charted = 0
    for item in response.context["figures"]:
        table = item["table"]
        assert f'href="/reports/battle-lake-mn/{table.id}.csv?from=2021-01-01&amp;to=2030-12-31"' in html
        if item["chart"] is not None:
            svg = ET.fromstring(str(item["chart"]))  # noqa: S314 — our own markup
            assert svg.get("role") == "img" and svg.get("aria-label") == table.title
            assert svg.find(f"{SVG}title").text == table.title
            groups = svg.findall(f"{SVG}g")
            assert [g.get("data-label") for g in groups] == [str(r[0]) for r in table.rows]
            for group, row in zip(groups, table.rows, strict=True):
                assert group.find(f"{SVG}text").text in (str(row[0]), str(row[0])[:85] + "…")
            charted += 1
        lines = list(
            csv.reader(
                io.StringIO(
                    demo_clerk.get(f"/reports/battle-lake-mn/{table.id}.csv", PERIOD).content.decode()
                )
            )
        )
        assert lines[0][1] == "2021-01-01 to 2030-12-31"
        assert lines[1] == [table.counts]
        assert lines[2] == list(table.columns)
        assert lines[3:] == [[str(v) for v in row] for row in table.rows]
    assert charted >= 6
    assert {item["table"].id for item in response.context["figures"]} == set(TABLE_IDS)


def test_every_label_is_escaped_in_the_chart_and_a_formula_is_text_in_the_csv():
    from dogcase.reports.figures import Report
    from dogcase.reports.tables import table_csv

    evil = '<script>alert("x")</script> & =SUM(A1)'
    table = Table(
        id="t", title=evil, counts="c", columns=("Label", "N"), rows=((evil, 2), ("=1+1", 1)), series=("N",)
    )
    svg = bar_chart(table)

    assert "<script>" not in svg
    root = ET.fromstring(svg)  # noqa: S314
    assert [g.get("data-label") for g in root.findall(f"{SVG}g")] == [evil, "=1+1"]
    report = Report(
        city="x",
        city_name="X",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 1, 2),
        tables=(table,),
    )
    lines = list(csv.reader(io.StringIO(table_csv(report, table))))
    assert lines[4] == ["'=1+1", "1"]


def test_the_annual_report_is_a_pdf_with_every_heading(demo, demo_clerk):
    year = timezone.localdate().year
    response = demo_clerk.get(f"/reports/battle-lake-mn/annual-{year}.pdf")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    data = response.content
    assert data.startswith(b"%PDF")
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext is not installed")
    text = subprocess.run(  # noqa: S603
        [pdftotext, "-layout", "-", "-"],
        input=data,
        capture_output=True,
        check=True,  # noqa: S607
    ).stdout.decode()
    assert f"Dangerous dogs: annual report {year}" in text
    assert "Battle Lake" in text
    for heading in (
        "Cases opened, by designation",
        "Deadlines met on time and late, by who must act",
        "Each deadline, with the law that sets it",
        "How long it took (median days)",
        "Hearing decisions, by outcome",
        "Seizures and what became of the dogs",
        "Money",
    ):
        assert heading in text
    assert "§ 90.15" in text  # a deadline's citation

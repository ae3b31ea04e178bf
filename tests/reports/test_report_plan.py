"""A period's report can count the city's obligations from their index alone on PostgreSQL (cases 0024: the
index carries every column the report's grouping reads), not from a heap page for nearly every obligation (on
a statewide copy, 76,244 obligations of a year: 300 -> 115 ms). Whether the planner reads the index alone also
depends on how much of the table VACUUM has marked visible, which a test cannot hold steady; what the code
decides is checked here: the index leads with the columns the statement bounds, and holds every column of the
obligations the statement reads.
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases.bulk import insert_rows
from dogcase.cases.models import Obligation
from dogcase.reports import figures
from tests.cases.conftest import SERIOUS, Story

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's covering index"),
]

OBLIGATIONS = 4_000  # half in the city reported on, over two years; half in another city
STATUSES = ("met", "overdue", "lapsed", "open", "withdrawn")


def add_obligations(case, start: dt.date) -> None:
    columns = ["case_id", "jurisdiction", "deadline_id", "who", "kind", "what", "status", "due_date", "late",
               "met_by", "staff_roles", "detail", "updated_at"]  # fmt: skip
    now = timezone.now()
    rows = [
        [
            case.pk,
            "battle-lake-mn" if i % 2 == 0 else "tracy-mn",
            f"plan.deadline:{i}",
            "owner" if i % 3 == 0 else "city",
            "due",
            "Do it",
            STATUSES[i % len(STATUSES)],
            start + dt.timedelta(days=i % 730),
            i % 7 == 0,
            "",
            ",city_clerk,",
            "{}",
            now,
        ]
        for i in range(OBLIGATIONS)
    ]
    insert_rows(Obligation, columns, rows)


def index_columns(name: str) -> list[str]:
    """The columns of an index, its keys first, then those it includes."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.attname FROM pg_index i, unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) "
            "JOIN pg_attribute a ON a.attnum = k.attnum WHERE i.indexrelid = %s::regclass "
            "AND a.attrelid = i.indrelid ORDER BY k.n",
            [name],
        )
        return [column for (column,) in cursor.fetchall()]


def test_the_index_of_the_report_s_obligations_holds_every_column_its_grouping_reads(staff):
    s = Story(staff, "battle-lake-mn", SERIOUS)
    start = dt.date(2025, 1, 1)
    add_obligations(s.case, start)
    end = start + dt.timedelta(days=364)
    with CaptureQueriesContext(connection) as captured:
        report = figures.report("battle-lake-mn", start, end)
    # the figures count what the rows hold: the year's met, overdue and lapsed obligations of the city
    counted = sum(sum(row[report.table("deadlines").labels :]) for row in report.table("deadlines").rows)
    assert (
        counted
        == Obligation.objects.filter(
            jurisdiction="battle-lake-mn",
            due_date__range=(start, end),
            status__in=("met", "overdue", "lapsed"),
        ).count()
        > 500
    )
    (grouping,) = [
        q["sql"]
        for q in captured.captured_queries
        if 'FROM "cases_obligation"' in q["sql"] and "GROUP BY" in q["sql"]
    ]
    read = set(re.findall(r'"cases_obligation"\."(\w+)"', grouping))
    assert {"jurisdiction", "due_date", "status", "who", "staff_roles", "deadline_id", "late"} <= read
    columns = index_columns("obligation_city_due")
    assert columns[:2] == ["jurisdiction", "due_date"]  # what the statement bounds, in the index's order
    assert read <= set(columns), sorted(read - set(columns))

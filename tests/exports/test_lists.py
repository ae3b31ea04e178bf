"""Every list taken out as CSV and XLSX (issue 23, "Export"): the user's cities only, the filters of the list on
screen, words as the staff pages show them, formulas neutralised, and a number of queries that does not grow
with the rows."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dogcase.cases.models import Case, Obligation
from dogcase.documents.models import IssuedDocument
from dogcase.exports.lists import KINDS
from dogcase.law import library
from dogcase.money import payments
from dogcase.money.models import Entry
from dogcase.staff import queries
from dogcase.staff.actwords import stage_words as staff_stage_words
from dogcase.staff.present import STATUS_WORDS
from tests.documents.conftest import at, on
from tests.exports.helpers import body, column, csv_table, export, xlsx_table
from tests.money.test_money import seized
from tests.staff.conftest import BATTLE_LAKE, TRACY, client_for, declare, record_bite, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_cities(officer):
    """A bite in each city, the Battle Lake dog declared potentially dangerous (its obligations start)."""
    bl = record_bite(officer, city=BATTLE_LAKE, dog_name="Biscuit", owner_name="Bea Lakeside")
    tr = record_bite(officer, city=TRACY, dog_name="Tango", owner_name="Tom Tracy")
    declare(bl, officer)
    served = timezone.localdate().isoformat()
    take(bl, "serve_notice", officer, served_on=served, method="personal", served_owner="Bea Lakeside")
    bl.refresh_from_db()
    return bl, tr


# ------------------------------------------------------------------------------------------- cities only


@pytest.mark.parametrize(
    ("kind", "header", "mine", "theirs"),
    [
        ("cases", "Dog", "Biscuit", "Tango"),
        ("dogs", "Dog", "Biscuit", "Tango"),
        ("people", "Name", "Bea Lakeside", "Tom Tracy"),
        ("incidents", "Dogs", "Biscuit", "Tango"),
    ],
)
def test_a_list_holds_only_the_rows_of_the_users_cities(
    two_cities, bl_clerk, officer, kind, header, mine, theirs
):
    own = column(csv_table(export(bl_clerk, kind)), header)
    assert mine in own and theirs not in own
    both = column(csv_table(export(officer, kind)), header)
    assert {mine, theirs} <= set(both)


@pytest.mark.parametrize(("kind", "header"), [("dogs", "Dog"), ("people", "Name"), ("incidents", "Dogs")])
def test_the_city_filter_keeps_one_city_of_the_users(two_cities, officer, kind, header):
    tracy = column(csv_table(export(officer, kind, city=TRACY)), header)
    assert tracy and all("Tango" in v or "Tom Tracy" in v for v in tracy)
    assert len(csv_table(export(officer, kind, city="nowhere-mn"))) > len(tracy) + 1  # not a city: ignored


def test_the_cases_list_has_the_columns_and_words_of_the_case_list(two_cities, bl_clerk, officer):
    bl, _ = two_cities
    table = csv_table(export(bl_clerk, "cases"))
    assert table[0] == [c.header for c in KINDS["cases"].columns]
    assert table[0][:3] == ["Case number", "City", "Dog"]
    (row,) = table[1:]
    got = dict(zip(table[0], row, strict=True))
    label = library().get(BATTLE_LAKE).designations["potentially_dangerous"].label
    assert got["Case number"] == bl.number
    assert got["Designation"] == label != "potentially_dangerous"
    assert (
        got["Designation (id in the law pack)"] == "potentially_dangerous"
    )  # the engine's id, labelled, last
    assert table[0][-1] == "Designation (id in the law pack)"
    assert got["Status"] == "Open" and got["City"] == "Battle Lake"
    assert got["Where it stands"] == staff_stage_words(bl.stage)
    undecided = column(csv_table(export(officer, "cases", city=TRACY)), "Where it stands")
    assert undecided == ["Incident recorded, not yet decided"]
    assert got["Opened on"] == timezone.localdate(bl.opened_at).isoformat()
    assert got["Owners"] == "Bea Lakeside"


def test_obligations_are_taken_out_with_their_due_dates_and_status_in_words(two_cities, bl_clerk):
    bl, _ = two_cities
    table = csv_table(export(bl_clerk, "obligations"))
    expected = Obligation.objects.filter(case=bl)
    assert len(table) - 1 == expected.count() > 0
    assert set(column(table, "Case number")) == {bl.number}
    ob = expected.exclude(due_date=None).first()
    row = next(r for r in table[1:] if r[-1] == ob.deadline_id)
    got = dict(zip(table[0], row, strict=True))
    assert got["Due date"] == ob.due_date.isoformat()
    assert got["Status"] == STATUS_WORDS[ob.status]
    assert got["Whose"] == ob.get_who_display()


# ------------------------------------------------------------------------------------------- the filters


def test_the_case_filters_narrow_the_rows_exactly_as_the_case_list(officer):
    open_bl = record_bite(officer, city=BATTLE_LAKE)
    declared = record_bite(officer, city=BATTLE_LAKE)
    declare(declared, officer, designation="dangerous")
    record_bite(officer, city=TRACY)
    Case.objects.filter(pk=open_bl.pk).update(status=Case.Status.CLOSED)
    combos = [
        {},
        {"status": "open"},
        {"status": "closed"},
        {"designation": "dangerous"},
        {"designation": "none"},
        {"city": TRACY},
        {"city": BATTLE_LAKE, "designation": "none", "status": "closed"},
        {"status": "nonsense", "city": "nowhere"},  # ignored, as the list ignores them
    ]
    sizes = set()
    for filters in combos:
        on_screen = [c.number for c in queries.cases(officer, **_valid(filters))]
        taken = column(csv_table(export(officer, "cases", **filters)), "Case number")
        assert taken == on_screen, filters
        sizes.add(len(taken))
    assert len(sizes) > 1  # the filters did narrow


def _valid(filters: dict) -> dict:
    """The filters as the case list keeps them (a value outside the choices is dropped)."""
    out = {}
    if filters.get("status") in Case.Status.values:
        out["status"] = filters["status"]
    if filters.get("designation") in ("none", "dangerous", "potentially_dangerous"):
        out["designation"] = filters["designation"]
    if filters.get("city") in (BATTLE_LAKE, TRACY):
        out["city"] = filters["city"]
    return {k: out.get(k, "") for k in ("status", "designation", "city")}


def test_the_obligation_filters_select_by_status_whose_and_city(two_cities, officer):
    bl, _ = two_cities
    every = csv_table(export(officer, "obligations"))
    for filters, expected in [
        ({"who": "owner"}, Obligation.objects.filter(who="owner")),
        ({"who": "city"}, Obligation.objects.filter(who="city")),
        ({"status": "open"}, Obligation.objects.filter(status="open")),
        ({"city": TRACY}, Obligation.objects.filter(jurisdiction=TRACY)),
    ]:
        table = csv_table(export(officer, "obligations", **filters))
        assert sorted(column(table, "Deadline (id in the law pack)")) == sorted(
            expected.values_list("deadline_id", flat=True)
        ), filters
        assert len(table) < len(every) or expected.count() == Obligation.objects.count()
    owners = csv_table(export(officer, "obligations", who="owner"))
    assert set(column(owners, "Whose")) == {"Owner"}


def test_documents_are_listed_with_their_hash_by_city_and_period(make_case, staff, bl_clerk):
    bl = make_case(city=BATTLE_LAKE)
    bl.declare(day=1)
    bl.serve(day=1)
    tr = make_case(city=TRACY)
    tr.step("classify", "police", 0, designation="vicious", reasonable_cause="Unprovoked bite")
    tr.step("notify_classification", "police", 1, sent_on=on(1), certified_mail=True)
    table = csv_table(export(bl_clerk, "documents"))
    docs = IssuedDocument.objects.filter(jurisdiction=BATTLE_LAKE)
    assert docs.exists()
    assert sorted(column(table, "Document number")) == sorted(docs.values_list("number", flat=True))
    assert sorted(column(table, "SHA-256")) == sorted(docs.values_list("sha256", flat=True))
    assert IssuedDocument.objects.filter(jurisdiction=TRACY).exists()
    assert not IssuedDocument.objects.filter(jurisdiction=TRACY, number__in=column(table, "Document number"))
    day = at(1).date()
    assert len(csv_table(export(bl_clerk, "documents", **{"from": day.isoformat()}))) == len(table)
    after = (day + dt.timedelta(days=1)).isoformat()
    assert len(csv_table(export(bl_clerk, "documents", **{"from": after}))) == 1  # the header alone


def test_payments_are_amounts_in_dollars_and_cents_by_city_and_period(
    make_case, staff, make_staff_user, bl_clerk
):
    c = seized(make_case, staff, day=2)
    payments.record_payment(
        c.case, amount="40.00", method="cash", paid_by="Olive Ostrander", actor=staff["clerk"], at=at(3)
    )
    payments.record_payment(
        c.case,
        amount="57.50",
        method="check",
        reference="1042",
        paid_by="Olive Ostrander",
        actor=staff["clerk"],
        at=at(5),
    )
    tracy_clerk = make_staff_user("city_clerk", username="tr-clerk", cities=(TRACY,))
    table = csv_table(export(tracy_clerk, "payments"))
    assert column(table, "Amount") == ["40.00", "57.50"]
    assert column(table, "Effect on the balance") == [
        "-40.00",
        "-57.50",
    ]  # a number, never quoted as a formula
    assert column(table, "Kind") == ["Payment", "Payment"]
    assert column(table, "How paid") == ["Cash", "Check"]
    receipts = Entry.objects.order_by("on").values_list("receipt__number", flat=True)
    assert column(table, "Receipt number") == list(receipts)
    assert len(csv_table(export(bl_clerk, "payments"))) == 1  # Battle Lake has none
    period = {"from": at(4).date().isoformat(), "to": at(6).date().isoformat()}
    assert column(csv_table(export(tracy_clerk, "payments", **period)), "Amount") == ["57.50"]
    assert (
        len(csv_table(export(tracy_clerk, "payments", **{"from": "next week"}))) == 3
    )  # not a date: ignored
    # the same rows in the workbook, the amounts as numbers
    sheet = xlsx_table(export(tracy_clerk, "payments", "xlsx"))
    assert sheet[0] == table[0]
    amounts = [r[table[0].index("Amount")] for r in sheet[1:]]
    assert [Decimal(str(a)).quantize(Decimal("0.01")) for a in amounts] == [
        Decimal("40.00"),
        Decimal("57.50"),
    ]
    charges = csv_table(export(tracy_clerk, "charges"))
    assert "75.00" in column(charges, "Amount")


# ------------------------------------------------------------------------------------------- XLSX = CSV


def _as_csv_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


@pytest.mark.parametrize("kind", ["cases", "dogs", "people", "incidents", "obligations"])
def test_the_workbook_opens_and_holds_the_same_rows_as_the_csv(two_cities, officer, kind):
    table = csv_table(export(officer, kind))
    response = export(officer, kind, "xlsx")
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"].startswith(f'attachment; filename="dogcase-{kind}-')
    sheet = xlsx_table(response)
    assert len(sheet) == len(table) > 1
    assert [[_as_csv_text(v) for v in row] for row in sheet] == table


# ------------------------------------------------------------------------------------------- injection


def test_a_cell_that_would_run_as_a_formula_is_kept_as_text(officer):
    record_bite(officer, city=BATTLE_LAKE, dog_name="@SUM(A1:A9)", owner_name='=HYPERLINK("http://evil","x")')
    people = csv_table(export(officer, "people"))
    assert '\'=HYPERLINK("http://evil","x")' in column(people, "Name")
    assert not any(v.startswith(("=", "@", "+", "-")) for r in people for v in r)
    dogs = csv_table(export(officer, "dogs"))
    assert "'@SUM(A1:A9)" in column(dogs, "Dog")
    sheet = xlsx_table(export(officer, "people", "xlsx"))
    names = [r[0] for r in sheet[1:]]
    assert '\'=HYPERLINK("http://evil","x")' in names
    assert not any(isinstance(v, str) and v.startswith("=") for r in sheet for v in r)


# ------------------------------------------------------------------------------------------- query count


def _queries(user, kind: str) -> int:
    client = client_for(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/export/{kind}.csv")
        body(response)
    return len(captured)


@pytest.mark.parametrize("kind", ["cases", "dogs", "people", "incidents", "obligations"])
def test_the_number_of_queries_does_not_grow_with_the_rows(officer, kind):
    def add(n):
        for _ in range(n):
            case = record_bite(officer, city=BATTLE_LAKE)
            declare(case, officer)

    add(2)
    few = _queries(officer, kind)
    add(4)
    assert len(csv_table(export(officer, kind))) > 6
    assert _queries(officer, kind) == few


def test_the_money_and_documents_lists_read_in_a_fixed_number_of_queries(make_case, staff):
    c = seized(make_case, staff, day=2)
    clerk = staff["clerk"]

    def pay(day):
        payments.record_payment(
            c.case, amount="1.00", method="cash", paid_by="O. O.", actor=clerk, at=at(day)
        )

    pay(3)
    counts = {k: _queries(clerk, k) for k in ("payments", "documents", "charges")}
    for day in (4, 5, 6):
        pay(day)
    assert Entry.objects.count() == 4 and IssuedDocument.objects.count() >= 4
    assert {k: _queries(clerk, k) for k in counts} == counts

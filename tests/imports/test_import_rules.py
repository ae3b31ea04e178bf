"""The rules of an import: a file with one bad row brings in nothing and says which row and column; a workbook
reads as its CSV does; what is not a table is refused on the file field; only the city's record keepers may
bring records in, in their own city; a check writes nothing."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import PermissionDenied
from openpyxl import Workbook

from dogcase.cases.acts import InvalidInput
from dogcase.cases.models import Dog, Event, Person
from dogcase.imports import fields
from dogcase.imports.models import ImportedRecord, ImportRun
from tests.imports.conftest import CITY, checked, imported, received

pytestmark = pytest.mark.django_db

SHEET = [
    ["Dog name", "Breed", "Sex", "Microchip", "Owner name", "Owner address", "Owner city", "Date of birth"],
    ["Max", "Husky", "M", "900001000000001", "Jo Park", "1 Elm St", "Battle Lake", "2020-05-01"],
    ["Bella", "Beagle", "F", "900001000000002", "Sam Lee", "2 Oak St", "Battle Lake", "2021"],
    ["Kira", "Mix", "female", "900001000000003", "Sam Lee", "2 Oak St", "Battle Lake", ""],
]


def csv_of(rows) -> bytes:
    return "\n".join(",".join(r) for r in rows).encode()


def xlsx_of(rows) -> bytes:
    book = Workbook()
    sheet = book.active
    for r in rows:
        sheet.append(r)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_city_spreadsheet_is_matched_by_its_own_column_names(clerk):
    run = received(clerk, "dogs.csv", "dogs", data=csv_of(SHEET), source="Licence spreadsheet")
    suggested = fields.suggest("dogs", run.columns)
    assert suggested["name"] == {"column": "Dog name"}
    assert suggested["microchip_number"] == {"column": "Microchip"}
    assert suggested["owner_full_name"] == {"column": "Owner name"}
    assert suggested["owner_street"] == {"column": "Owner address"}


def test_one_bad_row_brings_in_nothing_and_names_its_row_and_column(clerk):
    bad = [
        *SHEET,
        ["Rex", "Boxer", "sometimes", "900001000000004", "Al Ray", "3 Fir St", "Battle Lake", "1850"],
    ]
    run = checked(clerk, "dogs.csv", "dogs", data=csv_of(bad), source="Licence spreadsheet")
    assert run.problem_count == 2
    by_column = {p["column"]: p for p in run.problems}
    assert by_column["Sex"]["row"] == 5 and "not a sex" in by_column["Sex"]["problem"]
    assert by_column["Date of birth"]["row"] == 5 and "between 1990" in by_column["Date of birth"]["problem"]
    with pytest.raises(InvalidInput) as refused:
        from dogcase.imports import tasks

        tasks.bring_in_checked(run, actor=clerk)
    assert refused.value.field == "run"
    assert Dog.objects.count() == 0 and Person.objects.count() == 0
    assert not Event.objects.filter(act="import_records").exists()


def test_a_workbook_brings_in_what_its_csv_does(clerk):
    run = imported(clerk, "dogs.xlsx", "dogs", data=xlsx_of(SHEET), source="Licence spreadsheet")
    assert run.status == ImportRun.Status.IMPORTED
    assert sorted(Dog.objects.values_list("name", "birth_year")) == [
        ("Bella", 2021),
        ("Kira", None),
        ("Max", 2020),
    ]
    assert Person.objects.filter(full_name="Sam Lee").count() == 1  # two dogs, one owner
    assert ImportedRecord.objects.filter(run=run, model="dog").count() == 3


def test_the_same_microchip_twice_in_a_city_is_one_dog(clerk):
    imported(clerk, "dogs.csv", "dogs", data=csv_of(SHEET[:2]), source="Licence spreadsheet")
    run = imported(clerk, "more.csv", "dogs", data=csv_of([SHEET[0], SHEET[1], SHEET[2]]), source="Another")
    assert Dog.objects.filter(microchip_number="900001000000001").count() == 1
    assert run.summary["linked"]["dog"] == 1 and run.summary["created"]["dog"] == 1


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "old Excel file"),
        ("photo.csv", b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "neither"),
        ("empty.csv", b"", "empty"),
        ("fake.xlsx", b"PK\x03\x04" + b"x" * 100, "cannot be opened"),
    ],
)
def test_what_is_not_a_table_is_refused_on_the_file_field(clerk, name, data, says):
    with pytest.raises(InvalidInput) as refused:
        received(clerk, name, "dogs", data=data)
    assert refused.value.field == "file" and says in refused.value.rule
    assert not ImportRun.objects.exists()


def test_only_the_citys_record_keepers_bring_records_in(make_staff_user):
    police = make_staff_user("police_officer")
    with pytest.raises((PermissionError, PermissionDenied)):
        received(police, "dogs.csv", "dogs", data=csv_of(SHEET))
    elsewhere = make_staff_user("city_clerk", username="tracy-clerk", cities=["tracy-mn"])
    with pytest.raises((PermissionError, PermissionDenied)):
        received(elsewhere, "dogs.csv", "dogs", data=csv_of(SHEET), city=CITY)


def test_a_required_field_left_unmatched_is_named(clerk):
    from dogcase.imports import tasks

    run = received(clerk, "dogs.csv", "dogs", data=csv_of(SHEET))
    with pytest.raises(InvalidInput) as refused:
        tasks.match_columns_and_check(run, {"breed": "Breed"}, actor=clerk)
    assert refused.value.field == "name"
    with pytest.raises(InvalidInput) as refused:
        tasks.match_columns_and_check(run, {"name": "No such column"}, actor=clerk)
    assert refused.value.field == "name" and "column of the file" in refused.value.rule

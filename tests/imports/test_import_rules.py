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


def test_a_bad_row_after_the_first_thousand_written_undoes_them_all(clerk):
    """The import writes a thousand rows at a time: a bad row found after (a file changed behind the check's
    back is read again whole) undoes every row already written, and their events."""
    from dogcase.imports import reading
    from dogcase.imports.walk import NotImported, bring_in

    header = ["Dog name", "Sex", "Owner name", "Owner address"]
    rows = [[f"Dog {i}", "M", f"Owner {i}", f"{i} Elm St"] for i in range(1, 1201)] + [
        ["Late", "sometimes", "", ""]
    ]
    run = received(clerk, "big.csv", "dogs", data=csv_of([header, *rows]), source="Sheet")
    run.mapping = {k: v for k, v in fields.suggest("dogs", run.columns).items()}
    run.save()
    events = Event.objects.count()
    kind = reading.FileKind(".csv", "utf-8-sig", ",")
    with pytest.raises(NotImported) as refused:
        bring_in(run, reading.rows(io.BytesIO(csv_of([header, *rows])), kind), actor=clerk)
    assert refused.value.outcome.problem_count == 1 and refused.value.outcome.problems[0]["row"] == 1202
    assert Dog.objects.count() == Person.objects.count() == ImportedRecord.objects.count() == 0
    assert Event.objects.count() == events


def test_bringing_in_twice_brings_in_once(clerk):
    from dogcase.imports import service

    run = checked(clerk, "dogs.csv", "dogs", data=csv_of(SHEET), source="Sheet")
    service.confirm(run, actor=clerk)
    with pytest.raises(InvalidInput):
        service.confirm(ImportRun.objects.get(pk=run.pk), actor=clerk)  # the second click
    service.run_import(run.pk)
    service.run_import(run.pk)  # the job run again
    assert Dog.objects.count() == 3
    assert Event.objects.filter(act="import_records").count() == 1


def test_rows_are_numbered_as_the_spreadsheet_numbers_them(clerk):
    data = b"Dog name,Sex\n\nMax,M\n\n\nBella,sometimes\n"
    run = checked(clerk, "gaps.csv", "dogs", data=data, source="Sheet")
    assert [(p["row"], p["column"]) for p in run.problems] == [(6, "Sex")]


def test_two_licences_of_one_dog_keep_the_last_and_the_audit_verifies(clerk):
    from dogcase.cases.audit import verify_chain
    from dogcase.ops.integrity import verify_all

    imported(clerk, "dogs.csv", "dogs", data=b"Dog code,Dog name\nD1,Max\n", source="Licences")
    people = b"Person code,Last name,Licence number,Dog code\nP1,Park,,\n,,L-2024,D1\n,,L-2025,D1\n"
    run = imported(clerk, "people.csv", "people", data=people, source="Licences")
    assert Dog.objects.get(name="Max").licence_number == "L-2025"
    assert run.summary["changed"] == {"licence": 1}
    assert verify_chain().ok and verify_all()["ok"]


def test_a_home_without_a_city_is_found_again_on_the_next_file(clerk):
    from dogcase.cases.models import Premises

    head = b"Dog name,Owner name,Owner address\n"
    imported(clerk, "a.csv", "dogs", data=head + b"Max,Jo Park,1 Elm St\n", source="Sheet")
    imported(clerk, "b.csv", "dogs", data=head + b"Rex,Jo Park,1 Elm St\n", source="Sheet")
    assert Premises.objects.filter(street="1 Elm St").count() == 1


def test_a_workbook_that_claims_a_million_rows_is_read_as_the_rows_it_has(clerk):
    book = Workbook()
    sheet = book.active
    sheet.append(["Dog name", "Sex"])
    sheet.append(["Max", "M"])
    sheet["B40000"] = "F"  # a stray cell far down: 39,997 empty rows between
    out = io.BytesIO()
    book.save(out)
    run = checked(clerk, "far.xlsx", "dogs", data=out.getvalue(), source="Sheet")
    assert run.status == ImportRun.Status.FAILED
    assert "empty rows in a row after row 2" in run.problems[0]["problem"]


def test_a_zip_bomb_is_refused_before_it_is_opened(clerk):
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
        z.writestr("xl/sharedStrings.xml", "A" * 50_000_000)
    with pytest.raises(InvalidInput) as refused:
        received(clerk, "bomb.xlsx", "dogs", data=out.getvalue())
    assert refused.value.field == "file" and "unzips" in refused.value.rule


def _bring_in_dogs(clerk, n: int, name: str):
    """`n` dogs with their owners and homes (one owner in two with a second dog) brought in at once; the run and
    the statements the import took."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dogcase.imports import reading
    from dogcase.imports.walk import bring_in

    header = ["Animal code", "Dog name", "Sex", "Microchip", "Owner name", "Owner address", "Owner e-mail"]
    rows = [
        [
            f"D{i}",
            f"Dog {i}",
            "F",
            f"985{i:012d}",
            f"Owner {i // 2}",
            f"{i // 2} Elm St",
            f"o{i // 2}@example.org",
        ]
        for i in range(n)
    ]
    data = csv_of([header, *rows])
    run = received(clerk, name, "dogs", data=data, source="Sheet")
    run.mapping = fields.suggest("dogs", run.columns)
    run.save()
    kind = reading.FileKind(".csv", "utf-8-sig", ",")
    with CaptureQueriesContext(connection) as queries:
        outcome, _seq = bring_in(run, reading.rows(io.BytesIO(data), kind), actor=clerk)
    assert outcome.created == {"dog": n, "person": (n + 1) // 2, "premises": (n + 1) // 2}
    return run, len(queries)


def test_a_large_file_takes_a_few_statements_a_thousand_rows_and_each_record_its_event(clerk):
    """Rows are written a thousand at a time, each table a few hundred rows a statement: the statements do not
    grow with the rows (a statement a row would be thousands), and every record still has its own event, its
    summary the record's own words, the whole chain verifying."""
    from dogcase.cases.audit import verify_chain
    from dogcase.ops.integrity import verify_all

    run, statements = _bring_in_dogs(clerk, 2500, "big.csv")
    # three thousands (the last one partly filled): about 45 statements each, a few hundred rows a statement
    assert statements <= 3 * 60, statements
    dog = Dog.objects.get(name="Dog 1234")
    event = Event.objects.get(act="record_dog", data__id=dog.pk)
    assert event.summary == f"Recorded dog {dog.description} (from Sheet, big.csv, row 1236)"
    assert event.data["owners"] == list(dog.owners.values_list("pk", flat=True))
    assert event.data["premises"] == dog.premises_id and event.data["import"]["run"] == run.pk
    assert (
        Event.objects.filter(act__in=["record_dog", "record_person", "record_premises"]).count()
        == 2500 + 2 * 1250
    )
    # the row of each dog, of its owner (new or found again) and of each new home
    assert ImportedRecord.objects.filter(run=run).count() == 2500 + 2500 + 1250
    report = verify_all()
    assert verify_chain().ok and report["ok"], report["problems"]


def test_events_appended_in_a_batch_hash_as_the_audit_verifies_them(clerk):
    """A batch of events (an import's) has each event's hashed text filled in around what differs between
    events: texts with braces, quotes, the fill's own marks, other alphabets and data with dates, tuples, sets
    and numbers with a point still hash exactly as `audit verify` computes them."""
    import datetime as dt

    from django.db import transaction
    from django.utils import timezone

    from dogcase.cases.audit import append_events, verify_chain

    clerk.username = 'clerk {0} "q" \\ é \\u0000seq\\u0000'  # the fill's mark, as text
    clerk.save()
    items = [
        (
            "record_person",
            'Recorded {0} {{ }} {seq} "\\u0000seq\\u0000" “quotes” \\ é ' + "x" * 600,
            {"id": 1, "when": dt.date(2024, 1, 2), "nested": {"b": [1, (2, 3)], "a": "ü", 5: {2.5, 1.5}}},
        ),
        ("record_dog", "{data}", {"z": None, "a": True, "f": 1.25, "at": timezone.now()}),
        ("record_dog", "", {}),
    ]
    with transaction.atomic():
        written = append_events(
            at=timezone.now(),
            jurisdiction=CITY,
            kind=Event.Kind.RECORD,
            actor=clerk,
            actor_roles="{}",
            items=items,
        )
    assert written == 3
    first = Event.objects.get(act="record_person")
    assert len(first.summary) == 500 and first.data["nested"] == {
        "b": [1, [2, 3]],
        "a": "ü",
        "5": ["1.5", "2.5"],
    }
    assert verify_chain().ok


def test_a_batch_whose_hashed_text_is_not_the_audits_is_refused(clerk, monkeypatch):
    """Should the hashed text of an event change (its number written as text, say) without the batch's fill
    following it, nothing is written: the batch checks its first event against the audit's own hash."""
    from django.db import transaction
    from django.utils import timezone

    from dogcase.cases import audit

    body = audit._body
    monkeypatch.setattr(audit, "_body", lambda event: {**body(event), "seq": str(event.seq)})
    with pytest.raises(RuntimeError, match="otherwise than event_hash"), transaction.atomic():
        audit.append_events(
            at=timezone.now(),
            jurisdiction=CITY,
            kind=Event.Kind.RECORD,
            actor=clerk,
            actor_roles="",
            items=[("record_dog", "Recorded dog Max", {"id": 1})],
        )
    assert not Event.objects.filter(act="record_dog").exists()

"""Open cases brought in at the stage they had reached (issue 23): each step recorded on its real date through
the law's checks, the clocks counted from those dates (an overdue deadline is overdue on import), the notices'
contents attested by the person who brings the file in, a bad row naming its column and keeping nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import TestCase
from django.utils import timezone

from dogcase.cases.acts import InvalidInput
from dogcase.cases.models import Case, Event, Obligation, Task
from dogcase.imports import tasks
from dogcase.imports.models import ImportedRecord, ImportRun, Kind
from tests.imports.conftest import checked, imported

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def day(n: int) -> str:
    """`n` days ago, as a spreadsheet writes it."""
    return (TODAY - dt.timedelta(days=n)).isoformat()


def csv(rows: list[list[str]]) -> bytes:
    return ("\n".join(",".join(f'"{c}"' for c in row) for row in rows) + "\n").encode()


DOGS = csv(
    [
        ["Dog code", "Dog name", "Breed", "Owner name", "Owner address", "Owner city"],
        ["K1", "Bruno", "Rottweiler mix", "Maria Lindqvist", "104 Lake Avenue S", "Battle Lake"],
        ["K2", "Roxy", "Labrador", "Dale Okafor", "22 Summit Street W", "Battle Lake"],
        ["K3", "Duke", "German shepherd", "Greta Halvorsen", "310 Main Street N", "Battle Lake"],
    ]
)
INCIDENTS = csv(
    [
        ["Incident ID", "Date", "Where", "City", "What happened", "Dog code"],
        ["I1", day(90), "Glendalough trailhead", "Battle Lake", "Bite", "K1"],
        ["I2", day(40), "Public beach", "Battle Lake", "Bite", "K2"],
        ["I3", day(120), "Main Street", "Battle Lake", "Attack", "K3"],
    ]
)
HEADING = [
    "Case ID", "Incident", "Designation", "Declared on", "Basis", "Reason for the declaration", "Notice served on",
    "Served how", "Notice received", "Hearing requested on", "Hearing scheduled on", "Hearing date", "Hearing place",
    "Hearing officer", "Hearing held on", "Decision", "Decided on",
]  # fmt: skip
# The incidents brought in from a file record no facts the law asks of a designation: a declaration of one of
# them is made against what the facts recorded show, and says why (as on the staff's form)
WHY = "The officer's report in the city's files answers what the incident log does not record."


def case_file(*rows: dict[str, str]) -> bytes:
    return csv([HEADING] + [[r.get(h, "") for h in HEADING] for r in rows])


@pytest.fixture
def city_records(clerk):
    extra = {"place_type": "value:public"}
    imported(clerk, "dogs.csv", Kind.DOGS, data=DOGS, source="Clerk's files")
    imported(clerk, "incidents.csv", Kind.INCIDENTS, data=INCIDENTS, source="Clerk's files", extra=extra)


@pytest.fixture
def hearing_officer(make_staff_user):
    user = make_staff_user("hearing_officer")
    user.first_name, user.last_name = "Hana", "Berg"
    user.save()
    return user


def bring_in(actor, data: bytes, *, attest: bool = True, city: str = "battle-lake-mn") -> ImportRun:
    run = checked(actor, "cases.csv", Kind.CASES, data=data, source="Clerk's files", city=city)
    assert run.problem_count == 0, run.problems
    with TestCase.captureOnCommitCallbacks(execute=True):
        run = tasks.bring_in_checked(run, actor=actor, attest=attest)
    run.refresh_from_db()
    return run


SERVED_LONG_AGO = {
    "Case ID": "C-17",
    "Incident": "I1",
    "Designation": "Potentially dangerous",
    "Declared on": day(80),
    "Basis": "Unprovoked bite on a person in a public place.",
    "Reason for the declaration": WHY,
    "Notice served on": day(79),
    "Served how": "Personal service",
    "Notice received": day(79),
}


def test_a_case_served_long_ago_is_brought_in_at_its_stage_with_its_clocks_counted_from_its_dates(
    clerk, city_records
):
    run = bring_in(clerk, case_file(SERVED_LONG_AGO))
    assert run.status == ImportRun.Status.IMPORTED, run.problems
    case = Case.objects.get(incident__number__isnull=False, dog__name="Bruno")
    assert case.designation == "potentially_dangerous" and case.designation_in_effect
    steps = list(Event.objects.filter(case=case, kind=Event.Kind.STEP).order_by("seq"))
    assert [e.act for e in steps] == ["declare", "serve_notice"]
    served = steps[1]
    assert timezone.localtime(served.at).date() == TODAY - dt.timedelta(days=79)
    assert served.data["inputs"]["served_on"] == day(79)
    assert served.data["recorded"]["import"]["row"] == 2
    assert served.data["recorded"]["attested_by"] == (clerk.get_full_name() or clerk.get_username())
    assert served.summary.endswith("recorded from the city's records")
    # the owner's time to ask for a hearing counted from the notice served 79 days ago: long over, unused
    rows = {o.deadline_id: o for o in Obligation.objects.filter(case=case)}
    assert rows, "the case has its obligations"
    assert all(o.due_date is None or o.due_date >= TODAY - dt.timedelta(days=80) for o in rows.values())
    hearing = rows["owner.request_hearing"]
    assert hearing.status == "lapsed" and hearing.due_date is not None, hearing.__dict__
    assert TODAY - dt.timedelta(days=79) < hearing.due_date < TODAY
    record = ImportedRecord.objects.get(run=run, model="case")
    assert record.object_id == case.pk and record.source_ref == "C-17" and record.created


def test_an_overdue_deadline_is_overdue_on_import_and_raises_its_task(clerk, city_records):
    # declared 35 days ago and never served: the city's time to serve the notice has run out
    row = {"Case ID": "C-18", "Incident": "I2", "Designation": "dangerous", "Declared on": day(35),
           "Basis": "Bit a child's hand at the public beach.", "Reason for the declaration": WHY}  # fmt: skip
    bring_in(clerk, case_file(row))
    case = Case.objects.get(dog__name="Roxy")
    overdue = Obligation.objects.filter(case=case, status="overdue")
    assert overdue.exists(), list(Obligation.objects.filter(case=case).values_list("deadline_id", "status"))
    assert all(o.due_date is None or o.due_date < TODAY for o in overdue)
    # the sweep run at the end of the import raised the staff's task for it, as the daily sweep would
    assert Task.objects.filter(case=case, obligation__in=overdue).exists()


def test_a_case_heard_and_decided_is_recorded_through_the_hearing_with_an_impartial_officer(
    clerk, city_records, hearing_officer
):
    row = {
        "Case ID": "C-19", "Incident": "I3", "Designation": "Dangerous", "Declared on": day(110),
        "Basis": "Attacked a mail carrier.", "Reason for the declaration": WHY, "Notice served on": day(109),
        "Served how": "personal", "Notice received": day(107),
        "Hearing requested on": day(105), "Hearing scheduled on": day(104),
        "Hearing date": f"{day(95)} 14:00", "Hearing place": "City Hall", "Hearing officer": "Hana Berg",
        "Hearing held on": day(95), "Decision": "upheld", "Decided on": day(92),
    }  # fmt: skip
    run = bring_in(clerk, case_file(row))
    assert run.status == ImportRun.Status.IMPORTED, run.problems
    case = Case.objects.get(dog__name="Duke")
    acts = list(
        Event.objects.filter(case=case, kind=Event.Kind.STEP).order_by("seq").values_list("act", flat=True)
    )
    assert acts == [
        "declare", "serve_notice", "receive_hearing_request", "schedule_hearing", "hold_hearing", "decide_appeal"
    ]  # fmt: skip
    from dogcase.cases.audit import verify_chain
    from dogcase.ops.integrity import verify_all

    report = verify_all()  # the case's record as its recorded steps leave it, every chain intact
    assert verify_chain().ok and report["ok"], report["problems"]
    decided = Event.objects.get(case=case, act="decide_appeal")
    assert decided.data["outcome"] == "upheld"
    assert Event.objects.get(case=case, act="schedule_hearing").data["inputs"]["hearing_officer"] == str(
        hearing_officer.pk
    )
    # the law sees each step as taken by the office or the hearing officer, never by the clerk bringing it in
    # (the impartiality rule compares them)
    from dogcase.cases.acts import case_state

    actors = {t.step: t.actor for t in case_state(case).taken}
    assert actors["hold_hearing"] == actors["decide_appeal"] == str(hearing_officer.pk)
    assert str(clerk.pk) not in actors.values(), actors
    # the owner's receipt of the decision is not made up from the decision's date: the row does not give it
    assert not {"delivered_on", "notified_on"} & set(decided.data["inputs"]), decided.data["inputs"]
    # a hearing held long ago is not announced to the owner or the hearing officer as scheduled
    from dogcase.messaging.models import Message

    assert not Message.objects.filter(case=case, kind=Message.Kind.HEARING_SCHEDULED).exists()


def test_the_owners_receipt_of_the_decision_is_taken_from_its_own_column(
    clerk, city_records, hearing_officer
):
    row = {
        "Case ID": "C-21", "Incident": "I3", "Designation": "Dangerous", "Declared on": day(110),
        "Basis": "Attacked a mail carrier.", "Reason for the declaration": WHY, "Notice served on": day(109),
        "Served how": "personal", "Notice received": day(107), "Hearing requested on": day(105),
        "Hearing scheduled on": day(104), "Hearing date": f"{day(95)} 14:00", "Hearing place": "City Hall", "Hearing officer": "Hana Berg",
        "Hearing held on": day(95), "Decision": "upheld", "Decided on": day(92),
    }  # fmt: skip
    data = csv([[*HEADING, "Decision received on"], [*(row.get(h, "") for h in HEADING), day(90)]])
    run = bring_in(clerk, data)
    assert run.status == ImportRun.Status.IMPORTED, run.problems
    decided = Event.objects.get(case__dog__name="Duke", act="decide_appeal")
    received = {k: v for k, v in decided.data["inputs"].items() if k in ("delivered_on", "notified_on")}
    assert received and set(received.values()) == {day(90)}, decided.data["inputs"]


def test_only_the_clerk_or_the_administrator_brings_in_open_cases(make_staff_user, clerk, city_records):
    from tests.imports.conftest import received

    officer = make_staff_user("animal_control_officer", username="officer-2")
    with pytest.raises(PermissionError) as refused:
        received(officer, "cases.csv", Kind.CASES, data=case_file(SERVED_LONG_AGO), source="Clerk's files")
    assert "open cases" in str(refused.value)
    # the officer still brings in dogs
    assert received(officer, "dogs.csv", Kind.DOGS, data=DOGS, source="Officer's files").pk
    # nor is it offered on the officer's import page, as it is on the clerk's
    from django.test import Client

    pages = {}
    for user in (officer, clerk):
        client = Client()
        client.force_login(user)
        pages[user.pk] = client.get("/imports/").content.decode()
    assert '<option value="cases"' not in pages[officer.pk] and '<option value="dogs"' in pages[officer.pk]
    assert '<option value="cases"' in pages[clerk.pk]
    assert "open cases at the stage" in pages[clerk.pk] and "open cases" not in pages[officer.pk]


def test_a_case_already_here_or_twice_in_the_file_is_a_row_problem(clerk, city_records):
    twice = {**SERVED_LONG_AGO, "Case ID": "C-30"}
    run = checked(
        clerk, "cases.csv", Kind.CASES, data=case_file(SERVED_LONG_AGO, twice), source="Clerk's files"
    )
    assert [(p["row"], p["column"]) for p in run.problems] == [(3, "Incident")], run.problems
    assert "row 2" in run.problems[0]["problem"]
    bring_in(clerk, case_file(SERVED_LONG_AGO))
    number = Case.objects.get().number
    again = checked(clerk, "cases.csv", Kind.CASES, data=case_file(twice), source="Clerk's files")
    assert again.problem_count == 1 and number in again.problems[0]["problem"], again.problems


def test_a_step_of_today_is_never_recorded_later_than_the_import(clerk, city_records):
    row = {"Case ID": "C-31", "Incident": "I2", "Designation": "dangerous", "Declared on": day(0),
           "Basis": "Bit a child's hand at the public beach.", "Reason for the declaration": WHY}  # fmt: skip
    run = bring_in(clerk, case_file(row))
    assert run.status == ImportRun.Status.IMPORTED, run.problems
    declared = Event.objects.get(case__dog__name="Roxy", act="declare")
    assert declared.at <= timezone.now() and timezone.localtime(declared.at).date() == TODAY


def test_a_bad_row_is_named_by_its_column_and_nothing_of_the_file_is_kept(clerk, city_records):
    good = SERVED_LONG_AGO
    served_first = {"Case ID": "C-20", "Incident": "I2", "Designation": "dangerous", "Declared on": day(10),
                    "Basis": "Bite.", "Reason for the declaration": WHY, "Notice served on": day(12),
                    "Served how": "personal"}  # fmt: skip
    run = checked(clerk, "cases.csv", Kind.CASES, data=case_file(good, served_first), source="Clerk's files")
    assert run.problem_count == 1, run.problems
    problem = run.problems[0]
    assert problem["row"] == 3 and problem["column"] == "Notice served on", problem
    assert Case.objects.count() == 0, "the check records each case and takes it back"


def test_words_the_city_does_not_use_are_refused_with_the_choices(clerk, city_records):
    row = {**SERVED_LONG_AGO, "Designation": "vicious", "Served how": "carrier pigeon"}
    run = checked(clerk, "cases.csv", Kind.CASES, data=case_file(row), source="Clerk's files")
    problem = run.problems[0]
    assert problem["column"] == "Designation" and "Potentially dangerous" in problem["problem"], problem
    row = {**SERVED_LONG_AGO, "Served how": "carrier pigeon"}
    run = checked(clerk, "cases.csv", Kind.CASES, data=case_file(row), source="Clerk's files")
    assert run.problems[0]["column"] == "Served how", run.problems


def test_the_cases_are_brought_in_only_with_the_attestation_and_once(clerk, city_records):
    run = checked(clerk, "cases.csv", Kind.CASES, data=case_file(SERVED_LONG_AGO), source="Clerk's files")
    with pytest.raises(InvalidInput) as refused:
        tasks.bring_in_checked(run, actor=clerk, attest=False)
    assert refused.value.field == "attest"
    run.refresh_from_db()
    assert run.status == ImportRun.Status.CHECKED and Case.objects.count() == 0
    bring_in(clerk, case_file(SERVED_LONG_AGO))
    again = checked(clerk, "cases.csv", Kind.CASES, data=case_file(SERVED_LONG_AGO), source="Clerk's files")
    assert again.summary["linked"] == {"case": 1} and not again.summary["created"], again.summary
    event = Event.objects.filter(act="import_records", data__kind="cases").get()
    assert event.data["attested"]["words"].startswith("The steps these rows record")


def test_a_tracy_case_is_recorded_as_tracys_procedure_has_it(clerk):
    """The same file in another city's law: Tracy's classification, its notice by certified mail, the owner's
    request for a Council hearing — Tracy's own steps, found by what they do."""
    extra = {"place_type": "value:public"}
    imported(clerk, "dogs.csv", Kind.DOGS, data=DOGS, source="Tracy files", city="tracy-mn")
    imported(
        clerk,
        "incidents.csv",
        Kind.INCIDENTS,
        data=INCIDENTS,
        source="Tracy files",
        extra=extra,
        city="tracy-mn",
    )
    row = {"Case ID": "T-1", "Incident": "I2", "Designation": "vicious", "Declared on": day(30),
           "Basis": "Bit a child at the beach without provocation.", "Reason for the declaration": WHY,
           "Notice served on": day(29),
           "Served how": "certified mail", "Notice received": day(27), "Hearing requested on": day(25)}  # fmt: skip
    run = checked(clerk, "cases.csv", Kind.CASES, data=case_file(row), source="Tracy files", city="tracy-mn")
    assert run.problem_count == 0, run.problems
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.bring_in_checked(run, actor=clerk, attest=True)
    case = Case.objects.get(jurisdiction="tracy-mn", dog__name="Roxy")
    acts = list(
        Event.objects.filter(case=case, kind=Event.Kind.STEP).order_by("seq").values_list("act", flat=True)
    )
    assert acts == ["classify", "notify_classification", "receive_classification_appeal"]
    notice = Event.objects.get(case=case, act="notify_classification")
    assert notice.data["inputs"]["certified_mail"] is True and notice.data["inputs"]["sent_on"] == day(29)


def test_the_page_asks_for_the_attestation_and_says_who_gave_it(
    clerk, city_records, django_capture_on_commit_callbacks
):
    from django.test import Client

    client = Client()
    client.force_login(clerk)
    run = checked(clerk, "cases.csv", Kind.CASES, data=case_file(SERVED_LONG_AGO), source="Clerk's files")
    page = client.get(f"/imports/{run.pk}").content.decode()
    assert "1 case" in page and 'name="attest"' in page and "contained everything the city" in page
    refused = client.post(f"/imports/{run.pk}/bring-in")
    assert refused.status_code == 400 and 'aria-invalid="true"' in refused.content.decode()
    assert Case.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/imports/{run.pk}/bring-in", {"attest": "yes"})
    done = client.get(f"/imports/{run.pk}").content.decode()
    assert "Created: 1 case" in done and "said, on bringing the file in" in done
    case = Case.objects.get()
    history = client.get(f"/cases/{case.number}").content.decode()
    assert (
        "recorded from the city's records (Clerk&#x27;s files, "
        '<span class="file-name">cases.csv</span>, row 2)' in history
    )
    assert "issued outside dogcase" in history


def test_the_demos_open_case_is_brought_in_from_its_files(clerk):
    """The demo's files (dogcase/demo/imports.py), played in order: its open case says why it was declared."""
    from dogcase.demo import imports as demo

    source = "Clerk's incident log"
    imported(
        clerk, "licences.csv", Kind.DOGS, data=demo.LICENCES.encode(), source="Clerk's licence spreadsheet"
    )
    imported(clerk, "incident-log.csv", Kind.INCIDENTS, data=demo.incident_log().encode(), source=source)
    run = checked(clerk, "open-cases.csv", Kind.CASES, data=demo.open_cases().encode(), source=source)
    assert run.problem_count == 0, run.problems
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.bring_in_checked(run, actor=clerk, attest=True)
    declared = Event.objects.get(case__dog__name="Pepper", act="declare")
    assert declared.data["departure"]["reason"].startswith("The officer's report")

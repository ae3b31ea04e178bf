"""One way to act (issue 19, item 1): the API takes a step as the staff pages do, through the documents' act
(dogcase.documents.acts.take_step), which fills, checks, issues and records the documents the step issues. A
client cannot say what a notice contains, and the cases' own act refuses a step that issues documents unless
the documents' act takes it.

Every step of every city's pack that issues a document is taken here through the API, from a case brought to
that step through the same act; the documents the law engine says the step issues must exist afterwards."""

import ast
import json
from pathlib import Path

import pytest
import time_machine
from django.test import Client

from dogcase.cases import acts
from dogcase.cases.models import Event
from dogcase.documents.models import CityOffice, IssuedDocument
from dogcase.law import library
from tests.conftest import CITIES, OFFICE_ADDRESS
from tests.documents.conftest import BITE, SERIOUS, Case, at, on

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def make_case(staff, media, db):
    def make(city: str = "battle-lake-mn", facts=BITE) -> Case:
        return Case(staff, city, facts)

    return make


def hearing_at(day: int, hour: int = 14) -> str:
    return at(day, hour).isoformat()


# ------------------------------------------------------------------------------------------------ the cases
# Each brings a case (through the documents' act, as the staff pages take it) to just before a step that issues
# documents, and gives the step's inputs as a client sends them: (who takes it, on which day, inputs).


def bl_declared(c, designation="potentially_dangerous"):
    c.declare(day=1, designation=designation)


def bl_served_dangerous(c):
    c.declare(day=1, designation="dangerous")
    c.serve(day=2, telephoned=True)


def bl_requested(c, staff, designation="potentially_dangerous"):
    c.declare(day=1, designation=designation)
    c.serve(day=2, telephoned=True)
    c.step("receive_hearing_request", "clerk", 3, received_on=on(3))


def bl_scheduled(c, staff):
    bl_requested(c, staff, "dangerous")
    c.step(
        "schedule_hearing",
        "clerk",
        4,
        hearing_at=hearing_at(8),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_hearing", "hearing", 8, held_on=on(8))


def bl_destruction_served(c):
    c.declare(day=1, designation="dangerous")
    c.step(
        "serve_destruction_notice",
        "officer",
        5,
        served_on=on(5),
        incident="On the day before this notice the dog bit a neighbour on the hand without provocation.",
        method="personal service",
        received_on=on(5),
    )
    c.step("receive_destruction_hearing_request", "clerk", 6, received_on=on(6))


def bl_destruction_decided(c, staff):
    bl_destruction_served(c)
    c.step(
        "schedule_destruction_hearing",
        "clerk",
        7,
        hearing_at=hearing_at(12),
        place="City Hall council chambers",
        hearing_officer=str(staff["hearing"].pk),
    )
    c.step("hold_destruction_hearing", "hearing", 12, held_on=on(12))
    c.step("decide_destruction", "hearing", 13, outcome="not_appropriate", reasons="Findings of the hearing.")


def tracy_classified(c):
    c.step(
        "classify",
        "clerk",
        1,
        designation="vicious",
        reasonable_cause="Unprovoked bite on a person, witnessed.",
    )
    CityOffice.objects.update_or_create(
        jurisdiction="tracy-mn", office="city_administrator", defaults={"address": OFFICE_ADDRESS}
    )


def tracy_notified(c):
    tracy_classified(c)
    c.step("notify_classification", "clerk", 2, sent_on=on(2), certified_mail=True)


def tracy_impounded(c):
    tracy_classified(c)
    c.step(
        "post_notice_owner_not_located",
        "clerk",
        2,
        sent_on=on(2),
        method="posting_on_owner_property",
        search="Knocked on doors; no licence on file",
    )
    c.step("impound", "police", 2, ground="owner_not_located", place="Swift Lake Park")


def tracy_impoundment_notified(c):
    tracy_impounded(c)
    c.step("notify_impoundment", "clerk", 3, sent_on=on(3), certified_mail=True)


def proofs_for(c, step_id: str, day: int) -> list[str]:
    j = library().get(c.case.jurisdiction)
    return [x["value"] for x in j.input_choices(step_id, acts.case_state(c.case), at(day))["proofs"]]


def state_dangerous(c):
    c.declare(day=1, designation="dangerous")


def state_requested(c):
    state_dangerous(c)
    c.step("serve_notice", "officer", 2, served_on=on(2), method="personal", telephoned=True)
    c.step("receive_hearing_request", "officer", 3, received_on=on(3))


STATE_SCHEDULE = {"place": "City Hall", "hearing_at": at(8, 14).isoformat()}


def state_served(c):
    state_requested(c)
    c.step("schedule_hearing", "officer", 4, hearing_officer=str(c.staff["hearing"].pk), **STATE_SCHEDULE)
    c.step("hold_hearing", "hearing", 8, held_on=on(8))


def state_destruction_requested(c):
    state_dangerous(c)
    c.step(
        "serve_destruction_notice",
        "officer",
        5,
        served_on=on(5),
        incident="On the day before this notice the dog bit a neighbour without provocation.",
        method="personal service",
    )
    c.step("receive_destruction_hearing_request", "officer", 6, received_on=on(6))


SERVE = {"served_on": on(2), "method": "personal", "served_owner": "Olive Ostrander"}
# a citation to court for a violation (§ 90.15's penalty; Tracy Subd 12)
CITATION = {
    "number": "C-1",
    "violated": "(C)(5)(e)",
    "violation": "Kept the dog without the insurance on file.",
    "cited_on": on(4),
    "court": "The county courthouse",
    "court_at": at(30, 9).isoformat(),
}

# id: (city, facts, set up the case, (who, day, inputs) of the step taken through the API)
SCENARIOS = {
    "battle-lake-mn/serve_notice/potentially_dangerous": (
        "battle-lake-mn",
        BITE,
        lambda c, s: bl_declared(c),
        lambda c, s: ("serve_notice", "officer", 2, SERVE),
    ),
    "battle-lake-mn/serve_notice/dangerous": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_declared(c, "dangerous"),
        lambda c, s: ("serve_notice", "officer", 2, {**SERVE, "telephoned": True}),
    ),
    "battle-lake-mn/schedule_hearing": (
        "battle-lake-mn",
        BITE,
        bl_requested,
        lambda c, s: (
            "schedule_hearing",
            "clerk",
            4,
            {
                "hearing_at": hearing_at(10),
                "place": "City Hall council chambers",
                "hearing_officer": str(s["hearing"].pk),
            },
        ),
    ),
    "battle-lake-mn/decide_appeal": (
        "battle-lake-mn",
        SERIOUS,
        bl_scheduled,
        lambda c, s: ("decide_appeal", "hearing", 9, {"outcome": "upheld", "reasons": "Unprovoked bite."}),
    ),
    "battle-lake-mn/recommend": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: (
            bl_scheduled(c, s),
            c.step("decide_appeal", "hearing", 9, outcome="upheld", reasons="Unprovoked bite."),
        ),
        lambda c, s: ("recommend", "hearing", 9, {"outcome": "confirm"}),
    ),
    "battle-lake-mn/confirm_or_rescind": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: (
            bl_scheduled(c, s),
            c.step("decide_appeal", "hearing", 9, outcome="upheld", reasons="Unprovoked bite."),
            c.step("recommend", "hearing", 9, outcome="confirm"),
        ),
        lambda c, s: (
            "confirm_or_rescind",
            "council",
            12,
            {"outcome": "confirmed", "resolution": "Res. 2026-7"},
        ),
    ),
    "battle-lake-mn/issue_certificate": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_served_dangerous(c),
        lambda c, s: (
            "issue_certificate",
            "clerk",
            4,
            {"proofs": proofs_for(c, "issue_certificate", 4), "number": "BL-DD-TEST-1"},
        ),
    ),
    "battle-lake-mn/seize": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_declared(c, "dangerous"),
        lambda c, s: (
            "seize",
            "officer",
            33,
            {
                "ground": "not_sterilized",
                "place": "Lakes Area Kennel, 4 Kennel Road",
                "contact": "Jo Berg",
                "telephone": "218-555-0177",
            },
        ),
    ),
    "battle-lake-mn/serve_destruction_notice": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_declared(c, "dangerous"),
        lambda c, s: (
            "serve_destruction_notice",
            "officer",
            5,
            {
                "served_on": on(5),
                "incident": "On the day before this notice the dog bit a neighbour without provocation.",
                "method": "personal service",
                "received_on": on(5),
            },
        ),
    ),
    "battle-lake-mn/schedule_destruction_hearing": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_destruction_served(c),
        lambda c, s: (
            "schedule_destruction_hearing",
            "clerk",
            7,
            {
                "hearing_at": hearing_at(12),
                "place": "City Hall council chambers",
                "hearing_officer": str(s["hearing"].pk),
            },
        ),
    ),
    "battle-lake-mn/confirm_or_rescind_destruction": (
        "battle-lake-mn",
        SERIOUS,
        bl_destruction_decided,
        lambda c, s: (
            "confirm_or_rescind_destruction",
            "council",
            15,
            {"outcome": "rescinded", "resolution": "Res. 2026-9"},
        ),
    ),
    "tracy-mn/serve_notice/dangerous": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_dangerous(c),
        lambda c, s: (
            "serve_notice",
            "officer",
            2,
            {"served_on": on(2), "method": "personal", "telephoned": True},
        ),
    ),
    "tracy-mn/decide_appeal": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_served(c),
        lambda c, s: ("decide_appeal", "hearing", 9, {"outcome": "upheld", "reasons": "Unprovoked bite."}),
    ),
    "tracy-mn/schedule_hearing": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_requested(c),
        lambda c, s: (
            "schedule_hearing",
            "officer",
            4,
            {**STATE_SCHEDULE, "hearing_officer": str(s["hearing"].pk)},
        ),
    ),
    "tracy-mn/schedule_destruction_hearing": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_destruction_requested(c),
        lambda c, s: (
            "schedule_destruction_hearing",
            "officer",
            7,
            {
                "place": "City Hall",
                "hearing_at": at(12, 14).isoformat(),
                "hearing_officer": str(s["hearing"].pk),
            },
        ),
    ),
    "tracy-mn/issue_certificate": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_dangerous(c),
        lambda c, s: ("issue_certificate", "officer", 4, {"proofs": proofs_for(c, "issue_certificate", 4)}),
    ),
    "battle-lake-mn/record_move": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_served_dangerous(c),
        lambda c, s: (
            "record_move",
            "officer",
            4,
            {
                "moved_on": on(4),
                "destination": "elsewhere",
                "destination_name": "Fergus Falls, MN",
                "new_address": "9 Oak Avenue, Fergus Falls, MN 56537",
                "authority_address": "112 W Washington Ave, Fergus Falls, MN 56537",
            },
        ),
    ),
    "tracy-mn/record_move": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_dangerous(c),
        lambda c, s: (
            "record_move",
            "officer",
            4,
            {"moved_on": on(4), "destination": "battle-lake-mn", "new_address": "9 Oak Avenue, Battle Lake"},
        ),
    ),
    "battle-lake-mn/issue_citation": (
        "battle-lake-mn",
        SERIOUS,
        lambda c, s: bl_declared(c, "dangerous"),
        lambda c, s: ("issue_citation", "officer", 4, CITATION),
    ),
    "tracy-mn/issue_citation": (
        "tracy-mn",
        BITE,
        lambda c, s: tracy_classified(c),
        lambda c, s: ("issue_citation", "police", 4, {**CITATION, "violated": "Subd 5.C"}),
    ),
    "tracy-mn/serve_destruction_notice": (
        "tracy-mn",
        SERIOUS,
        lambda c, s: state_dangerous(c),
        lambda c, s: (
            "serve_destruction_notice",
            "officer",
            5,
            {
                "served_on": on(5),
                "incident": "On the day before this notice the dog bit a neighbour without provocation.",
                "method": "personal service",
            },
        ),
    ),
    "tracy-mn/notify_classification": (
        "tracy-mn",
        BITE,
        lambda c, s: tracy_classified(c),
        lambda c, s: ("notify_classification", "clerk", 2, {"sent_on": on(2), "certified_mail": True}),
    ),
    "tracy-mn/post_notice_owner_not_located": (
        "tracy-mn",
        BITE,
        lambda c, s: tracy_classified(c),
        lambda c, s: (
            "post_notice_owner_not_located",
            "clerk",
            2,
            {"sent_on": on(2), "method": "posting_on_owner_property", "search": "No owner found"},
        ),
    ),
    "tracy-mn/receive_classification_appeal": (
        "tracy-mn",
        BITE,
        lambda c, s: tracy_notified(c),
        lambda c, s: ("receive_classification_appeal", "clerk", 4, {"received_on": on(4)}),
    ),
    "tracy-mn/decide_classification_appeal": (
        "tracy-mn",
        BITE,
        lambda c, s: (
            tracy_notified(c),
            c.step("receive_classification_appeal", "clerk", 4, received_on=on(4)),
            c.step("hold_classification_hearing", "council", 8, held_on=on(8)),
        ),
        lambda c, s: (
            "decide_classification_appeal",
            "council",
            9,
            {"outcome": "upheld", "reasons": "The bite was unprovoked."},
        ),
    ),
    "tracy-mn/notify_impoundment": (
        "tracy-mn",
        BITE,
        lambda c, s: tracy_impounded(c),
        lambda c, s: ("notify_impoundment", "clerk", 3, {"sent_on": on(3), "certified_mail": True}),
    ),
    "tracy-mn/receive_impoundment_appeal": (
        "tracy-mn",
        BITE,
        lambda c, s: tracy_impoundment_notified(c),
        lambda c, s: ("receive_impoundment_appeal", "clerk", 5, {"received_on": on(5)}),
    ),
    "tracy-mn/decide_impoundment": (
        "tracy-mn",
        BITE,
        lambda c, s: (
            tracy_impoundment_notified(c),
            c.step("receive_impoundment_appeal", "clerk", 5, received_on=on(5)),
            c.step("hold_impoundment_hearing", "council", 8, held_on=on(8), outcome="appeared"),
        ),
        lambda c, s: (
            "decide_impoundment",
            "council",
            9,
            {"outcome": "release_conditionally", "conditions": "Kept in a locked pen."},
        ),
    ),
}


def post(client: Client, case, step_id: str, inputs: dict, day: int, hour: int = 11):
    """The step taken through the API at `day`, `hour` (the API takes a step now: the clock is moved there)."""
    with time_machine.travel(at(day, hour), tick=False):
        return client.post(
            f"/api/v1/cases/{case.number}/steps/{step_id}",
            json.dumps({"version": case.version, "inputs": inputs}),
            content_type="application/json",
        )


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def issues(case, step_id: str, day: int) -> list[str]:
    """The documents the law engine says the step issues for the case now (the packs' `documents:`)."""
    j = library().get(case.jurisdiction)
    case.refresh_from_db()
    return [t.id for t in j.document_types(step_id, acts.case_state(case).designation, at(day).date())]


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_step_that_issues_a_document_issues_it_through_the_api(scenario, make_case, staff):
    city, facts, set_up, step_of = SCENARIOS[scenario]
    c = make_case(city=city, facts=facts)
    set_up(c, staff)
    c.case.refresh_from_db()
    step_id, who, day, inputs = step_of(c, staff)
    expected = issues(c.case, step_id, day)
    assert expected, f"{step_id} issues no document for this case: the scenario tests nothing"
    client = client_for(staff[who])
    version = c.case.version
    events = Event.objects.filter(case=c.case).count()

    # a client that says what a notice contains is refused, naming the field, and nothing is written
    refused = post(client, c.case, step_id, {**inputs, "contents": "all"}, day)
    has_contents = any(
        i.kind == "document" and i.id == "contents"
        for i in library().get(city).step(step_id, at(day).date()).inputs
    )
    assert refused.status_code == (400 if has_contents else 422), refused.content
    assert refused.json()["error"]["field"] == "inputs.contents"
    c.case.refresh_from_db()
    assert c.case.version == version
    assert Event.objects.filter(case=c.case).count() == events
    assert not IssuedDocument.objects.filter(case=c.case, step=step_id).exists()

    # the same step without it: taken, and the documents it issues are issued and recorded with it
    taken = post(client, c.case, step_id, inputs, day)
    assert taken.status_code == 201, taken.content
    body = taken.json()
    issued = IssuedDocument.objects.filter(case=c.case, step=step_id)
    assert sorted(d.doc_type for d in issued) == sorted(expected)
    step_event = Event.objects.get(case=c.case, seq=body["event"]["seq"])
    assert all(d.step_event_id == step_event.pk for d in issued)
    assert sorted(d["number"] for d in body["documents"]) == sorted(d.number for d in issued)
    # one audit event per document in the case's chain, beside the step's
    assert (
        Event.objects.filter(case=c.case, act="issue_document", data__step_event=step_event.seq).count()
        == issued.count()
    )
    if has_contents:  # the contents the engine checked are the documents', never a client's
        assert step_event.data["inputs"]["contents"]
        assert step_event.data["inputs"]["contents"] != "all"


def test_the_scenarios_cover_every_step_that_issues_a_document():
    """A step a pack makes issue a document (for any designation) has its scenario above."""
    day = at(0).date()
    covered = {tuple(k.split("/")[:2]) for k in SCENARIOS}
    issuing = set()
    for city in CITIES:
        j = library().get(city)
        for step in j.procedure(day):
            for designation in [None, *j.designations]:
                try:
                    if j.document_types(step.id, designation, day):
                        issuing.add((city, step.id))
                except Exception:  # noqa: S112 — a step not open to this designation
                    continue
    assert issuing - covered == set()


def test_a_notice_never_issued_cannot_be_recorded_as_served(make_case, staff):
    """The issue's case: serve_notice with a client's `contents` (and nothing else wrong) used to record the
    service of a notice that was never issued (201, no document, no access code)."""
    c = make_case()
    bl_declared(c)
    c.case.refresh_from_db()
    response = post(
        client_for(staff["officer"]),
        c.case,
        "serve_notice",
        {**SERVE, "contents": ["x/every_element"]},
        2,
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "inputs.contents"
    assert not c.case.events.filter(act="serve_notice").exists()


def test_a_document_the_records_cannot_fill_is_refused_with_what_is_missing(make_case, staff):
    c = make_case()
    bl_declared(c)
    CityOffice.objects.filter(jurisdiction="battle-lake-mn").delete()  # the city has not said where it is
    c.case.refresh_from_db()
    response = post(client_for(staff["officer"]), c.case, "serve_notice", SERVE, 2)
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["field"] == "documents"
    assert error["missing"] and all(m["where"] for m in error["missing"])
    assert not c.case.events.filter(act="serve_notice").exists()
    assert not IssuedDocument.objects.filter(case=c.case).exists()


def test_the_cases_act_refuses_a_step_that_issues_documents_or_a_notices_contents(make_case, staff):
    """A future caller of dogcase.cases.acts.take_step cannot bypass the documents' act."""
    c = make_case()
    # a step that issues nothing is still the cases' act's own
    declared = acts.take_step(
        c.case,
        "declare",
        actor=staff["officer"],
        inputs={"designation": "potentially_dangerous", "basis": "Bit a person without provocation"},
        expected_version=c.case.version,
        at=at(1, 11),
    )
    c.case = declared.case
    with pytest.raises(acts.ContentsGiven) as given:
        acts.take_step(
            c.case,
            "serve_notice",
            actor=staff["officer"],
            inputs={**SERVE, "contents": "all"},
            expected_version=c.case.version,
            at=at(2, 11),
        )
    assert given.value.field == "contents"
    with pytest.raises(acts.Refused) as refused:
        acts.take_step(
            c.case,
            "serve_notice",
            actor=staff["officer"],
            inputs=SERVE,
            expected_version=c.case.version,
            at=at(2, 11),
        )
    assert [r["code"] for r in refused.value.refusals] == ["issues_documents"]
    with pytest.raises(acts.Refused):  # the named act is the same act
        acts.serve_notice(
            c.case, actor=staff["officer"], expected_version=c.case.version, at=at(2, 11), **SERVE
        )
    assert not c.case.events.filter(act="serve_notice").exists()


def test_only_the_documents_act_holds_the_key():
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured):
        acts.claim_issuing_key()


def test_the_owner_cannot_say_what_a_notice_contains(make_case, staff):
    c = make_case(city="tracy-mn")
    tracy_notified(c)
    c.case.refresh_from_db()
    person = c.owner
    with pytest.raises(acts.InvalidInput) as info:
        acts.take_owner_step(
            c.case,
            "receive_classification_appeal",
            person=person,
            inputs={"received_on": on(3), "contents": "all"},
            expected_version=c.case.version,
            at=at(3, 11),
        )
    assert info.value.field == "contents"


PRODUCT = Path(__file__).resolve().parents[2] / "dogcase"
# Nothing a person or a client uses records a step without its documents: only the statewide data set may.
MAY_SKIP_DOCUMENTS = {"demo/seed.py"}


def _calls(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text())
    return any(isinstance(node, ast.Attribute) and node.attr == name for node in ast.walk(tree))


def test_no_product_module_takes_a_step_without_its_documents():
    callers = {
        str(p.relative_to(PRODUCT))
        for p in PRODUCT.rglob("*.py")
        if "migrations" not in p.parts and _calls(p, "take_step_without_issuing")
    }
    assert callers <= MAY_SKIP_DOCUMENTS, callers


def test_the_api_staff_pages_and_cli_take_a_step_through_the_documents_act():
    """The API's, the staff pages' and the commands' steps go through dogcase.documents.acts.take_step: none
    of them calls the cases' act directly."""
    for rel in ("api/cases.py", "staff/views/cases.py", "cli.py"):
        source = (PRODUCT / rel).read_text()
        tree = ast.parse(source)
        direct = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "take_step"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "acts"
        ]
        assert direct == [], f"{rel} calls acts.take_step directly at lines {direct}"


def _uses(path: Path, name: str) -> bool:
    """The module names `name`: as an attribute (acts.name) or imported (from ... import name)."""
    tree = ast.parse(path.read_text())
    return any(
        (isinstance(node, ast.Attribute) and node.attr == name)
        or (isinstance(node, ast.ImportFrom) and any(a.name == name for a in node.names))
        for node in ast.walk(tree)
    )


def test_a_step_taken_before_dogcase_is_recorded_only_by_the_import_of_open_cases():
    """A step recorded from the city's records, its notices' contents attested, not issued: only the import of
    open cases records one (dogcase/imports/cases.py, after the person bringing the file in attests), and only
    through the documents' act, which alone fills what those notices contained."""
    users = {
        name: {
            str(p.relative_to(PRODUCT))
            for p in PRODUCT.rglob("*.py")
            if "migrations" not in p.parts and _uses(p, name)
        }
        for name in ("record_step_taken_before", "take_recorded_step")
    }
    assert users["record_step_taken_before"] == {"imports/cases.py"}, users
    assert users["take_recorded_step"] == {"documents/acts.py", "cases/acts/__init__.py"}, users

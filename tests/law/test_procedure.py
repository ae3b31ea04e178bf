"""Procedure as law data (docs/procedure.md): loading, layering, who may act, forms and obligations.

The cases that read like the ordinance are table rows in each pack's cases.yaml (test_pack_procedure.py);
these tests hold the engine's own rules and the loader's errors.
"""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest

from dogcase.law import Actor, CaseState, InputError, TakenStep, library
from dogcase.law.errors import PackError
from dogcase.law.loader import Library

from .invented_packs import CITY, STATE, write_invented_packs

CHICAGO = ZoneInfo("America/Chicago")


def noon(day: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(12), tzinfo=CHICAGO)


# ------------------------------------------------------------------------------------------ loader errors

CITY_WITH_PROCEDURE = (
    CITY
    + """\
  - id: "1.d"
    citation: "South City Code § 1(d)"
    text: "The marshal may declare a dog a nuisance dog."
    authority: {act: declare, designations: [nuisance], roles: [marshal]}
procedure:
  - id: declare
    label: Declare the dog a nuisance dog
    act: declare
    opens_case: true
    for: [nuisance]
    provisions: ["1.d"]
    inputs:
      - {id: designation, kind: designation, label: Designation}
    records: [declaration]
  - id: send_notice
    label: Send the notice
    act: serve_notice
    for: [nuisance]
    roles: [marshal]
    reading: "The code names no one; dogcase reads it as the marshal."
    requires:
      - {done: declare, provision: "1.b"}
    inputs:
      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}
  - id: receive_request
    label: Receive the request for a hearing
    act: receive_hearing_request
    for: [nuisance]
    roles: [marshal]
    reading: "The marshal receives it."
    requires:
      - {within: owner.request_hearing, provision: "1.b"}
    inputs:
      - {id: outcome, kind: outcome, label: Result, choices: [heard, dismissed]}
    satisfies: [owner.request_hearing]
"""
)


def _load(tmp_path, city: str) -> Library:
    folder = write_invented_packs(tmp_path / "packs")
    (folder / "north-state" / "pack.yaml").write_text(STATE, encoding="utf-8")
    (folder / "south-city" / "pack.yaml").write_text(city, encoding="utf-8")
    return Library(folder)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_city_procedure_loads_and_runs(tmp_path):
    j = _load(tmp_path, CITY_WITH_PROCEDURE).get("south-city")
    steps = {s.id: s for s in j.procedure(dt.date(2024, 6, 1))}
    assert list(steps) == ["declare", "send_notice", "receive_request"]
    assert steps["send_notice"].roles_reading.startswith("The code names no one")
    marshal = Actor("m1", frozenset({"marshal"}))
    state = CaseState(None, dt.date(2024, 6, 1))
    assert j.check_step("declare", state, marshal, noon("2024-06-02"), {"designation": "nuisance"}).allowed


BROKEN_PROCEDURES = [
    pytest.param(
        "    label: Send the notice\n",
        "    label: Send the notice\n    phase_name: notice\n",
        "phase_name",
        "unknown key 'phase_name'",
        id="unknown step key",
    ),
    pytest.param(
        "act: serve_notice", "act: post_notice", "act: post_notice", "must be one of", id="unknown act"
    ),
    pytest.param(
        "records: notice_sent}",
        "records: notice_sent, records_if: {certified: [notice_received]}}",
        "{id: sent_on",
        "records_if names 'certified', which is not a yes/no input of this step",
        id="records_if without its yes/no input",
    ),
    pytest.param(
        "records: notice_sent}",
        "records: notice_sent, records_if_method: {certified_mail: [notice_received]}}",
        "{id: sent_on",
        "records_if_method needs a service_method input in this step",
        id="records_if_method without a service_method input",
    ),
    pytest.param(
        "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}\n",
        "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent, "
        "records_if_method: {pigeon: [notice_received]}}\n"
        "      - {id: method, kind: service_method, label: How}\n",
        "{id: sent_on",
        "records_if_method names 'pigeon', not a service method",
        id="records_if_method naming an unknown method",
    ),
    pytest.param(
        "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}\n",
        "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}\n"
        "      - {id: contents, kind: text, label: Contents}\n",
        "{id: contents",
        "the input id 'contents' is dogcase's own",
        id="an input named like the documents' contents check",
    ),
    pytest.param(
        "records: notice_sent}",
        "records: notice_mailed}",
        "notice_mailed",
        "must be one of",
        id="unknown event",
    ),
    pytest.param(
        "{within: owner.request_hearing,",
        "{within: owner.request_appeal,",
        "owner.request_appeal",
        "unknown deadline 'owner.request_appeal'",
        id="unknown deadline",
    ),
    pytest.param(
        "{done: declare,",
        "{done: declaration,",
        "{done: declaration",
        "unknown step 'declaration'",
        id="unknown step",
    ),
    pytest.param(
        '{done: declare, provision: "1.b"}',
        '{done: declare, provision: "1.z"}',
        '"1.z"',
        "provision 'south-city:1.z'",
        id="unknown provision",
    ),
    pytest.param(
        '    roles: [marshal]\n    reading: "The code names',
        '    documents: [warning]\n    roles: [marshal]\n    reading: "The code names',
        "documents: [warning]",
        "unknown notice or document 'warning'",
        id="unknown notice",
    ),
    pytest.param(
        '    reading: "The code names no one; dogcase reads it as the marshal."\n',
        "",
        "id: send_notice",
        "roles and reading go together",
        id="roles without reading",
    ),
    pytest.param(
        "kind: date, label: Date sent",
        "kind: calendar, label: Date sent",
        "kind: calendar",
        "must be one of date",
        id="bad input kind",
    ),
    pytest.param(
        '{done: declare, provision: "1.b"}',
        '{outcome: {step: receive_request, in: [upheld]}, provision: "1.b"}',
        "in: [upheld]",
        "has no outcome 'upheld'",
        id="outcome the step does not have",
    ),
    pytest.param(
        '    roles: [marshal]\n    reading: "The code',
        '    roles: [sheriff]\n    reading: "The code',
        "roles: [sheriff]",
        "unknown role 'sheriff'",
        id="unknown role",
    ),
    pytest.param(
        '    for: [nuisance]\n    roles: [marshal]\n    reading: "The code',
        '    for: [feral]\n    roles: [marshal]\n    reading: "The code',
        "for: [feral]",
        "unknown designation 'feral'",
        id="unknown designation",
    ),
    pytest.param(
        '    provisions: ["1.d"]\n',
        '    provisions: ["1.d"]\n    roles: [marshal]\n    reading: "x"\n',
        'provisions: ["1.d"]',
        "roles: is only for a step no provision empowers",
        id="roles where a provision says who acts",
    ),
    pytest.param(
        '    roles: [marshal]\n    reading: "The marshal receives it."\n',
        "",
        "act: receive_hearing_request",
        "no provision says who may receive hearing request",
        id="no one empowered and no reading",
    ),
    pytest.param(
        '{done: declare, provision: "1.b"}',
        '{done: declare, citation: "1.b"}',
        "{done: declare, citation",
        "unknown condition key 'citation'",
        id="unknown condition key",
    ),
    pytest.param(
        "    satisfies: [owner.request_hearing]\n",
        "    satisfies: [owner.request_hearing]\n    closes_case: {outcomes: [withdrawn]}\n",
        "closes_case",
        "has no outcome 'withdrawn'",
        id="closing on an outcome the step does not have",
    ),
    pytest.param(
        "  - {id: marshal, label: City marshal}",
        "  - {id: marshal, label: City marshal, staff: [dogcatcher]}",
        "staff: [dogcatcher]",
        "must be one of animal_control_officer",
        id="unknown staff role",
    ),
    pytest.param(
        "records: notice_sent}",
        "records: notice_sent, records_if_outcome: {heard: [notice_received]}}",
        "{id: sent_on",
        "records_if_outcome names 'heard', which is not an outcome of this step",
        id="records_if_outcome on an outcome the step does not have",
    ),
    pytest.param(
        '{done: declare, provision: "1.b"}',
        '{input_by: {input: sent_by, deadline: owner.request_hearing}, provision: "1.b"}',
        "input_by:",
        "input_by: 'sent_by' must name a date or datetime input of the step",
        id="input_by naming no date input",
    ),
    pytest.param(
        '{done: declare, provision: "1.b"}',
        '{input_by: {input: sent_on, deadline: owner.request_appeal}, provision: "1.b"}',
        "input_by:",
        "unknown deadline 'owner.request_appeal'",
        id="input_by naming an unknown deadline",
    ),
    pytest.param(
        '{done: declare, provision: "1.b"}',
        '{ground_of: {step: declare, in: [loose]}, provision: "1.b"}',
        "ground_of:",
        "ground_of: step 'declare' has no seizure_ground input",
        id="ground_of a step without a seizure ground",
    ),
    pytest.param(
        "  - id: receive_request\n",
        "  - id: declare\n",
        "label: Receive the request",
        "step id 'declare' is used twice",
        id="a step id used twice",
    ),
]


@pytest.mark.parametrize(("old", "new", "line_marker", "message"), BROKEN_PROCEDURES)
def test_broken_procedure_names_file_line_and_rule(tmp_path, old, new, line_marker, message):
    assert old in CITY_WITH_PROCEDURE, "the test's anchor text must exist in the pack"
    text = CITY_WITH_PROCEDURE.replace(old, new, 1)
    with pytest.raises(PackError) as caught:
        _load(tmp_path, text)
    error = caught.value
    assert error.file.endswith("south-city/pack.yaml")
    assert message in error.message, error.message
    expected = _line_of(text, line_marker)
    assert error.line is not None
    assert abs(error.line - expected) <= 3, f"line {error.line}, expected about {expected}: {error}"


# ------------------------------------------------------------------------------------------ staff roles


@pytest.mark.parametrize(
    ("jurisdiction", "staff", "pack_roles"),
    [
        (
            "battle-lake-mn",
            ["animal_control_officer"],
            {"animal_control_officer", "animal_control_authority"},
        ),
        ("battle-lake-mn", ["police_officer"], {"law_enforcement_official"}),
        ("battle-lake-mn", ["city_clerk"], {"city_clerk_treasurer"}),
        ("battle-lake-mn", ["hearing_officer"], {"hearing_officer"}),
        ("battle-lake-mn", ["council_clerk"], {"city_council"}),
        ("battle-lake-mn", ["auditor"], set()),
        ("tracy-mn", ["city_clerk"], {"city_administrator"}),
        (
            "tracy-mn",
            ["police_officer"],
            {"chief_of_police", "police_department", "law_enforcement_official"},
        ),
        ("tracy-mn", ["council_clerk"], {"city_council"}),
        ("tracy-mn", ["city_clerk", "council_clerk"], {"city_administrator", "city_council"}),
    ],
)
def test_staff_roles_act_as_pack_roles(jurisdiction, staff, pack_roles):
    assert library().get(jurisdiction).pack_roles_for(staff) == frozenset(pack_roles)


def test_an_unknown_staff_role_is_an_input_error():
    with pytest.raises(InputError, match="unknown staff role 'mayor'"):
        library().get("tracy-mn").pack_roles_for(["mayor"])


# ------------------------------------------------------------------------------------------ layering


def test_battle_lake_steps_carry_their_layer():
    steps = {s.id: s for s in library().get("battle-lake-mn").procedure(dt.date(2024, 6, 1))}
    assert steps["post_security"].layer == "state"
    assert steps["hold_hearing"].layer == "city+state"
    # the city's (I)(1)-(2) scheduling replaces the state's (dogcase's reading of 347.541: the owner is told)
    assert steps["schedule_hearing"].layer == "city+state"
    assert steps["hold_hearing"].impartial
    assert not steps["confirm_or_rescind"].impartial
    ids = list(steps)
    assert ids.index("post_security") == ids.index("seize") + 1  # the state step sits after its predecessor


def test_city_conditions_come_first_and_the_same_state_test_is_not_repeated():
    destroy = library().get("battle-lake-mn").step("destroy", dt.date(2024, 6, 1))
    opportunity = [c for c in destroy.requires if c.test == "any"]
    # the city's two ((K): the Council's confirmation after the destruction hearing, the declaration final),
    # then the state's floor: since (K) runs through (I)(4), its opportunity (the Council confirmed) is no longer
    # the same test as 347.56's (the impartial officer determined destruction appropriate), so the state's is
    # kept; 347.56 asks no declaration, so it adds no finality test
    assert [c.provision for c in opportunity] == [
        "battle-lake-mn:K.destroy",
        "battle-lake-mn:K.destroy",
        "mn-statute:347.56",
    ]
    # the same test in both layers is written once, with the city's citation: the harm confirmed
    confirmed = [c for c in destroy.requires if c.test == "confirmed"]
    assert [c.provision for c in confirmed] == ["battle-lake-mn:K.destroy"]
    # on a dog not declared, (K) does not reach the case: the state's step applies alone
    alone = destroy.undeclared_step
    assert alone.layers == ("mn-statute",) and alone.layer == "state"
    assert [c.provision for c in alone.requires if c.test == "any"] == ["mn-statute:347.56"]


def test_a_case_not_declared_runs_the_state_step_a_city_step_replaces_as_the_state_wrote_it():
    j = library().get("battle-lake-mn")
    undeclared = CaseState(None, dt.date(2024, 5, 1))
    declared = CaseState("dangerous", dt.date(2024, 5, 1))
    at = noon("2024-05-10")
    # the state's notice of an intended destruction (dogcase's reading of 347.56: three elements, its own
    # document), not (K)'s four elements
    state_form = j.case_step("serve_destruction_notice", undeclared, at)
    assert [i.id for i in state_form.inputs] == ["served_on", "incident", "method", "proof", "contents"]
    assert state_form.documents == ("intended_destruction_notice",) and state_form.layer == "state"
    assert [c["value"] for c in j.input_choices("serve_destruction_notice", undeclared, at)["contents"]] == [
        "mn-statute:347.56.notice/incident",
        "mn-statute:347.56.notice/intended_destruction",
        "mn-statute:347.56.notice/time_to_request",
    ]
    city_form = j.case_step("serve_destruction_notice", declared, at)
    assert "contents" in [i.id for i in city_form.inputs] and city_form.layer == "city+state"
    # the state's hearing decision is the impartial officer's (347.56), recorded as the state records it: no
    # (I)(4) recommendation to the Council
    decide = j.case_step("decide_destruction", undeclared, at)
    assert (
        decide.records == ()
        and decide.authority["dangerous"][0]["provision"] == "mn-statute:347.541.4.decided_by"
    )
    assert j.case_step("decide_destruction", declared, at).records == ("destruction_decision_issued",)
    # who acts is the state's: the animal control authority serves the notice (the state's reading), not the
    # city's animal control officer by (K)'s reading
    assert state_form.roles == frozenset({"animal_control_authority"})
    # the city-only (K) steps do not reach a dog never declared
    listed = {v.step.id for v in j.available_steps(undeclared, Actor("x", frozenset()), at)}
    assert not {"record_destruction_notice_receipt", "confirm_or_rescind_destruction"} & listed
    assert {
        "serve_destruction_notice",
        "schedule_destruction_hearing",
        "hold_destruction_hearing",
        "decide_destruction",
        "destroy",
    } <= listed
    # the hearing is scheduled as the state wrote it (the authority, no (I)(2) mailing), not by (I)(1)'s clerk
    schedule = j.case_step("schedule_destruction_hearing", undeclared, at)
    assert (schedule.layer, schedule.roles) == ("state", frozenset({"animal_control_authority"}))
    assert j.case_step("schedule_destruction_hearing", declared, at).layer == "city+state"


def test_a_tracy_vicious_case_runs_tracy_steps_and_an_undeclared_case_may_also_open_under_state_law():
    j = library().get("tracy-mn")
    chief = Actor("chief", j.pack_roles_for(["police_officer"]))
    undeclared = {
        v.step.id for v in j.available_steps(CaseState(None, dt.date(2026, 5, 1)), chief, noon("2026-05-04"))
    }
    # the opening steps, the 347.56 destruction track, which needs no designation, and the 347.542 ban
    # steps, which concern the owner whatever the dog's designation
    assert undeclared == {
        "classify",
        "declare",
        "serve_destruction_notice",
        "receive_destruction_hearing_request",
        "schedule_destruction_hearing",
        "hold_destruction_hearing",
        "decide_destruction",
        "destroy",
        "record_conviction",
        "record_ownership_ban",
        "review_ownership_ban",
    }
    vicious = CaseState("vicious", dt.date(2026, 5, 1))
    listed = {v.step.id for v in j.available_steps(vicious, chief, noon("2026-05-04"))}
    assert "hold_classification_hearing" in listed
    assert "hold_hearing" not in listed  # 347.541's hearing is for a state designation


def test_the_tracy_council_hearing_is_not_the_state_impartial_hearing():
    step = library().get("tracy-mn").step("hold_classification_hearing", dt.date(2026, 5, 1))
    assert not step.impartial
    assert step.final is False
    assert library().get("tracy-mn").step("decide_classification_appeal", dt.date(2026, 5, 1)).final


def test_procedure_is_read_as_in_force_on_the_day_before_the_city_text_only_the_state_steps():
    steps = library().get("battle-lake-mn").procedure(dt.date(2018, 1, 1))
    assert {s.layer for s in steps} == {"state"}
    assert "confirm_or_rescind" not in {s.id for s in steps}


def test_steps_as_dicts_are_json():
    for jurisdiction in ("battle-lake-mn", "tracy-mn", "mn-statute"):
        for step in library().get(jurisdiction).procedure(dt.date(2026, 1, 1)):
            json.dumps(step.as_dict())


# ------------------------------------------------------------------------------------------ forms


def _declared(j, designation: str = "dangerous") -> CaseState:
    return CaseState(
        designation,
        dt.date(2024, 5, 1),
        (
            TakenStep(
                "declare",
                noon("2024-05-02"),
                "aco",
                events={"declaration": dt.date(2024, 5, 2)},
                inputs={"designation": designation, "basis": "bite"},
            ),
        ),
    )


@pytest.mark.parametrize(
    ("inputs", "field", "rule"),
    [
        ({"served_on": "2024-05-03"}, "inputs.method", "required"),
        (
            {"served_on": "2024-13-03", "method": "personal", "served_owner": "A"},
            "inputs.served_on",
            "does not exist: there is no month 13",
        ),
        (
            {"served_on": "2024-02-30", "method": "personal", "served_owner": "A"},
            "inputs.served_on",
            "30 February 2024 does not exist: February 2024 has 29 days",
        ),
        (
            {"served_on": "3 May 2024", "method": "personal", "served_owner": "A"},
            "inputs.served_on",
            "is not a date written YYYY-MM-DD",
        ),
        (
            {"served_on": "2024-05-03", "method": "personal", "contents": "all", "served_owner": "A" * 5001},
            "inputs.served_owner",
            "At most 200 characters (you wrote 5,001)",
        ),
        (
            {"served_on": "2024-05-03", "method": "pigeon", "served_owner": "A"},
            "inputs.method",
            "not allowed",
        ),
        (
            {"served_on": "2024-05-03", "method": "personal", "served_owner": "A", "color": "red"},
            "inputs.color",
            "has no input",
        ),
    ],
)
def test_bad_inputs_name_the_field_and_the_rule(inputs, field, rule):
    j = library().get("battle-lake-mn")
    with pytest.raises(InputError) as caught:
        j.validate_inputs("serve_notice", _declared(j), inputs, noon("2024-05-03"))
    assert caught.value.field == field
    assert rule in caught.value.rule


def test_service_methods_come_from_the_notice_for_the_designation():
    j = library().get("battle-lake-mn")
    pdd = j.input_choices("serve_notice", _declared(j, "potentially_dangerous"), noon("2024-05-03"))
    dangerous = j.input_choices("serve_notice", _declared(j, "dangerous"), noon("2024-05-03"))
    assert {c["value"] for c in pdd["method"]} >= {"personal", "certified_mail"}
    assert "posting_where_dog_kept" in {c["value"] for c in dangerous["method"]}
    assert "certified_mail" not in {c["value"] for c in dangerous["method"]}


def test_events_of_a_step_come_from_its_inputs_and_its_own_date():
    j = library().get("battle-lake-mn")
    cleaned = j.validate_inputs(
        "hold_hearing", _declared(j), {"held_on": "2024-05-15", "closed_on": "2024-05-16"}, noon("2024-05-16")
    )
    # one event for the hearing: its close (the later date given) starts the ten days in every layer
    assert j.events_of("hold_hearing", noon("2024-05-16"), cleaned) == {
        "hearing_closed": dt.date(2024, 5, 16)
    }
    assert j.events_of("declare", noon("2024-05-02"), {"designation": "dangerous"}) == {
        "declaration": dt.date(2024, 5, 2)
    }


def test_without_inputs_form_conditions_are_listed_not_refused():
    j = library().get("battle-lake-mn")
    clerk = Actor("clerk", j.pack_roles_for(["city_clerk"]))
    verdict = j.check_step("issue_certificate", _declared(j), clerk, noon("2024-05-20"))
    assert verdict.allowed
    assert verdict.needs_inputs
    refused = j.check_step("issue_certificate", _declared(j), clerk, noon("2024-05-20"), {})
    assert not refused.allowed
    assert set(refused.codes) == {"not_proven"}


def test_at_must_be_timezone_aware():
    j = library().get("battle-lake-mn")
    with pytest.raises(InputError, match="timezone-aware"):
        j.check_step("declare", CaseState(None, dt.date(2024, 5, 1)), Actor("a"), dt.datetime(2024, 5, 2, 12))  # noqa: DTZ001


def test_an_unknown_step_is_an_input_error():
    j = library().get("tracy-mn")
    with pytest.raises(InputError, match="unknown step 'declare_vicious'"):
        j.check_step("declare_vicious", CaseState(None, dt.date(2026, 5, 1)), Actor("a"), noon("2026-05-02"))


def test_every_refusal_is_plain_english_with_a_citation():
    j = library().get("battle-lake-mn")
    nobody = Actor("n")
    for verdict in j.available_steps(_declared(j), nobody, noon("2024-05-10")):
        assert not verdict.allowed
        for refusal in verdict.refusals:
            assert refusal.reason.endswith((".", ")")), refusal.reason
            assert refusal.provision and refusal.provision["citation"], refusal


def test_the_law_of_the_step_date_applies_not_today():
    """A step checked in 2019 reads the city text in force then: Battle Lake's (from 2018-12-11)."""
    j = library().get("battle-lake-mn")
    clerk = Actor("clerk", j.pack_roles_for(["city_clerk"]))
    verdict = j.check_step(
        "declare",
        CaseState(None, dt.date(2019, 5, 1)),
        clerk,
        noon("2019-05-02"),
        {"designation": "dangerous", "basis": "bite"},
    )
    assert verdict.codes == ["not_empowered"]
    assert verdict.refusals[0].provision["provision"] == "battle-lake-mn:C.1"


# ------------------------------------------------------------------------------------------ obligations


def test_obligations_are_json_and_carry_their_citations():
    j = library().get("battle-lake-mn")
    obligations = j.obligations(_declared(j), noon("2024-05-10"))
    assert obligations
    for obligation in obligations:
        json.dumps(obligation.as_dict())
        if obligation.deadline_id:
            assert obligation.citations


def test_an_undetermined_deadline_says_why():
    j = library().get("battle-lake-mn")
    register = next(
        o for o in j.obligations(_declared(j), noon("2024-05-10")) if o.deadline_id == "owner.register"
    )
    assert register.status == "undetermined"
    assert "the city must supply the setting “When the 14 days to register the dangerous dog begin”" in (
        register.reason
    )
    assert "registration_trigger" not in register.reason
    # a program reads the setting's id from the deadline's answer
    answer = j.deadline("owner.register", {"declaration": dt.date(2024, 5, 2)}, designation="dangerous")
    assert "needs_setting" in str(answer)


def test_the_city_setting_makes_the_registration_deadline_computable():
    j = library().get("battle-lake-mn")
    state = _declared(j)
    state = CaseState(
        state.designation, state.incident_date, state.taken, {"registration_trigger": "declaration"}
    )
    register = next(o for o in j.obligations(state, noon("2024-05-10")) if o.deadline_id == "owner.register")
    assert (register.status, register.due) == ("open", dt.date(2024, 5, 16))


def test_a_renewal_is_not_met_by_the_certificate_that_starts_it():
    j = library().get("battle-lake-mn")
    state = _declared(j)
    cert = TakenStep(
        "issue_certificate", noon("2024-05-20"), "clerk", events={"registration_issued": dt.date(2024, 5, 20)}
    )
    state = CaseState(state.designation, state.incident_date, (*state.taken, cert))
    found = {o.deadline_id: o for o in j.obligations(state, noon("2024-06-01"))}
    assert found["owner.renew_registration"].status == "open"
    assert found["owner.renew_registration"].due == dt.date(2025, 5, 20)


# ------------------------------------------------------------------------------------------ notice contents


def test_a_notice_must_contain_every_element_of_every_layer():
    j = library().get("battle-lake-mn")
    # 347.541 subd. 3 concerns a dangerous declaration: a potentially dangerous dog's notice is (B)(2)'s alone
    pdd = j.input_choices("serve_notice", _declared(j, "potentially_dangerous"), noon("2024-05-03"))[
        "contents"
    ]
    assert {c["provision"]["citation"] for c in pdd} == {"§ 90.15 (B)(2)"}
    state = _declared(j, "dangerous")
    choices = j.input_choices("serve_notice", state, noon("2024-05-03"))["contents"]
    cited = {c["provision"]["citation"] for c in choices}
    assert "§ 90.15 (C)(2)" in cited and "Minn. Stat. § 347.541, subd. 3" in cited
    base = {"served_on": "2024-05-03", "method": "personal", "served_owner": "A. Owner"}
    complete = j.validate_inputs("serve_notice", state, {**base, "contents": "all"}, noon("2024-05-03"))
    assert list(complete["contents"]) == [c["value"] for c in choices]
    for left_out in (choices[0], choices[-1]):
        partial = [c["value"] for c in choices if c is not left_out]
        with pytest.raises(InputError) as caught:
            j.validate_inputs("serve_notice", state, {**base, "contents": partial}, noon("2024-05-03"))
        assert caught.value.field == "inputs.contents"
        assert left_out["provision"]["citation"] in caught.value.rule
    with pytest.raises(InputError, match="not an element"):
        j.validate_inputs("serve_notice", state, {**base, "contents": ["made-up"]}, noon("2024-05-03"))


def test_an_event_recorded_only_when_the_notice_went_by_certified_mail():
    j = library().get("tracy-mn")
    day = noon("2024-05-03")
    certified = j.events_of(
        "notify_classification", day, {"sent_on": dt.date(2024, 5, 3), "certified_mail": True}
    )
    plain = j.events_of(
        "notify_classification", day, {"sent_on": dt.date(2024, 5, 3), "certified_mail": False}
    )
    assert certified == {"notice_date": dt.date(2024, 5, 3), "notice_sent": dt.date(2024, 5, 3)}
    assert plain == {"notice_date": dt.date(2024, 5, 3)}


def test_a_posted_notice_of_classification_does_not_start_the_five_business_days():
    # Subd 4.A runs from notice "sent by certified mail, return receipt requested"; Subd 3's posting on the
    # owner's property records the notice (and that the owner could not be located), not notice_sent
    j = library().get("tracy-mn")
    day = noon("2024-05-03")
    sent = dt.date(2024, 5, 3)
    posted = j.events_of(
        "post_notice_owner_not_located", day, {"sent_on": sent, "method": "posting_on_owner_property"}
    )
    mailed = j.events_of(
        "post_notice_owner_not_located", day, {"sent_on": sent, "method": "certified_mail_return_receipt"}
    )
    assert posted == {"notice_date": sent, "owner_not_located": sent}
    assert mailed == {"notice_date": sent, "owner_not_located": sent, "notice_sent": sent}
    step = j.step("post_notice_owner_not_located", day.date())
    assert step.inputs[0].as_dict()["records_if_method"] == {"certified_mail_return_receipt": ["notice_sent"]}


# ------------------------------------------------------------------------------------------ review fixes


def _served(j, designation: str, *, at: str = "2024-05-03") -> CaseState:
    """A declared case whose notice was served on `at`."""
    state = _declared(j, designation)
    serve = TakenStep(
        "serve_notice",
        noon(at),
        "aco",
        events={"notice_date": dt.date.fromisoformat(at), "notice_received": dt.date.fromisoformat(at)},
    )
    return CaseState(designation, state.incident_date, (*state.taken, serve))


def test_the_city_notice_gives_the_service_methods_and_telephoning_is_never_one():
    j = library().get("battle-lake-mn")
    pdd = {
        c["value"] for c in j.input_choices("serve_notice", _declared(j, "potentially_dangerous"))["method"]
    }
    dangerous = {c["value"] for c in j.input_choices("serve_notice", _declared(j, "dangerous"))["method"]}
    # (B)(2): "personally or by certified mail" — the state's plain mail and posting are not the city's text
    assert pdd == {"personal", "certified_mail"}
    # (C)(2): "personally or by posting ... or by delivering it to a person residing on the property"
    assert dangerous == {"personal", "posting_where_dog_kept", "delivery_to_resident"}
    base = {"served_on": "2024-05-03", "served_owner": "A. Owner", "contents": "all"}
    with pytest.raises(InputError) as caught:
        j.validate_inputs(
            "serve_notice", _declared(j), {**base, "method": "telephone_if_possible"}, noon("2024-05-03")
        )
    assert caught.value.field == "inputs.method"
    cleaned = j.validate_inputs(
        "serve_notice", _declared(j), {**base, "method": "personal", "telephoned": True}, noon("2024-05-03")
    )
    assert cleaned["telephoned"] is True


def test_the_state_notice_methods_apply_where_no_city_notice_reaches_the_designation():
    state_j = library().get("mn-statute")
    methods = {c["value"] for c in state_j.input_choices("serve_notice", _declared(state_j))["method"]}
    assert methods == {"personal", "mail", "posting_where_dog_kept", "delivery_to_resident"}
    tracy = library().get("tracy-mn")
    in_tracy = CaseState("dangerous", dt.date(2024, 5, 1), _declared(tracy).taken)
    assert {c["value"] for c in tracy.input_choices("serve_notice", in_tracy)["method"]} == methods
    assert "telephone_if_possible" not in {
        c["value"] for c in state_j.input_choices("decide_appeal", _declared(state_j))["method"]
    }


def test_deadline_provisions_that_leave_the_designation_out_do_not_set_the_cases_time():
    tracy = library().get("tracy-mn")
    events = {"hearing_request_received": dt.date(2026, 6, 1)}
    # without a designation the provisions are never merged into one date: each designation gets its own
    every = tracy.deadline("city.hold_hearing", events)
    assert every["due"] is None
    assert {a["designation"]: a["due"] for a in every["by_designation"]} == {
        "dangerous": "2026-06-15",
        "vicious": "2026-06-08",
    }
    state_dog = tracy.deadline("city.hold_hearing", events, designation="dangerous")
    assert (state_dog["due"], state_dog["set_by"]) == ("2026-06-15", ["mn-statute:347.541.4"])
    # 347.541 concerns dangerous declarations: no provision sets a hearing time for a state potentially
    # dangerous dog in Tracy, nor a state time for a vicious one
    assert not tracy.deadline_applies("city.hold_hearing", "potentially_dangerous")
    assert tracy.deadline_applies("city.hold_hearing", "vicious")
    assert len(state_dog["entries"]) == 1
    vicious = tracy.deadline("city.hold_hearing", events, designation="vicious")
    assert (vicious["due"], vicious["set_by"]) == ("2026-06-08", ["tracy-mn:4.A.hearing"])
    # a state designation's owner is not held to Tracy's five business days from a certified-mail notice
    notice = {"notice_date": dt.date(2026, 6, 1)}
    state_request = tracy.deadline("owner.request_hearing", notice, designation="dangerous")
    assert (state_request["status"], state_request["due"]) == ("determined", "2026-06-15")
    with pytest.raises(InputError):
        tracy.deadline("owner.request_hearing", notice, designation="nuisance")


def test_a_vicious_dog_takes_no_state_14_days_when_the_notice_was_not_sent_by_certified_mail():
    """Defect certified-mail-trigger: Tracy's window has not started. 347.541's 14 days concern a dangerous
    declaration, so they do not run instead (state_counterpart is a label, not a reach)."""
    j = library().get("tracy-mn")
    classify = TakenStep(
        "classify", noon("2026-05-04"), "chief", events={"classification": dt.date(2026, 5, 4)}
    )
    sent = j.validate_inputs(
        "notify_classification",
        CaseState("vicious", dt.date(2026, 5, 1), (classify,)),
        {"sent_on": "2026-05-05", "certified_mail": False, "contents": "all"},
        noon("2026-05-05"),
    )
    notify = TakenStep(
        "notify_classification",
        noon("2026-05-05"),
        "chief",
        events=j.events_of("notify_classification", noon("2026-05-05"), sent),
        inputs=sent,
    )
    state = CaseState("vicious", dt.date(2026, 5, 1), (classify, notify))
    window = next(
        o for o in j.obligations(state, noon("2026-05-09")) if o.deadline_id == "owner.request_hearing"
    )
    assert [e["provision"]["provision"] for e in window.answer["entries"]] == ["tracy-mn:4.A.request"]
    assert "bound" not in window.answer
    assert window.status == "undetermined"
    # the missing event named in words (Tracy's sending of the notice by certified mail), never its id
    assert "the date of the sending of the notice is not given" in window.reason
    assert "347.541" not in window.reason
    # the owner's request is not refused, however late (Tracy's clock never started)
    clerk = Actor("clerk", j.pack_roles_for(["city_clerk"]))
    for day in ("2026-05-19", "2026-06-10"):
        verdict = j.check_step("receive_classification_appeal", state, clerk, noon(day), {"received_on": day})
        assert verdict.allowed, verdict.refusals


def test_the_receipt_of_a_rescinding_decision_starts_nothing():
    for jurisdiction in ("battle-lake-mn", "mn-statute"):
        j = library().get(jurisdiction)
        day = noon("2024-05-20")
        upheld = j.events_of(
            "decide_appeal", day, {"outcome": "upheld", "delivered_on": dt.date(2024, 5, 20)}
        )
        rescinded = j.events_of(
            "decide_appeal", day, {"outcome": "rescinded", "delivered_on": dt.date(2024, 5, 20)}
        )
        assert upheld == {"decision_issued": dt.date(2024, 5, 20), "decision_received": dt.date(2024, 5, 20)}
        assert rescinded == {"decision_issued": dt.date(2024, 5, 20)}
        step = j.step("decide_appeal", dt.date(2024, 5, 20))
        delivered = next(i for i in step.inputs if i.id == "delivered_on")
        assert delivered.as_dict()["records_if_outcome"] == {"upheld": ["decision_received"]}


def test_not_registered_is_a_seizure_ground_for_a_dangerous_dog_only():
    j = library().get("battle-lake-mn")
    pdd = {c["value"] for c in j.input_choices("seize", _served(j, "potentially_dangerous"))["ground"]}
    dangerous = {c["value"] for c in j.input_choices("seize", _served(j, "dangerous"))["ground"]}
    assert "not_registered" not in pdd
    assert {"not_registered", "sterilization_not_done", "not_sterilized"} <= dangerous


def test_the_sterilization_ground_of_j1e_waits_for_the_owners_30_days():
    j = library().get("battle-lake-mn")
    owed = {o.deadline_id: o for o in j.obligations(_served(j, "dangerous"), noon("2024-05-10"))}
    assert {c["trigger"] for c in owed["owner.sterilize"].consequences} >= {"sterilization_not_done"}
    assert "sterilization_not_done" not in {c["trigger"] for c in owed["city.seizure_wait"].consequences}


def test_the_tracy_council_reaches_only_vicious_dogs():
    j = library().get("tracy-mn")
    day = dt.date(2026, 6, 1)
    hold = j.step("hold_hearing", day)
    assert hold.roles_by_designation["dangerous"] == frozenset({"hearing_officer"})
    assert "potentially_dangerous" not in hold.roles_by_designation  # 347.541: dangerous declarations only
    assert hold.impartial
    receive = j.step("receive_hearing_request", day)
    assert "city_administrator" not in receive.roles_by_designation["dangerous"]
    destroy = j.step("destroy_impounded_dog", day)
    assert destroy.roles == frozenset({"police_department"})
    assert destroy.roles_reading and "Police Department" in destroy.roles_reading


def test_the_destruction_hearing_is_its_own_track():
    j = library().get("battle-lake-mn")
    day = dt.date(2024, 6, 1)
    steps = {s.id: s for s in j.procedure(day)}
    for sid in (
        "serve_destruction_notice",
        "receive_destruction_hearing_request",
        "hold_destruction_hearing",
    ):
        assert steps[sid].repeatable and steps[sid].layer == "city+state"
    assert steps["hold_destruction_hearing"].impartial
    assert steps["decide_destruction"].impartial
    assert steps["hold_destruction_hearing"].records == ()
    held = j.events_of("hold_destruction_hearing", noon("2024-06-20"), {"held_on": dt.date(2024, 6, 20)})
    assert held == {"destruction_hearing_closed": dt.date(2024, 6, 20)}  # not the declaration's hearing


# (K) reaches "a dog that has previously been declared"; 347.56 alone (Tracy's state layer) does not ask it
@pytest.mark.parametrize("jurisdiction", ["battle-lake-mn"])
def test_no_destruction_of_a_dog_whose_declaration_is_not_served_or_not_final(jurisdiction):
    j = library().get(jurisdiction)
    officer = Actor("aco", j.pack_roles_for(["animal_control_officer"]))
    state = CaseState(None, dt.date(2024, 5, 1))

    def take(state, step_id, day, **inputs):
        at = noon(day)
        cleaned = j.validate_inputs(step_id, state, inputs, at)
        verdict = j.check_step(step_id, state, officer, at, cleaned)
        assert verdict.allowed, (step_id, verdict.as_dict())
        taken = TakenStep(
            step_id, at, officer.id, cleaned.get("outcome"), j.events_of(step_id, at, cleaned), cleaned
        )
        designation = cleaned.get("designation") or state.designation
        return CaseState(designation, state.incident_date, (*state.taken, taken))

    state = take(state, "declare", "2024-05-02", designation="dangerous", basis="serious bite")
    contents = {"contents": "all", "received_on": "2024-05-03"} if jurisdiction == "battle-lake-mn" else {}
    state = take(
        state,
        "serve_destruction_notice",
        "2024-05-03",
        served_on="2024-05-03",
        incident="a second attack",
        method="handed to the owner",
        **contents,
    )
    verdict = j.check_step(
        "destroy", state, officer, noon("2024-06-10"), {"facts": "x", "unprovoked_harm": True}
    )
    assert not verdict.allowed
    assert "missing_step" in verdict.codes  # the declaration was never served


def test_a_potentially_dangerous_dog_owes_no_347_541_times():
    """347.541 speaks of a dog declared dangerous: even with the events that start them recorded, a potentially
    dangerous dog's case owes no state time to request a hearing, hold it, decide it or comply after it."""
    events = {
        "notice_date": dt.date(2026, 5, 5),
        "hearing_request_received": dt.date(2026, 5, 8),
        "hearing_closed": dt.date(2026, 5, 12),
        "decision_received": dt.date(2026, 5, 20),
    }
    for jurisdiction in ("mn-statute", "tracy-mn"):
        j = library().get(jurisdiction)
        declare = TakenStep(
            "declare", noon("2026-05-04"), "officer", events={"declaration": dt.date(2026, 5, 4)}
        )
        record = TakenStep("serve_notice", noon("2026-05-20"), "officer", events=events)
        state = CaseState("potentially_dangerous", dt.date(2026, 5, 1), (declare, record))
        owed = {o.deadline_id for o in j.obligations(state, noon("2026-05-21"))}
        assert not owed & {
            "owner.request_hearing",
            "city.hold_hearing",
            "city.issue_decision",
            "owner.comply_after_decision",
        }, jurisdiction
        for did in ("owner.request_hearing", "owner.comply_after_decision"):
            assert not j.deadline_applies(did, "potentially_dangerous")
            with pytest.raises(InputError) as caught:
                j.deadline(did, events, designation="potentially_dangerous")
            assert caught.value.field == "designation" and "347.541" in str(caught.value)
        assert j.deadline("owner.request_hearing", events, designation="dangerous")["due"] == "2026-05-19"


def test_battle_lake_potentially_dangerous_times_come_from_its_own_text():
    j = library().get("battle-lake-mn")
    events = {"notice_date": dt.date(2026, 5, 5), "notice_received": dt.date(2026, 5, 8)}
    pdd = j.deadline("owner.request_hearing", events, designation="potentially_dangerous")
    assert [e["provision"]["provision"] for e in pdd["entries"]] == [
        "battle-lake-mn:B.2.b",
        "battle-lake-mn:H.deadline",
    ]
    # (B)(2)(c): immediate compliance; no 14 days after the decision for a potentially dangerous dog
    assert not j.deadline_applies("owner.comply_after_decision", "potentially_dangerous")
    dangerous = j.deadline("owner.request_hearing", events, designation="dangerous")
    assert "mn-statute:347.541.1" in [e["provision"]["provision"] for e in dangerous["entries"]]


def test_a_dangerous_dogs_notice_states_the_hearing_on_prior_potentially_dangerous_declarations():
    """347.541 subd. 3(2): the hearing concerns the dangerous declaration and, if applicable, prior potentially
    dangerous declarations; § 90.15 (C)(2)(b) omits the second half: the state element is required too, and the
    omission is listed among the conflicts."""
    j = library().get("battle-lake-mn")
    choices = j.input_choices("serve_notice", _declared(j, "dangerous"), noon("2024-05-03"))["contents"]
    state_right = next(c for c in choices if c["value"] == "mn-statute:347.541.3/hearing_right")
    assert "prior potentially dangerous dog declarations" in state_right["label"]
    city_right = next(c for c in choices if c["value"] == "battle-lake-mn:C.2/hearing_right")
    assert "prior potentially dangerous" not in city_right["label"]
    found = {(c["kind"], c["topic"]): c for c in j.conflicts(dt.date(2024, 6, 1))}
    omission = found[("wording", "§ 90.15 (C)(2)(b)")]
    assert "if applicable, on prior potentially dangerous dog declarations" in omission["summary"]
    assert "C2b-prior-pdd-hearing-omitted" in {d.id for d in j.defects}


def test_347_52_paragraph_a_holds_enclosure_muzzle_and_leash_and_c_the_death_or_transfer_notice():
    state = library().get("mn-statute").pack.provisions
    assert state["347.52.a"].versions[-1].citation == "Minn. Stat. § 347.52(a)"
    assert state["347.52.a.restraint"].versions[-1].citation == "Minn. Stat. § 347.52(a)"
    for pid in ("347.52.c", "347.52.death_transfer", "347.52.death_transfer.transfer"):
        assert state[pid].versions[-1].citation == "Minn. Stat. § 347.52(c)", pid
    j = library().get("battle-lake-mn")
    leash = j.pack.provisions["D"].versions[-1]
    assert leash.state_provision == "347.52.a.restraint"
    assert "347.52 (a)" in leash.differs_from_state and "347.52 (c)" not in leash.differs_from_state
    pending = j.pack.provisions["C.2.c"].versions[-1].effect["what"]
    assert "(a) (proper enclosure, and muzzle and leash outside it)" in pending
    assert "(c) (written notice of the dog's death or transfer)" in pending


def test_a_step_stored_with_a_retired_hearing_event_is_read_as_the_close_of_the_hearing():
    # cases recorded when the hearing had two events (held, closed) keep their dates: the close wins
    old = TakenStep(
        "hold_hearing",
        noon("2024-05-16"),
        "ho",
        events={"hearing_held": dt.date(2024, 5, 15), "hearing_closed": dt.date(2024, 5, 16)},
    )
    only_held = TakenStep(
        "hold_destruction_hearing",
        noon("2024-06-20"),
        "ho",
        events={"destruction_hearing_held": dt.date(2024, 6, 20)},
    )

    assert dict(old.events) == {"hearing_closed": dt.date(2024, 5, 16)}
    assert dict(only_held.events) == {"destruction_hearing_closed": dt.date(2024, 6, 20)}


def test_a_notice_of_intended_destruction_without_its_contents_is_not_served():
    # (K) read with (H): the notice must state the incident, the right to a hearing, the 14 days and where to
    # file; a notice missing one is refused on the field, so it records no destruction_notice_date
    j = library().get("battle-lake-mn")
    state = _declared(j)
    at = noon("2024-06-03")
    choices = j.input_choices("serve_destruction_notice", state, at)["contents"]
    # (K)'s four, then the state's three of 347.56 (the floor: the city's letter states them too)
    assert [c["value"].split("/")[-1] for c in choices] == [
        "incident",
        "hearing_right",
        "time_to_request",
        "where_to_file",
        "incident",
        "intended_destruction",
        "time_to_request",
    ]
    base = {"served_on": "2024-06-03", "incident": "bit a passer-by", "method": "personal service"}
    with pytest.raises(InputError) as caught:
        j.validate_inputs(
            "serve_destruction_notice", state, {**base, "contents": [c["value"] for c in choices[:2]]}, at
        )
    assert caught.value.field == "inputs.contents"
    assert "§ 90.15 (K)" in caught.value.rule
    cleaned = j.validate_inputs("serve_destruction_notice", state, {**base, "contents": "all"}, at)
    assert j.events_of("serve_destruction_notice", at, cleaned) == {
        "destruction_notice_date": dt.date(2024, 6, 3)
    }


def test_the_destruction_costs_are_cited_only_where_destruction_is_determined_after_an_appeal():
    # (K): "Upon determination following appeal that destruction is appropriate, the owner ... shall pay the
    # costs": the Council's confirmation, not the destruction after an unused window
    steps = {s.id: s for s in library().get("battle-lake-mn").procedure(dt.date(2024, 6, 1))}
    cites = {sid: {p["provision"] for p in step.provisions} for sid, step in steps.items()}
    assert "battle-lake-mn:K.cost" in cites["confirm_or_rescind_destruction"]
    assert "battle-lake-mn:K.cost" not in cites["destroy"]
    assert "battle-lake-mn:K.cost" not in cites["decide_destruction"]


def test_the_registration_deadline_is_explained_by_the_truncation_of_c4_not_the_2023_caveat():
    # both defects name (C)(4); the missing start is explained by the one about the cut-off text, which always
    # holds, not by the caveat on dates before the 2023 amendment
    j = library().get("battle-lake-mn")
    register = next(
        o for o in j.obligations(_declared(j), noon("2024-05-10")) if o.deadline_id == "owner.register"
    )
    assert register.status == "undetermined"
    assert "cut off mid-sentence" in register.reason
    assert "2023 amendment" not in register.reason


def test_an_obligation_is_worded_by_the_provision_that_sets_it_for_the_case():
    """owner.request_hearing is set by Tracy's Subd 4.A for a vicious dog and by 347.541 for a dangerous one:
    the vicious dog's owner is told of a hearing on the classification, not on a dangerous declaration."""
    j = library().get("tracy-mn")
    classified = TakenStep(
        "notify_classification",
        noon("2026-05-04"),
        "clerk",
        events={"notice_date": dt.date(2026, 5, 4), "notice_sent": dt.date(2026, 5, 4)},
    )
    vicious = CaseState("vicious", dt.date(2026, 5, 1), (classified,))
    owed = {o.deadline_id: o for o in j.obligations(vicious, noon("2026-05-05"))}
    assert "dangerous" not in owed["owner.request_hearing"].what
    assert owed["owner.request_hearing"].what == j.pack.provisions["4.A.request"].versions[-1].effect["what"]
    answer = j.deadline(
        "owner.request_hearing", {"notice_sent": dt.date(2026, 5, 4)}, designation="dangerous"
    )
    assert "dangerous" in answer["what"]

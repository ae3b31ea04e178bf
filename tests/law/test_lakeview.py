"""Lakeview (an invented Minnesota city, tests/law/packs/lakeview-mn) over the real state pack: a city's own
facts, event, roles, service methods, a conditional notice element, two amounts and a withdrawal — by data."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from dogcase.law import Actor, CaseState, InputError, TakenStep
from dogcase.law.loader import Library

from .lakeview import install_lakeview

CHICAGO = ZoneInfo("America/Chicago")
INCIDENT = dt.date(2026, 3, 2)
BITE = {
    "bit": True,
    "victim": "human",
    "injury": "permanent_disfigurement",
    "provoked": False,
}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return Library(install_lakeview(tmp_path_factory.mktemp("lakeview") / "packs"))


@pytest.fixture(scope="module")
def j(lib):
    return lib.get("lakeview-mn")


def noon(day: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(12), tzinfo=CHICAGO)


def staff(j, *roles: str, name: str | None = None) -> Actor:
    return Actor(name or "-".join(roles), j.pack_roles_for(roles))


def take(j, state: CaseState, step: str, actor: Actor, day: str, inputs: dict) -> CaseState:
    at = noon(day)
    cleaned = j.validate_inputs(step, state, inputs, at)
    verdict = j.check_step(step, state, actor, at, cleaned)
    assert verdict.allowed, [r.reason for r in verdict.refusals]
    designation = state.designation
    if verdict.step.opens_case:
        designation = cleaned["designation"]
    taken = TakenStep(step, at, actor.id, cleaned.get("outcome"), j.events_of(step, at, cleaned), cleaned)
    return CaseState(designation, state.incident_date, (*state.taken, taken), state.settings)


def declared(j) -> CaseState:
    sheriff = staff(j, "police_officer", name="sheriff")
    return take(
        j,
        CaseState(None, INCIDENT),
        "declare_aggressive",
        sheriff,
        "2026-03-03",
        {
            "designation": "aggressive",
            "basis": "bit a child's face (§ 5.01)",
        },
    )


# ------------------------------------------------------------------------------------------------ facts


def test_the_city_facts_are_asked_only_in_lakeview(lib, j):
    assert j.facts.facts["prior_written_warning"].pack == "lakeview-mn"
    injury = j.facts.facts["injury"]
    # placed by the pack (after: great_bodily_harm): it ranks below death, not last
    assert injury.ordered_values[-2:] == ("permanent_disfigurement", "death")
    assert injury.label_of("permanent_disfigurement").startswith("Permanent disfigurement")
    assert injury.added_values == {"permanent_disfigurement": "lakeview-mn"}
    for other in ("battle-lake-mn", "tracy-mn", "mn-statute"):
        vocabulary = lib.get(other).facts
        assert "prior_written_warning" not in vocabulary.facts
        assert "permanent_disfigurement" not in vocabulary.facts["injury"].values
        with pytest.raises(InputError):
            vocabulary.parse({"injury": "permanent_disfigurement"})


def test_classify_with_a_city_value_of_a_shared_fact(j):
    answer = j.classify(j.facts.parse(BITE), INCIDENT).as_dict()
    aggressive = next(d for d in answer["designations"] if d["designation"] == "aggressive")
    assert aggressive["status"] == "eligible"
    assert [m["citation"] for m in aggressive["matched"]] == ["Lakeview City Code § 5.01"]


def test_classify_with_a_city_fact_and_ask_it_when_unknown(j):
    facts = {
        "bit": True,
        "victim": "human",
        "injury": "minor",
        "provoked": False,
        "leash_status": "unleashed",
    }
    unknown = j.classify(j.facts.parse(facts), INCIDENT).as_dict()
    aggressive = next(d for d in unknown["designations"] if d["designation"] == "aggressive")
    assert aggressive["status"] == "undetermined"
    assert [m["fact"] for m in aggressive["missing_facts"]] == ["prior_written_warning"]
    assert "written warning" in aggressive["missing_facts"][0]["question"]
    warned = j.classify(j.facts.parse(dict(facts, prior_written_warning=True)), INCIDENT).as_dict()
    aggressive = next(d for d in warned["designations"] if d["designation"] == "aggressive")
    assert aggressive["status"] == "eligible"
    assert [m["citation"] for m in aggressive["matched"]] == ["Lakeview City Code § 5.01 (b)"]


# ------------------------------------------------------------------------------------------ the case


def test_a_county_sheriff_declares_through_the_police_officer_staff_role(j):
    assert "county_sheriff" in j.pack_roles_for(["police_officer"])
    state = CaseState(None, INCIDENT)
    inputs = {"designation": "aggressive", "basis": "bit"}
    refused = j.check_step(
        "declare_aggressive", state, staff(j, "animal_control_officer"), noon("2026-03-03"), inputs
    )
    assert refused.codes == ["not_empowered"]
    assert "Lake County Sheriff" in refused.refusals[0].reason
    assert declared(j).designation == "aggressive"


def test_the_notice_is_served_by_a_city_method_to_the_owner_of_record(j):
    state = declared(j)
    step = j.step("serve_declaration_notice", dt.date(2026, 3, 4))
    assert [(r["rule"], r["words"]) for r in step.recipients] == [
        ("owner_of_record_else_any_owner", "the owner of record or, if there is none, any owner")
    ]
    assert step.as_dict()["recipients"][0]["provision"]["citation"] == "Lakeview City Code § 5.03"
    choices = j.input_choices("serve_declaration_notice", state, noon("2026-03-04"))
    assert [(c["value"], c["label"]) for c in choices["method"]] == [
        ("personal", "personal"),
        ("email", "E-mail to the owner's address on file"),
        ("certified_mail", "certified mail"),
    ]


def test_a_notice_element_for_a_seized_dog_is_required_only_once_the_dog_was_seized(j):
    state = declared(j)
    choices = j.input_choices("serve_declaration_notice", state, noon("2026-03-04"))["contents"]
    seized = next(c for c in choices if c["value"].endswith("/seized_dog"))
    assert (seized["applies"], seized["when"]) == (False, "if the dog was seized")
    # not seized: the two other elements make a complete notice, and "all" records only them
    two = [c["value"] for c in choices if c is not seized]
    inputs = {"served_on": "2026-03-04", "method": "email", "contents": two}
    assert j.validate_inputs("serve_declaration_notice", state, inputs, noon("2026-03-04"))[
        "contents"
    ] == tuple(two)
    cleaned = j.validate_inputs(
        "serve_declaration_notice", state, dict(inputs, contents="all"), noon("2026-03-04")
    )
    assert cleaned["contents"] == tuple(two)

    # seized (on the immediate ground the city's insurance notice opens, below): now the element is required
    seized_state = _seized(j, state)
    with pytest.raises(InputError) as caught:
        j.validate_inputs("serve_declaration_notice", seized_state, inputs, noon("2026-03-20"))
    assert caught.value.field == "inputs.contents"
    assert "Where the seized dog is held" in caught.value.rule
    assert "Lakeview City Code § 5.03" in caught.value.rule
    all_three = j.validate_inputs(
        "serve_declaration_notice", seized_state, dict(inputs, contents="all"), noon("2026-03-20")
    )["contents"]
    assert len(all_three) == 3


def _seized(j, state: CaseState) -> CaseState:
    clerk = staff(j, "city_clerk", name="clerk")
    state = take(
        j,
        state,
        "send_insurance_notice",
        clerk,
        "2026-03-04",
        {"sent_on": "2026-03-04", "method": "restricted_delivery_mail", "contents": "all"},
    )
    sheriff = staff(j, "police_officer", name="sheriff")
    return take(j, state, "seize_aggressive", sheriff, "2026-03-17", {"ground": "no_insurance"})


def test_the_city_event_starts_the_owners_time_and_the_seizure_waits_for_it(j):
    state = declared(j)
    clerk = staff(j, "city_clerk", name="clerk")
    state = take(
        j,
        state,
        "send_insurance_notice",
        clerk,
        "2026-03-04",
        {"sent_on": "2026-03-04", "method": "restricted_delivery_mail", "contents": "all"},
    )
    assert state.taken[-1].events == {"certified_notice_sent": dt.date(2026, 3, 4)}
    obligations = {o.deadline_id: o for o in j.obligations(state, noon("2026-03-05"))}
    insurance = obligations["owner.prove_insurance"]
    # ten days from Wednesday 4 March end on Saturday 14 March: 645.15 carries them to Monday 16 March
    assert (insurance.due, insurance.status) == (dt.date(2026, 3, 16), "open")
    assert [c["citation"] for c in insurance.citations] == ["Lakeview City Code § 5.06"]
    assert insurance.consequences[0]["what"].startswith("Seizure authorized under Lakeview City Code § 5.07")
    trace = " ".join(insurance.answer["entries"][0]["trace"])
    assert "the sending of the certified-mail notice to insure the dog" in trace

    sheriff = staff(j, "police_officer", name="sheriff")
    early = j.check_step("seize_aggressive", state, sheriff, noon("2026-03-16"), {"ground": "no_insurance"})
    assert early.codes == ["no_ground"]
    assert "applies only after Monday 16 March 2026" in early.refusals[0].reason
    late = j.check_step("seize_aggressive", state, sheriff, noon("2026-03-17"), {"ground": "no_insurance"})
    assert late.allowed
    overdue = {o.deadline_id: o for o in j.obligations(state, noon("2026-03-17"))}
    assert overdue["owner.prove_insurance"].status == "overdue"


def test_declare_serve_appeal_schedule_and_hold_the_hearing(j):
    state = declared(j)
    clerk = staff(j, "city_clerk", name="clerk")
    notice = j.input_choices("serve_declaration_notice", state, noon("2026-03-04"))["contents"]
    state = take(
        j,
        state,
        "serve_declaration_notice",
        clerk,
        "2026-03-04",
        {
            "served_on": "2026-03-04",
            "method": "email",
            "contents": [c["value"] for c in notice if c.get("applies", True)],
        },
    )
    appeal = {o.deadline_id: o for o in j.obligations(state, noon("2026-03-05"))}["owner.request_hearing"]
    # only the city's 10 days set an aggressive dog's time (the state's 14 days are for its designations)
    assert (appeal.due, appeal.right) == (dt.date(2026, 3, 16), True)  # Saturday 14 March, carried to Monday
    assert [c["citation"] for c in appeal.citations] == ["Lakeview City Code § 5.04"]
    late = j.check_step("receive_appeal", state, clerk, noon("2026-03-17"), {"received_on": "2026-03-17"})
    assert late.codes == ["too_late"]
    state = take(j, state, "receive_appeal", clerk, "2026-03-12", {"received_on": "2026-03-12"})
    beyond = j.check_step(
        "schedule_appeal_hearing",
        state,
        clerk,
        noon("2026-03-13"),
        {"hearing_at": "2026-03-30T10:00:00-05:00"},
    )
    assert beyond.codes == ["too_late"]
    state = take(
        j, state, "schedule_appeal_hearing", clerk, "2026-03-13", {"hearing_at": "2026-03-20T10:00:00-05:00"}
    )
    administrator = staff(j, "hearing_officer", name="administrator")
    assert not j.check_step(
        "hold_appeal_hearing", state, clerk, noon("2026-03-20"), {"held_on": "2026-03-20"}
    ).allowed
    state = take(j, state, "hold_appeal_hearing", administrator, "2026-03-20", {"held_on": "2026-03-20"})
    obligations = {o.deadline_id: o for o in j.obligations(state, noon("2026-03-21"))}
    assert obligations["city.hold_hearing"].status == "met"
    assert obligations["owner.request_hearing"].status == "met"


# ------------------------------------------------------------------------------- service methods, amounts


def test_a_city_method_meets_the_state_notice_only_as_a_form_of_a_state_method(j):
    # a dog declared dangerous under state law in Lakeview: § 5.09 offers e-mail and restricted-delivery mail,
    # but 347.541 subd. 3 is the floor: restricted delivery is certified mail, which is mail; e-mail is not
    state = CaseState(
        "dangerous",
        INCIDENT,
        (TakenStep("declare", noon("2026-03-03"), "x", events={"declaration": dt.date(2026, 3, 3)}),),
    )
    methods = j.input_choices("serve_notice", state, noon("2026-03-04"))["method"]
    assert [(m["value"], m["label"]) for m in methods] == [
        ("personal", "personal"),
        ("restricted_delivery_mail", "Certified mail, restricted delivery"),
    ]
    assert j.service_method_forms["restricted_delivery_mail"] == ("certified_mail",)


def test_each_amount_is_compared_with_the_state_amount(j):
    found = [c for c in j.conflicts(dt.date(2026, 3, 2)) if c["kind"] == "amount"]
    assert [(c["topic"], c["city"]["value"], c["state"]["value"]) for c in found] == [
        ("requirement liability_coverage: per_person", "$500,000 per person", "$300,000"),
        ("requirement liability_coverage: per_incident", "$1,000,000 per incident", "$300,000"),
    ]
    assert [c["applied"].split(":")[0] for c in found] == ["$500,000", "$1,000,000"]
    assert all(c["state"]["citation"].startswith("Minn. Stat. § 347.51, subd. 2") for c in found)


# ---------------------------------------------------------------------------------- withdrawn steps


def test_the_city_withdraws_registration_of_the_dangerous_dogs_it_bans(j):
    day = dt.date(2026, 3, 2)
    assert "issue_certificate" not in {s.id for s in j.procedure(day)}
    withdrawn = j.withdrawals(day)
    assert withdrawn[0]["steps"] == [
        {"id": "issue_certificate", "label": "Issue the certificate of registration"}
    ]
    assert withdrawn[0]["provision"]["citation"] == "Lakeview City Code § 5.08"
    registered = CaseState(
        "dangerous",
        INCIDENT,
        (
            TakenStep("declare", noon("2026-03-03"), "x", events={"declaration": dt.date(2026, 3, 3)}),
            TakenStep(
                "record_event", noon("2026-03-04"), "x", events={"registration_issued": dt.date(2026, 3, 4)}
            ),
        ),
    )
    ids = {o.deadline_id for o in j.obligations(registered, noon("2026-03-05"))}
    assert "owner.renew_registration" not in ids
    assert "owner.request_review" in ids  # the owner's rights stay


def test_the_source_url_is_shown(j):
    layers = j.show(dt.date(2026, 3, 2))["layers"]
    assert layers[1]["source"]["url"] == "https://example.org/lakeview-mn/city-code/chapter-5"


def test_a_time_whose_city_event_is_not_given_says_so_in_the_citys_words(j):
    answer = j.deadline("owner.prove_insurance", {"notice_date": dt.date(2026, 3, 2)})

    assert answer["status"] == "undetermined"
    assert answer["reasons"] == [
        "the date of the sending of the certified-mail notice to insure the dog is not given"
    ]

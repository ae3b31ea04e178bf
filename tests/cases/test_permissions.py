"""Every staff role against every legal act of both cities: who the ordinance empowers, checked on the server.

The table is the law, read from the texts: § 90.15 (B)(1), (C)(1) (officer or law enforcement declares), (H)
and (I)(1) (appeals to the City Clerk/Treasurer), (I)(3)-(4) and (B)(2)(e), (C)(3) (an impartial hearing
officer decides and recommends, the clerk or the officer convenes the hearing, the Council confirms or
rescinds), (C)(5) (the clerk issues the certificate), (J)
and (K) (seizure and destruction); Tracy § 8.31 Subd 2 (City Administrator and/or Chief of Police classify),
Subd 4 and 8 (the Council hears and decides; requests go to the City Administrator), Subd 6 (the Council
orders impoundment). The auditor and the administrator take no legal act.
"""

import datetime as dt

import pytest

from dogcase.cases import acts
from dogcase.cases.roles import ROLES
from dogcase.law import Actor, CaseState, library

AT = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
OFFICER, POLICE, CLERK, HEARING, COUNCIL = (
    "animal_control_officer",
    "police_officer",
    "city_clerk",
    "hearing_officer",
    "council_clerk",
)

BATTLE_LAKE = {
    "declare": {OFFICER, POLICE},
    "serve_notice": {OFFICER, POLICE, CLERK},
    "record_notice_receipt": {OFFICER, POLICE, CLERK},
    "record_further_service": {OFFICER, POLICE, CLERK},  # as serve_notice: whoever serves the notice
    "receive_hearing_request": {CLERK},
    "schedule_hearing": {CLERK},
    # (I)(3): "The City Clerk/Treasurer or a designated hearing officer shall convene a hearing" — either may
    # hold it, impartial. The decision and the written recommendation are the hearing officer's alone:
    # (B)(2)(g), (C)(3) "The hearing officer shall issue a decision"; (I)(4) "the hearing officer shall make a
    # written recommendation" (issue 19 item 4: the clerk who convenes does not decide).
    "hold_hearing": {CLERK, HEARING},
    "decide_appeal": {HEARING},
    "recommend": {HEARING},
    "record_decision_receipt": {OFFICER, POLICE, CLERK, HEARING},  # clerical: the return receipt comes back
    "confirm_or_rescind": {COUNCIL},
    "issue_certificate": {CLERK},
    "record_sterilization": {OFFICER},
    "seize": {OFFICER, POLICE},
    "post_security": {OFFICER},
    "release": {OFFICER},
    "dispose": {OFFICER},
    # (K): notice of the intended destruction by the officer who may destroy; the request is filed with the
    # City Clerk/Treasurer ((H)); an impartial hearing officer (or the clerk, (I)(3)) hears; the hearing
    # officer alone determines ((C)(3), (I)(4))
    "serve_destruction_notice": {OFFICER},
    "record_destruction_notice_receipt": {OFFICER, CLERK},  # clerical: (H)'s receipt, read with (K)
    "receive_destruction_hearing_request": {CLERK},
    "schedule_destruction_hearing": {CLERK},  # (I)(1), as for the appeal of the declaration
    "hold_destruction_hearing": {CLERK, HEARING},
    "decide_destruction": {HEARING},
    "confirm_or_rescind_destruction": {COUNCIL},  # (I)(4)
    "destroy": {OFFICER},
    "review_designation": {OFFICER},
    "receive_review_request": {OFFICER, CLERK},  # the owner's request, received; the review decides it
    "record_transfer": {OFFICER},
    "record_move": {OFFICER},
    "record_death": {OFFICER},
    "record_landlord_disclosure": {OFFICER, CLERK},
    # the registration's application is received by the City Clerk/Treasurer, who issues the certificate
    # ((C)(5)); a citation (penalty: § 90.99) by the officers § 90.15 gives its enforcement
    "apply_for_registration": {CLERK},
    "issue_citation": {OFFICER, POLICE},
    "record_citation_outcome": {OFFICER, POLICE},
    # 347.542 (state, concerning the owner): the authority or law enforcement agency records the conviction
    # (347.565); the animal control authority records the ban and reviews it
    "record_conviction": {OFFICER, POLICE},
    "record_ownership_ban": {OFFICER},
    "review_ownership_ban": {OFFICER},
}

TRACY = {
    "declare": {OFFICER, POLICE},  # the state layer (347.565): a Tracy dog may be declared under state law
    "classify": {POLICE, CLERK},
    "notify_classification": {POLICE, CLERK},
    "post_notice_owner_not_located": {POLICE, CLERK},
    "record_further_classification_notice": {POLICE, CLERK},  # as notify_classification (Subd 3)
    "record_further_posted_notice": {POLICE, CLERK},  # as post_notice_owner_not_located (Subd 3)
    "receive_classification_appeal": {CLERK},
    "hold_classification_hearing": {COUNCIL},
    "decide_classification_appeal": {COUNCIL},
    "receive_insurance_proof": {CLERK},
    "order_impoundment": {COUNCIL},
    "impound": {POLICE},
    "notify_impoundment": {POLICE, CLERK},
    "record_further_impoundment_notice": {POLICE, CLERK},  # as notify_impoundment (Subd 7)
    "receive_impoundment_appeal": {CLERK},
    "hold_impoundment_hearing": {COUNCIL},
    "decide_impoundment": {COUNCIL},
    "order_after_default": {COUNCIL},
    "release_impounded_dog": {POLICE},
    # Subd 6, 8.D, 8.E: the Council orders destruction; the text is silent on who carries it out — the pack's
    # reading: the Police Department holding the dog (the state's 347.56 authority is for state designations)
    "destroy_impounded_dog": {POLICE},
    "transfer_to_responsible_person": {COUNCIL},
    "record_escape_or_attack": {POLICE},
    "receive_owner_report": {POLICE},
    "record_vicious_transfer": {POLICE, CLERK},
    "record_vicious_death": {POLICE, CLERK},
    # Subd 12: a misdemeanor, cited by the Police Department (the pack's reading)
    "issue_citation": {POLICE},
    "record_citation_outcome": {POLICE},
    # 347.542 (state, concerning the owner): the authority or law enforcement agency records the conviction
    # (347.565); the animal control authority records the ban and reviews it
    "record_conviction": {OFFICER, POLICE},
    "record_ownership_ban": {OFFICER},
    "review_ownership_ban": {OFFICER},
}

CASES = [
    ("battle-lake-mn", "potentially_dangerous", BATTLE_LAKE),
    ("battle-lake-mn", "dangerous", BATTLE_LAKE),
    ("tracy-mn", "vicious", TRACY),
]


def rows():
    for city, designation, table in CASES:
        j = library().get(city)
        for step in j.procedure(AT.date()):
            state = CaseState(designation=None if step.opens_case else designation, incident_date=AT.date())
            if not step.applies_to(state.designation):
                continue
            for role in ROLES:
                yield pytest.param(
                    city,
                    designation,
                    step.id,
                    role.group,
                    table,
                    id=f"{city}-{designation}-{step.id}-{role.group}",
                )


@pytest.mark.parametrize(("city", "designation", "step_id", "role", "table"), list(rows()))
def test_role_against_act(city, designation, step_id, role, table):
    j = library().get(city)
    step = next(s for s in j.procedure(AT.date()) if s.id == step_id)
    assert step_id in table, f"{step_id} is a new step: add it to the table with the roles the text empowers"
    state = CaseState(designation=None if step.opens_case else designation, incident_date=AT.date())
    verdict = j.check_step(step_id, state, Actor("1", j.pack_roles_for([role])), AT, {})
    empowered = "not_empowered" not in verdict.codes
    assert empowered == (role in table[step_id])
    if not empowered:
        refusal = next(r for r in verdict.refusals if r.code == "not_empowered")
        assert refusal.reason and (refusal.provision or step.roles_reading)


def test_every_step_of_the_table_exists():
    for city, designation, table in CASES:
        steps = {
            s.id
            for s in library().get(city).procedure(AT.date())
            if s.for_ is None or designation in s.for_ or s.opens_case
        }
        assert set(table) >= steps, city


def test_the_auditor_is_refused_every_act_on_the_server(story, staff):
    s = story("battle-lake-mn")
    for step_id in BATTLE_LAKE:
        with pytest.raises(acts.Refused) as info:
            acts.take_step(
                s.case, step_id, actor=staff["auditor"], inputs={}, expected_version=s.case.version
            )
        assert info.value.refusals[0]["code"] == "read_only"
    assert s.case.events.filter(kind="step").count() == 0


def test_the_auditor_may_not_record_incidents_the_administrator_may(staff):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        acts.record_person(jurisdiction="tracy-mn", actor=staff["auditor"], full_name="X")
    person = acts.record_person(jurisdiction="tracy-mn", actor=staff["admin"], full_name="Y")
    assert person.pk

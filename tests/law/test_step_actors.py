"""Who may take the Battle Lake steps whose actors issue 19 (item 4) corrected, read from § 90.15.

(B)(2)(g) and (C)(3): "The hearing officer shall issue a decision in the matter within ten days after the
hearing." (I)(4): "the hearing officer shall make a written recommendation to the City Council". (I)(3) lets
"The City Clerk/Treasurer or a designated hearing officer" convene the hearing, nothing more: the clerk who
receives the appeal and convenes the hearing does not decide it. The (K) destruction hearing is a hearing "on
an appeal under the provision of this section", so the same provisions say who decides it.

Each row: step, designation, legal role, allowed, the provision the answer must cite. Checked two ways: the
engine's verdict for an actor with that role only, and the citation it gives (the authority it used, or the
provision a refusal cites).
"""

import datetime as dt

import pytest

from dogcase.law import Actor, CaseState, library

AT = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
CITY = "battle-lake-mn"
HEARING, CLERK, COUNCIL, OFFICER = (
    "hearing_officer",
    "city_clerk_treasurer",
    "city_council",
    "animal_control_officer",
)
PDD, DD = "potentially_dangerous", "dangerous"

ROWS = [
    # step, designation, pack role, may take it, provision cited
    ("decide_appeal", PDD, HEARING, True, "§ 90.15 (B)(2)(g)"),
    ("decide_appeal", PDD, CLERK, False, "§ 90.15 (B)(2)(g)"),
    ("decide_appeal", DD, HEARING, True, "§ 90.15 (C)(3)"),
    ("decide_appeal", DD, CLERK, False, "§ 90.15 (C)(3)"),
    ("decide_appeal", DD, COUNCIL, False, "§ 90.15 (C)(3)"),
    ("recommend", PDD, HEARING, True, "§ 90.15 (I)(4)"),
    ("recommend", PDD, CLERK, False, "§ 90.15 (I)(4)"),
    ("recommend", DD, HEARING, True, "§ 90.15 (I)(4)"),
    ("recommend", DD, CLERK, False, "§ 90.15 (I)(4)"),
    ("decide_destruction", PDD, HEARING, True, "§ 90.15 (B)(2)(g)"),
    ("decide_destruction", PDD, CLERK, False, "§ 90.15 (B)(2)(g)"),
    ("decide_destruction", DD, HEARING, True, "§ 90.15 (C)(3)"),
    ("decide_destruction", DD, CLERK, False, "§ 90.15 (C)(3)"),
    ("decide_destruction", DD, OFFICER, False, "§ 90.15 (C)(3)"),
    # unchanged, and still right: (I)(3) lets either convene the hearing
    ("hold_hearing", PDD, CLERK, True, "§ 90.15 (I)(3)"),
    ("hold_hearing", DD, CLERK, True, "§ 90.15 (I)(3)"),
    ("hold_hearing", DD, HEARING, True, "§ 90.15 (C)(3)"),
    ("hold_destruction_hearing", DD, CLERK, True, "§ 90.15 (I)(3)"),
    ("confirm_or_rescind", DD, COUNCIL, True, "§ 90.15 (I)(4)"),
    ("confirm_or_rescind", DD, HEARING, False, "§ 90.15 (I)(4)"),
]


def _step(step_id: str):
    return next(s for s in library().get(CITY).procedure(AT.date()) if s.id == step_id)


@pytest.mark.parametrize(
    ("step_id", "designation", "role", "allowed", "citation"),
    ROWS,
    ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in ROWS],
)
def test_who_may_take_the_step(step_id, designation, role, allowed, citation):
    j = library().get(CITY)
    step = _step(step_id)
    roles = step.roles_by_designation[designation]
    assert (role in roles) == allowed
    cited = [a["citation"] for a in step.authority[designation]]
    assert citation in cited, cited
    verdict = j.check_step(
        step_id,
        CaseState(designation=designation, incident_date=AT.date()),
        Actor("1", frozenset({role})),
        AT,
        {},
    )
    assert ("not_empowered" not in verdict.codes) == allowed
    if not allowed:
        refusal = next(r for r in verdict.refusals if r.code == "not_empowered")
        assert refusal.provision, "a refusal names the provision"


@pytest.mark.parametrize("designation", [PDD, DD])
@pytest.mark.parametrize("step_id", ["decide_appeal", "recommend", "decide_destruction"])
def test_only_the_hearing_officer_decides(step_id, designation):
    # no other role of either layer: the text names the hearing officer alone
    assert _step(step_id).roles_by_designation[designation] == frozenset({HEARING})

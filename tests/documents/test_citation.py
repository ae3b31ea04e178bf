"""A citation for a violation of the ordinance (issue 22, item 6): a document to the owner with the violation,
the penalty the law sets in its own words (Battle Lake's § 90.99 is not stored: the notice says where the
penalty is, and states no amount), and the court date; then the court's disposition."""

import pytest

from dogcase.cases import acts
from dogcase.money.models import Charge
from tests.documents.conftest import SERIOUS, at, pdf_text, without_footers


def cite(c, who, day, **more):
    inputs = {
        "number": "C-2026-118",
        "violated": "(C)(5)(e)",
        "violation": "On 3 June 2026 the dog was kept without the surety bond or liability insurance on file.",
        "cited_on": at(day).date().isoformat(),
        "court": "Otter Tail County Courthouse, 121 West Junius Avenue, Fergus Falls",
        "court_at": at(day + 30, 9).isoformat(),
    }
    inputs.update(more)
    return c.step("issue_citation", who, day, **inputs)


@pytest.mark.parametrize(
    ("city", "designation", "who", "penalty"),
    [
        ("battle-lake-mn", "dangerous", "officer", "§ 90.15 says: “Penalty, see § 90.99.”"),
        ("tracy-mn", "vicious", "police", "shall be guilty of a misdemeanor"),
    ],
)
def test_the_citation_tells_the_owner_the_violation_the_penalty_and_the_court(
    make_case, staff, city, designation, who, penalty
):
    c = make_case(city=city, facts=SERIOUS)
    if city == "tracy-mn":
        c.step("classify", "police", 1, designation="vicious", reasonable_cause="Unprovoked bite, Subd 1.B.2")
    else:
        c.declare(day=1, designation=designation)
    result = cite(c, who, 5)
    (doc,) = result.documents
    text = " ".join(without_footers(pdf_text(doc)).split())
    assert "Citation No. C-2026-118" in text and "(C)(5)(e)" in text
    assert penalty in text
    assert "Otter Tail County Courthouse" in text and "not a finding that you are guilty" in text
    assert "$" not in text.split("Your case online")[0]  # no amount is stated where the law sets none here
    assert not Charge.objects.filter(case=c.case).exists()
    # the court's disposition, recorded once the citation is
    event = c.step(
        "record_citation_outcome", who, 40, outcome="dismissed", decided_on=at(40).date().isoformat()
    ).event
    assert event.data["outcome"] == "dismissed"


def test_the_disposition_waits_for_a_citation(make_case):
    c = make_case(facts=SERIOUS)
    c.declare(day=1, designation="dangerous")
    with pytest.raises(acts.Refused):
        c.step(
            "record_citation_outcome", "officer", 5, outcome="convicted", decided_on=at(5).date().isoformat()
        )

"""The owner's pages name the registration only where the law registers the dog: the case page lists the
proof the law asks for now (its words and citations), under "Proof for the registration" when a condition is
one of the registration, "Proof the law asks of you" otherwise, and no proof section when the law asks none."""

import pytest
from django.test import Client

from dogcase.proofs.conditions import conditions, registered
from tests.cases.conftest import story  # noqa: F401
from tests.proofs.helpers import owner_of
from tests.staff.conftest import declare, officer, record_bite  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.proofs.urls")]


def owner_client(person):
    client = Client()
    session = client.session
    session["test_owner"] = person.pk
    session.save()
    return client


def test_a_dangerous_dog_s_owner_reads_the_conditions_of_registration(officer):  # noqa: F811
    case = record_bite(officer, city="tracy-mn")
    declare(case, officer, designation="dangerous")
    case.refresh_from_db()
    found = conditions(case)
    assert found and any(c.condition_of_registration for c in found)
    html = owner_client(owner_of(case)).get(f"/owner/cases/{case.number}/proof/").content.decode()
    assert "Proof for the registration" in html and "Before the city can register your dog" in html
    assert "Proof the law asks of you" not in html
    assert registered(case)


def test_a_potentially_dangerous_dog_s_owner_is_not_told_of_a_registration(officer):  # noqa: F811
    case = record_bite(officer, city="battle-lake-mn")
    declare(case, officer, designation="potentially_dangerous")
    case.refresh_from_db()
    found = conditions(case)
    # (C)(5)(b)'s proper enclosure, read as a requirement of both designations ((C)(5) lists it among the
    # dangerous dog's certificate conditions): proven by the owner, but there is no registration to name
    assert [c.citation for c in found if c.condition_of_registration] == ["§ 90.15 (C)(5)(b)"]
    assert not registered(case)
    html = owner_client(owner_of(case)).get(f"/owner/cases/{case.number}/proof/").content.decode()
    said = [line for line in html.splitlines() if "registration" in line.lower()]
    assert said == [] and "register your dog" not in html
    if found:
        assert "Proof the law asks of you" in html and "The law asks you to prove each of these." in html
        for c in found:
            assert c.citation in html
    else:
        assert "The law asks for no proof in this case now." in html


@pytest.mark.urls("config.urls")
@pytest.mark.parametrize(
    ("designation", "heading"),
    [("dangerous", "Proof for the registration"), ("potentially_dangerous", "Proof the law asks of you")],
)
def test_the_owner_s_case_page_lists_the_proof_asked_under_the_right_heading(story, designation, heading):  # noqa: F811
    from tests.owners.conftest import served_recently
    from tests.owners.test_portal import issue, sign_in

    s = served_recently(story, designation=designation)
    client = Client()
    assert sign_in(client, issue(s)).status_code == 302
    html = client.get(f"/owner/cases/{s.case.number}/").content.decode()
    found = conditions(s.case)
    # Battle Lake asks both owners for proof: (C)(5)(b)'s enclosure is read as of both designations
    assert found
    assert f'<h2 id="proof-h">{heading}</h2>' in html
    for c in found:
        assert c.citation in html
    other = {"Proof for the registration", "Proof the law asks of you"} - {heading}
    assert other.pop() not in html

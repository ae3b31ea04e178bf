"""The owner's hearing request in Spanish: what the hearing may cost and the reasons field are in Spanish, the
ordinance's own words quoted beside them marked as English."""

from django.test import Client

from dogcase.cases import updates
from tests.cases.conftest import SERIOUS, Story


def test_a_spanish_owner_reads_the_hearing_costs_in_spanish_with_the_ordinance_in_english(staff):
    from tests.owners.conftest import owner_of, served_recently
    from tests.owners.test_portal import issue, sign_in

    def story(city, day=0):
        return Story(staff, city, SERIOUS, day)

    s = served_recently(story, designation="dangerous")
    updates.update_person(
        owner_of(s), actor=s.staff["officer"], changes={"preferred_language": "es"}, reason="Asked for it"
    )
    client = Client()
    sign_in(client, issue(s))
    form = client.get(f"/owner/cases/{s.case.number}/file/receive_hearing_request").content.decode()
    assert "Lo que la audiencia le puede costar" in form
    assert "hasta $1,000, correrán por su cuenta" in form  # (C)(3): "actual expenses of the hearing"
    assert "Motivos para pedir una audiencia" in form
    quoted = form[form.index('<blockquote class="law-text" lang="en">') :]
    assert (
        "actual expenses of the hearing up to a maximum of $1,000" in quoted[: quoted.index("</blockquote>")]
    )

"""Records placed on the map, for the map's tests: a dog at its premises, its incident, its case."""

import datetime as dt
import itertools

from dogcase.cases import acts
from dogcase.cases.models import Case
from tests.incident_facts import UNPROVOKED_BITE_IN_PUBLIC
from tests.staff.conftest import declare

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"
# points inside each town
BATTLE_LAKE_POINT = ("46.280800", "-95.713900")
TRACY_POINT = ("44.233300", "-95.619200")

_names = itertools.count(1)


def dog_at_home(actor, *, city=BATTLE_LAKE, point=None, occurred_at=None, incident_point=None) -> Case:
    """An owner, premises (at `point`, when given), a dog, its bite incident (at `incident_point`) and case."""
    n = next(_names)
    owner = acts.record_person(
        jurisdiction=city, actor=actor, full_name=f"Map Owner {n}", street=f"{n} Elm St"
    )
    premises = acts.record_premises(
        jurisdiction=city,
        actor=actor,
        street=f"{n} Elm St",
        city_name="Battle Lake" if city == BATTLE_LAKE else "Tracy",
    )
    if point:
        acts.set_location(premises, actor=actor, latitude=point[0], longitude=point[1], source="hand")
    dog = acts.record_dog(
        jurisdiction=city, actor=actor, owners=[owner], premises=premises, name=f"Mapdog {n}", breed="Boxer"
    )
    incident = acts.record_incident(
        jurisdiction=city,
        actor=actor,
        occurred_at=occurred_at or acts.now() - dt.timedelta(days=30),
        place=f"{n} Lake Ave",
        place_type="public",
        kind="bite",
        dogs=[dog],
        facts=dict(UNPROVOKED_BITE_IN_PUBLIC),
        victims=[{"kind": "human", "name": f"Victim {n}", "injury": "minor"}],
    )
    if incident_point:
        acts.set_location(
            incident, actor=actor, latitude=incident_point[0], longitude=incident_point[1], source="phone"
        )
    return acts.open_case(incident=incident, dog=dog, actor=actor)


def declared(case: Case, actor, designation: str) -> Case:
    declare(case, actor, designation=designation)
    case.refresh_from_db()
    if (
        not case.designation_in_effect
    ):  # the test needs it in effect, whatever the steps that follow would say
        Case.objects.filter(pk=case.pk).update(designation_in_effect=True)
        case.refresh_from_db()
    return case

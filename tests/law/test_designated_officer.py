"""A step may designate the person who is to take a later act (a `staff_member` input with `act:`, the hearing
officer of Battle Lake's scheduling): the engine holds that person to the act's impartiality at once."""

import pytest

from dogcase.law import InputError
from dogcase.law.errors import PackError

from .test_dates_in_order import requested
from .test_procedure import CITY_WITH_PROCEDURE, _load

FORM = {"hearing_at": "2024-05-16T18:00:00-05:00", "place": "City Hall", "contents": "all"}


def test_the_designated_hearing_officer_must_not_have_taken_part():
    j, state = requested()  # declared and served by the animal control officer
    with pytest.raises(InputError) as caught:
        j.validate_inputs(
            "schedule_hearing", state, {**FORM, "hearing_officer": "animal_control_officer"}, None
        )
    assert caught.value.field == "inputs.hearing_officer"
    assert "already took part in the case (“Declare the dog potentially dangerous or dangerous”" in (
        caught.value.rule
    )
    # the clerk who received the request took a clerical step only: still impartial
    cleaned = j.validate_inputs("schedule_hearing", state, {**FORM, "hearing_officer": "city_clerk"}, None)
    assert cleaned["hearing_officer"] == "city_clerk"
    step = j.step("schedule_hearing", state.incident_date)
    assert next(i for i in step.inputs if i.id == "hearing_officer").as_dict()["act"] == "hold_hearing"


def _refused_with_input(tmp_path, line: str) -> PackError:
    """The pack refused when its sending step has one more input, `line`."""
    sent = "      - {id: sent_on, kind: date, label: Date sent, records: notice_sent}\n"
    with pytest.raises(PackError) as caught:
        _load(tmp_path, CITY_WITH_PROCEDURE.replace(sent, sent + f"      - {line}\n"))
    return caught.value


def test_a_staff_member_input_names_its_act(tmp_path):
    caught = _refused_with_input(tmp_path, "{id: officer, kind: staff_member, label: Officer}")
    assert "names the act the person is designated to take" in str(caught)


def test_a_staff_member_input_is_named_hearing_officer(tmp_path):
    """The hearing officer's list finds the steps that designated them by this id (an index on it)."""
    caught = _refused_with_input(
        tmp_path, "{id: presiding, kind: staff_member, act: hold_hearing, label: Presiding officer}"
    )
    assert (
        "procedure[1].inputs[1]: a staff_member input has the id 'hearing_officer', not 'presiding'"
        in str(caught)
    )

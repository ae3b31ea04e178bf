"""What a person entered in a step's form, in words, for the case page: every input of the step, read from the
step's own `inputs` in the law pack (its labels, its choices), never from code written for one step."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from dogcase.law import InputError
from dogcase.staff.present import designation_label, humanize


def _date_words(value: Any) -> str | None:
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value) if "T" in value else dt.date.fromisoformat(value)
        except ValueError:
            return None
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).strftime("%a %-d %b %Y, %-I:%M %p")
    if isinstance(value, dt.date):
        return value.strftime("%a %-d %b %Y")
    return None


def staff_name(user) -> str:
    """A member of staff as the case page names them."""
    return user.get_full_name() or user.get_username()


class StepInputs:
    """Reads the inputs of the steps of one case."""

    def __init__(self, j, state, users: dict[str, Any] | None = None) -> None:
        self.j = j
        self.state = state
        self._people: dict[str, str] = {}
        # the users the page read already ({id as text: user or None}: `scheduled_hearings`' cache)
        self._users = users if users is not None else {}
        self._choices: dict[tuple[str, dt.date], dict[str, dict[str, str]]] = {}

    def person(self, user_id: Any) -> str:
        """The name of the member of staff an input names (the hearing officer), read once per page."""
        key = str(user_id)
        if key not in self._people:
            if key in self._users:
                user = self._users[key]
            else:
                user = get_user_model().objects.filter(pk=int(key)).first() if key.isdecimal() else None
            self._people[key] = staff_name(user) if user is not None else "a person no longer on record"
        return self._people[key]

    def step_of(self, step_id: str, at: dt.datetime, designation: str | None):
        if self.j is None:
            return None
        day = timezone.localtime(at).date()
        step = next((s for s in self.j.procedure(day) if s.id == step_id), None)
        return step.for_designation(designation) if step is not None else None

    def _labels(self, step_id: str, at: dt.datetime) -> dict[str, dict[str, str]]:
        """{input id: {value: label}} of the law's choices for the step's inputs (designations, methods,
        proofs, notice elements, grounds), as in force when the step was taken."""
        key = (step_id, timezone.localtime(at).date())
        if key not in self._choices:
            try:
                found = self.j.input_choices(step_id, self.state, at)
            except (InputError, KeyError, ValueError):
                found = {}
            self._choices[key] = {
                input_id: {str(c.get("value")): str(c.get("label") or c.get("value")) for c in choices}
                for input_id, choices in found.items()
            }
        return self._choices[key]

    def words(self, inp, value: Any, labels: Mapping[str, str]) -> str:
        kind = inp.kind if inp is not None else ""
        if isinstance(value, bool):
            return "Yes" if value else "No"
        if kind in ("date", "datetime") or (inp is None and isinstance(value, str)):
            when = _date_words(value)
            if when is not None:
                return when
        if kind == "designation":
            return designation_label(self.j, str(value))
        if kind == "service_method":
            return _capital(labels.get(str(value)) or self.j.service_method_label(str(value)))
        if kind == "staff_member":
            return self.person(value)
        if isinstance(value, list | tuple):
            return "; ".join(_capital(labels.get(str(v)) or humanize(v)) for v in value) or "None"
        if kind in ("outcome", "seizure_ground"):
            return labels.get(str(value)) or humanize(value)
        return str(value)

    def rows(self, step_id: str, at: dt.datetime, designation: str | None, inputs: Mapping[str, Any]) -> list:
        """[{label, value, id}] for every input given, in the order of the step's form (an input the law no
        longer has comes last, under its id in words)."""
        if not inputs:
            return []
        step = self.step_of(step_id, at, designation)
        known = {i.id: i for i in step.inputs} if step is not None else {}
        labels = self._labels(step_id, at) if step is not None else {}
        order = [i for i in known if i in inputs] + [k for k in inputs if k not in known]
        out = []
        for input_id in order:
            value = inputs[input_id]
            if value in (None, "", [], ()):
                continue
            inp = known.get(input_id)
            if inp is not None and inp.kind == "file":
                continue  # the file itself is linked beside the act
            out.append(
                {
                    "id": input_id,
                    "label": _label(inp.label) if inp is not None else humanize(input_id),
                    "value": self.words(inp, value, labels.get(input_id, {})),
                }
            )
        return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _label(text: str) -> str:
    return _capital(" ".join(text.split()))

"""What a staff form can tell is wrong before the act is called (a date that is not a date): the problem names
the form's field, so the form is shown again with the message beside it and what was typed kept."""

from __future__ import annotations

import datetime as dt


class FieldProblem(Exception):
    """A value of the form's `field` that is not one; `message` says what to give instead."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def date_value(values: dict[str, str], field: str) -> dt.date | None:
    """The form's `field` as a date; None when left empty (the act says whether it needs one)."""
    raw = values.get(field, "")
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise FieldProblem(field, "Give the date as YYYY-MM-DD.") from None

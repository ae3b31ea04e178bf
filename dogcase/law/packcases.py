"""The shape of a pack's table tests (packs/<id>/cases.yaml), as schema specs."""

from __future__ import annotations

from typing import Any

from .packschema import DATE_OR_SCALAR, SCALAR_OR_LIST
from .schema import BOOL, DATE, ID, INT, SCALAR, STR, ListOf, MapOf, OneOf, Optional, Record, Spec, Where
from .vocabulary import REFUSAL_CODES, STAFF_ROLES


class _AnyInput(Spec):
    name = "a form value (date, text, true/false, number or a list)"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, list):
            ListOf(SCALAR).check(value, where)
        else:
            DATE_OR_SCALAR.check(value, where)


_ANY_INPUT = _AnyInput()
_TAKEN = Record(
    required={"step": ID, "at": DATE_OR_SCALAR, "by": ID},
    optional={"inputs": MapOf(_ANY_INPUT)},
)
_EXPECT_STATUS = OneOf("eligible", "not_eligible", "barred", "undetermined")
CASES = Record(
    required={"format": INT},
    optional={
        "classify": ListOf(
            Record(
                required={
                    "name": STR,
                    "date": DATE,
                    "facts": MapOf(Optional(SCALAR_OR_LIST)),
                    "expect": MapOf(_EXPECT_STATUS),
                },
                optional={
                    "matched": ListOf(STR),
                    "barred_by": ListOf(STR),
                    "missing": ListOf(ID),
                    "notes": ListOf(STR),
                    "flagged": MapOf(ListOf(STR)),
                },
            )
        ),
        "procedure": ListOf(
            Record(
                required={"name": STR, "incident": DATE},
                optional={
                    "actors": MapOf(ListOf(OneOf(*STAFF_ROLES), min_items=1)),
                    "settings": MapOf(Optional(SCALAR)),
                    "taken": ListOf(_TAKEN),
                    "check": Record(
                        required={"step": ID, "by": ID, "at": DATE_OR_SCALAR},
                        optional={"inputs": MapOf(_ANY_INPUT)},
                    ),
                    "obligations": Record(required={"at": DATE_OR_SCALAR}),
                    "expect": Record(
                        optional={
                            "allowed": BOOL,
                            "codes": ListOf(OneOf(*REFUSAL_CODES)),
                            "cites": ListOf(STR),
                            # the refusals cite these provisions and no other
                            "cites_only": BOOL,
                            "layer": OneOf("city", "state", "city+state"),
                            "obligations": MapOf(
                                Record(
                                    optional={
                                        "status": OneOf(
                                            "open",
                                            "met",
                                            "overdue",
                                            "lapsed",
                                            "not_yet",
                                            "available",
                                            "withdrawn",
                                            "undetermined",
                                        ),
                                        "due": Optional(DATE_OR_SCALAR),
                                        "met_by": Optional(ID),
                                        "late": BOOL,
                                        "consequences": ListOf(STR),
                                    }
                                )
                            ),
                            "absent": ListOf(ID),
                        }
                    ),
                },
            )
        ),
        "deadlines": ListOf(
            Record(
                required={
                    "name": STR,
                    "deadline": ID,
                    "events": MapOf(DATE_OR_SCALAR),
                    "expect": Record(
                        optional={
                            "due": Optional(DATE_OR_SCALAR),
                            # while a provision cannot be computed yet: the date the time is at least (or
                            # at most) by the provisions that can
                            "bound": DATE_OR_SCALAR,
                            "set_by": ListOf(STR),
                            "status": OneOf("determined", "undetermined"),
                            "entries": INT,
                        }
                    ),
                },
                optional={"on": DATE, "settings": MapOf(Optional(SCALAR)), "designation": ID},
            )
        ),
    },
)

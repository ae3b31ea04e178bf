"""The shape of a pack file (docs/law-packs.md), as schema specs; its vocabularies are in vocabulary.py."""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from .charges import CHARGE
from .facts import FACT_ENTRY
from .schema import (
    BOOL,
    CASE_PREFIX,
    DATE,
    ID,
    INT,
    NUM,
    SCALAR,
    STR,
    Ident,
    ListOf,
    MapOf,
    OneOf,
    Optional,
    Record,
    Spec,
    Where,
)
from .vocabulary import (
    ACTS,
    COUNTINGS,
    EVENTS,
    INPUT_KINDS,
    PROOF_KINDS,
    RECIPIENT_RULES,
    REFUSAL_CODES,
    SERVICE_METHODS,
    STAFF_ROLES,
    UNITS,
)

# names of vocabulary.py that modules import from here (procedure, documents, cases, api)
from .vocabulary import READ_ONLY_STAFF_ROLES as READ_ONLY_STAFF_ROLES
from .vocabulary import RETIRED_EVENTS as RETIRED_EVENTS
from .vocabulary import TEXT_LIMIT as TEXT_LIMIT
from .vocabulary import TEXT_LIMIT_MAX as TEXT_LIMIT_MAX


class VocabularyRef(Spec):
    """A name from a shared vocabulary that a pack may extend (events, service methods): the shared names,
    plus those the pack being read (and, for a city, its state pack) declares. The loader sets the pack's
    additions with `VocabularyRef.extended(...)` while it checks the pack."""

    _extra: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init__(self, kind: str, shared: tuple[str, ...], declared_under: str) -> None:
        self.kind = kind
        self.shared = shared
        self.declared_under = declared_under
        self.name = f"a {kind} name"

    def allowed(self) -> tuple[str, ...]:
        return self.shared + tuple(v for v in VocabularyRef._extra.get(self.kind, ()) if v not in self.shared)

    def check(self, value: Any, where: Where) -> None:
        ID.check(value, where)
        allowed = self.allowed()
        if value not in allowed:
            raise where.fail(
                f"unknown {self.kind} {value!r}: must be one of {', '.join(allowed)} (a pack may declare its "
                f"own under {self.declared_under}:)"
            )

    @staticmethod
    @contextlib.contextmanager
    def extended(**extra: Iterable[str]) -> Iterator[None]:
        saved = dict(VocabularyRef._extra)
        VocabularyRef._extra = {**saved, **{k: tuple(v) for k, v in extra.items()}}
        try:
            yield
        finally:
            VocabularyRef._extra = saved


EVENT = VocabularyRef("event", EVENTS, "events")
SERVICE_METHOD = VocabularyRef("service_method", SERVICE_METHODS, "service_methods")


class ConditionSpec(Spec):
    """condition := FACT | {not} | {all: [...]} | {any: [...]} | {fact, is|in|includes|includes_any}"""

    name = "a condition"
    _ops = ("is", "in", "includes", "includes_any")

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, str):
            ID.check(value, where)
            return
        if not isinstance(value, dict) or not value:
            raise where.fail("a condition is a fact name or a mapping with all, any, not or fact")
        keys = set(value)
        line = getattr(value, "line", None)
        if keys == {"not"}:
            self.check(value["not"], where.at("not", line))
        elif keys in ({"all"}, {"any"}):
            (key,) = keys
            ListOf(self, min_items=1).check(value[key], where.at(key, line))
        elif "fact" in keys:
            ops = keys - {"fact"}
            if len(ops) != 1 or not ops <= set(self._ops):
                raise where.fail("a fact test needs exactly one of is, in, includes, includes_any")
            ID.check(value["fact"], where.at("fact", line))
            (op,) = ops
            if op in ("in", "includes_any"):
                ListOf(SCALAR, min_items=1).check(value[op], where.at(op, line))
            else:
                SCALAR.check(value[op], where.at(op, line))
        else:
            raise where.fail(f"unknown condition keys {sorted(keys)}; use all, any, not or fact")


class _ScalarOrList(Spec):
    name = "a number, text, true/false or a list of them"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, list):
            ListOf(SCALAR).check(value, where)
        else:
            SCALAR.check(value, where)


SCALAR_OR_LIST = _ScalarOrList()


class _DateOrScalar(Spec):
    name = "a date, date and time, number or text"

    def check(self, value: Any, where: Where) -> None:
        if not isinstance(value, dt.date):
            SCALAR.check(value, where)


DATE_OR_SCALAR = _DateOrScalar()
CONDITION = ConditionSpec()
DESIGNATION_IDS = ListOf(ID, min_items=1, unique=True)
IN_FORCE = Record(optional={"from": Optional(DATE), "until": Optional(DATE)})


class StepConditionSpec(Spec):
    """A `requires` condition of a procedure step (docs/procedure.md): one test, optional provision/why/code."""

    name = "a step condition"
    _tests = (
        "done",
        "not_done",
        "within",
        "from",
        "after",
        "any",
        "all",
        "not",
        "outcome",
        "not_outcome",
        "proven",
        "seizure_ground",
        "ground_in",
        "prohibited",
        "last",
        "confirmed",
        "ground_of",
        "input_by",
        "recorded",
        "designation",
    )
    _extra = ("provision", "why", "code")

    def check(self, value: Any, where: Where) -> None:
        if not isinstance(value, dict) or not value:
            raise where.fail("a step condition is a mapping such as {done: STEP, provision: ID}")
        line = getattr(value, "line", None)
        tests = [k for k in value if k in self._tests]
        unknown = [k for k in value if k not in self._tests and k not in self._extra]
        if unknown:
            raise where.at(str(unknown[0]), line).fail(
                f"unknown condition key {unknown[0]!r}; a condition is one of {', '.join(self._tests)}"
                f" (with optional {', '.join(self._extra)})"
            )
        if len(tests) != 1:
            raise where.fail(f"a step condition needs exactly one of {', '.join(self._tests)}; has {tests}")
        (test,) = tests
        here = where.at(test, line)
        arg = value[test]
        if test in ("done", "not_done", "within", "from", "after", "prohibited", "confirmed"):
            ID.check(arg, here)
        elif test in ("any", "all"):
            ListOf(self, min_items=1).check(arg, here)
        elif test == "not":
            self.check(arg, here)
            if "why" not in value:
                raise where.fail("a {not: ...} condition needs `why`: the plain-English reason when refused")
        elif test in ("outcome", "not_outcome"):
            Record(required={"step": ID, "in": ListOf(ID, min_items=1)}).check(arg, here)
        elif test == "last":
            Record(required={"of": ListOf(ID, min_items=1), "in": ListOf(ID, min_items=1)}).check(arg, here)
        elif test == "ground_of":
            Record(required={"step": ID, "in": ListOf(ID, min_items=1)}).check(arg, here)
        elif test == "input_by":
            Record(required={"input": ID, "deadline": ID}).check(arg, here)
        elif test == "proven":
            OneOf("condition_of_registration").check(arg, here)
        elif test == "seizure_ground":
            if arg is not True:
                raise here.fail("seizure_ground takes true")
        elif test == "ground_in":
            ListOf(ID, min_items=1).check(arg, here)
        elif test == "recorded":
            EVENT.check(arg, here)
        elif test == "designation":
            ListOf(ID, min_items=1, unique=True).check(arg, here)
        if "provision" in value:
            PROVISION_REF.check(value["provision"], where.at("provision", line))
        if "why" in value:
            STR.check(value["why"], where.at("why", line))
        if "code" in value:
            OneOf(*REFUSAL_CODES).check(value["code"], where.at("code", line))


class _BoolOrOutcomes(Spec):
    name = "true, false or {outcomes: [...]}"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, bool):
            return
        Record(required={"outcomes": ListOf(ID, min_items=1)}).check(value, where)


class _EventOrEvents(Spec):
    name = "an event or a list of events"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, list):
            ListOf(EVENT, min_items=1, unique=True).check(value, where)
        else:
            EVENT.check(value, where)


STEP_CONDITION = StepConditionSpec()
# a provision reference in a step: this pack's id, or pack:id for the layer underneath
PROVISION_REF = Ident("abcdefghijklmnopqrstuvwxyz0123456789_.-:")
STEP_INPUT = Record(
    required={"id": ID, "kind": OneOf(*INPUT_KINDS), "label": STR},
    optional={
        "records": _EventOrEvents(),
        "required": BOOL,
        "choices": ListOf(ID, min_items=1, unique=True),
        "help": STR,
        "max_length": INT,
        "act": OneOf(*ACTS),  # a staff_member input: the act the person is designated to take
        "when": OneOf("past", "future"),
        # events recorded only when a yes/no input of the step is yes: {certified_mail: [notice_sent]}
        "records_if": MapOf(ListOf(EVENT, min_items=1, unique=True)),
        # events recorded only when the step's outcome is one of these: {upheld: [decision_received]}
        "records_if_outcome": MapOf(ListOf(EVENT, min_items=1, unique=True)),
        # events recorded only when the step's service_method input is one of these methods:
        # {certified_mail_return_receipt: [notice_sent]}
        "records_if_method": MapOf(ListOf(EVENT, min_items=1, unique=True)),
        # on a step with `service_of:`: which date of a service attempt the input takes (docs/procedure.md,
        # "Service of a notice"): sent (handed over, posted or mailed) | received (by the owner)
        "service_date": OneOf("sent", "received"),
        # on a step the owner files (filed_by_owner): the owner's filing through the portal is dated with the
        # day it is submitted in this input; the owner is not asked for it
        "filing_date": BOOL,
        # a `jurisdiction` input: the designations whose case goes with the dog to a city or county this
        # deployment serves (the new jurisdiction registers it), and the provision that says so
        "carries": DESIGNATION_IDS,
        "carries_provision": PROVISION_REF,
    },
)
# the input kinds whose value a step's `outcome:` may name (`{input}` in a sentence; `by:` where the choices
# are written in the pack: an outcome's `choices`, a designation's step `for`, the service methods)
OUTCOME_CHOICE_KINDS = ("outcome", "designation", "service_method", "seizure_ground")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class OutcomeSpec(Spec):
    """A step's `outcome:` (docs/law-packs.md, "What a step says happened"): one past-tense sentence, or
    {by: INPUT, <choice>: sentence, ..., otherwise: sentence}. The choices and placeholders are checked
    against the step's inputs by StepSpec."""

    name = "a sentence, or a mapping {by: an input, <choice>: a sentence, otherwise: a sentence}"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, str):
            if not value.strip():
                raise where.fail("an outcome sentence cannot be empty")
            return
        if not isinstance(value, dict):
            raise where.fail(f"must be {self.name}")
        if "by" not in value:
            raise where.fail("an outcome with one sentence per choice names its input with by:")
        ID.check(value["by"], where.at("by", _line(value, "by")))
        if len(value) < 2:
            raise where.fail("an outcome by choice needs a sentence for at least one choice")
        for key, text in value.items():
            if key == "by":
                continue
            if not isinstance(text, str) or not text.strip():
                raise where.at(str(key), _line(value, key)).fail("must be a sentence (text)")


def _line(value: Any, key: Any) -> int | None:
    return value.line_of(key) if hasattr(value, "line_of") else None


class StepSpec(Record):
    """A procedure step: its keys, and its `outcome:` against its own inputs (a variant is a real choice of
    the input `by` names, every choice has a sentence or there is an `otherwise`, and each `{input}` names an
    input with choices)."""

    def check(self, value: Any, where: Where) -> None:
        super().check(value, where)
        if "outcome" not in value:
            return
        raw = value["outcome"]
        here = where.at("outcome", _line(value, "outcome"))
        inputs = {i["id"]: i for i in value.get("inputs", ()) if isinstance(i, dict) and "id" in i}
        texts = [raw] if isinstance(raw, str) else [t for k, t in raw.items() if k != "by"]
        for text in texts:
            for name in _PLACEHOLDER.findall(text):
                found = inputs.get(name)
                if found is None or found.get("kind") not in OUTCOME_CHOICE_KINDS:
                    raise here.fail(
                        f"{{{name}}} in an outcome sentence must name an input of the step with choices "
                        f"(kinds {', '.join(OUTCOME_CHOICE_KINDS)}); the step's inputs: {', '.join(inputs) or 'none'}"
                    )
        if isinstance(raw, str):
            return
        by = raw["by"]
        source = inputs.get(by)
        if source is None:
            raise here.at("by", _line(raw, "by")).fail(
                f"the step has no input {by!r}; its inputs: {', '.join(inputs) or 'none'}"
            )
        kind = source.get("kind")
        if kind == "outcome":
            choices = tuple(source.get("choices") or ())
        elif kind == "designation":
            if "for" not in value:
                raise here.at("by", _line(raw, "by")).fail(
                    "an outcome by a designation input needs the step's for: (the designations it may declare)"
                )
            choices = tuple(value["for"])
        elif kind == "service_method":
            choices = SERVICE_METHOD.allowed()
        else:
            raise here.at("by", _line(raw, "by")).fail(
                f"input {by!r} is a {kind} input: its choices are not written in the pack; name it in the "
                f"sentence instead ({{{by}}})"
            )
        for key in raw:
            if key not in ("by", "otherwise") and key not in choices:
                raise here.at(str(key), _line(raw, key)).fail(
                    f"{key!r} is not a choice of input {by!r}; its choices: {', '.join(choices)} "
                    "(or otherwise: for the rest)"
                )
        missing = [c for c in choices if c not in raw]
        if missing and "otherwise" not in raw and kind != "service_method":
            raise here.fail(
                f"no outcome sentence for {', '.join(repr(c) for c in missing)} of input {by!r}: write one "
                "for each choice, or an otherwise:"
            )


STEP = StepSpec(
    required={"id": ID, "label": STR, "act": OneOf(*ACTS)},
    optional={
        "provisions": ListOf(PROVISION_REF, unique=True),
        "for": DESIGNATION_IDS,
        "phase": ID,
        "repeatable": BOOL,
        "opens_case": BOOL,
        "undeclared": BOOL,
        "concerns": OneOf("case", "person"),
        "documents": ListOf(ID, unique=True),
        # the step records a further service (or the receipt) of the notice that step issued
        "service_of": ID,
        "roles": ListOf(ID, min_items=1, unique=True),
        "reading": STR,
        "administrative": BOOL,
        # the owner may file this step themselves, through the owner's portal (acts.take_owner_step)
        "filed_by_owner": BOOL,
        "dated_by": ID,
        "requires": ListOf(STEP_CONDITION),
        "inputs": ListOf(STEP_INPUT),
        "records": ListOf(EVENT, unique=True),
        "satisfies": ListOf(ID, unique=True),
        "closes_case": _BoolOrOutcomes(),
        "ends_designation": _BoolOrOutcomes(),
        "notes": ListOf(Record(required={"text": STR}, optional={"provision": PROVISION_REF})),
        "imposes": ListOf(
            Record(
                required={"requirement": ID},
                optional={"until": ID, "provision": PROVISION_REF},
            )
        ),
        "in_force": IN_FORCE,
        # what the step's event says happened (docs/law-packs.md): a sentence, or one per choice of an input
        "outcome": OutcomeSpec(),
    },
)
PERIOD = Record(required={"amount": INT, "unit": OneOf(*UNITS)})

# the documents the law requires (docs/law-packs.md, "Documents"); the wording's {sources} are checked by
# dogcase/law/documents/
ELEMENT_REF = Ident("abcdefghijklmnopqrstuvwxyz0123456789_.")


class _RefOrRefs(Spec):
    name = "an element id (notice_id.element_id if ambiguous) or a list of them"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, list):
            ListOf(ELEMENT_REF, min_items=1, unique=True).check(value, where)
        else:
            ELEMENT_REF.check(value, where)


DOCUMENT = Record(
    required={
        "id": ID,
        "title": STR,
        "sections": ListOf(
            Record(
                required={"text": STR},
                optional={
                    "element": _RefOrRefs(),
                    "heading": STR,
                    "when": STEP_CONDITION,
                    "provision": PROVISION_REF,  # the clause cited beside it (default: its element's)
                },
            ),
            min_items=1,
        ),
    },
    optional={
        "for": DESIGNATION_IDS,
        "issued_by": ListOf(ID, min_items=1, unique=True),
        "notices": ListOf(ID, min_items=1, unique=True),
        "audience": OneOf("owner", "city", "public"),
        "provisions": ListOf(PROVISION_REF, unique=True),
        "attachments": ListOf(ID, min_items=1, unique=True),
        # a city document that stands in for state documents of other ids where it reaches the case (the state's
        # still serves a case it does not reach); it must carry their notices' elements (the floor)
        "replaces": ListOf(ID, min_items=1, unique=True),
        "elements": ListOf(
            Record(
                required={"id": ID, "text": STR, "provision": PROVISION_REF},
                optional={"when": STEP_CONDITION},
            ),
            min_items=1,
        ),
    },
)
OFFICE = Record(
    required={"name": STR},
    optional={"address": Optional(STR), "telephone": Optional(STR)},
)


class _Recipient(Spec):
    """`to:` of a notice: words, or {rule: RULE, text?: words} from RECIPIENT_RULES."""

    name = "text or {rule: ...}"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, str):
            return
        Record(required={"rule": OneOf(*RECIPIENT_RULES)}, optional={"text": STR}).check(value, where)


_RECIPIENT = _Recipient()


class _IdOrIds(Spec):
    name = "an identifier or a list of them"

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, list):
            ListOf(ID, min_items=1, unique=True).check(value, where)
        else:
            ID.check(value, where)


_ID_OR_IDS = _IdOrIds()

EFFECTS: dict[str, Spec] = {
    # a ground makes a dog eligible for a designation, or for an act the law allows without one (an
    # eligibility: 347.56 destruction needs no designation)
    "ground": Record(
        required={"when": CONDITION},
        optional={"designation": ID, "eligibility": ID},
        exactly_one_of=("designation", "eligibility"),
    ),
    "exemption": Record(required={"bars": DESIGNATION_IDS, "when": CONDITION}),
    "authority": Record(
        required={"act": OneOf(*ACTS), "roles": ListOf(ID, min_items=1)},
        optional={
            "designations": DESIGNATION_IDS,
            "impartial": BOOL,
            "final": BOOL,
            "only_after": STR,
            "roles_mode": OneOf("any", "all", "and_or"),
        },
    ),
    "notice": Record(
        required={
            "id": ID,
            "for": DESIGNATION_IDS,
            # an element with `when:` (a procedure condition, e.g. {done: seize}) is required only when it
            # holds for the case (docs/procedure.md, the `contents` check)
            "elements": ListOf(Record(required={"id": ID, "text": STR}, optional={"when": STEP_CONDITION})),
        },
        optional={
            "in_writing": BOOL,
            "service_methods": ListOf(SERVICE_METHOD, min_items=1),
            "service_methods_mode": OneOf("any", "all"),
            "additional_steps": ListOf(SERVICE_METHOD),
            "service_on_one_owner_effective_for_all": BOOL,
            "to": _RECIPIENT,
            "copy_to": ListOf(ID),
            "when": STR,
        },
    ),
    "deadline": Record(
        required={
            "id": ID,
            "who": OneOf("owner", "city"),
            "what": STR,
            "trigger": Optional(EVENT),
            "period": PERIOD,
            "counting": OneOf(*COUNTINGS),
        },
        optional={
            "kind": OneOf("due", "not_before"),
            "for": DESIGNATION_IDS,
            "repeat": PERIOD,
            "right": BOOL,
            # the provision sets the time only in a case where this event happened (an alternative start)
            "only_if_event": EVENT,
            # the seizure grounds (`seizure_trigger` ids) a breach of it is, beside those naming it in `after:`
            "breach_grounds": ListOf(ID, min_items=1, unique=True),
            "remind_days": ListOf(INT, min_items=1, unique=True),  # beside the reminders 7 and 2 days ahead
        },
    ),
    "requirement": Record(
        required={"id": ID, "for": DESIGNATION_IDS, "what": STR},
        optional={
            "amount_usd": NUM,
            # several amounts of one requirement (per person, per incident), each compared with the state's
            # amount of the same id (or its single amount_usd)
            "amounts": ListOf(
                Record(required={"id": ID, "usd": NUM}, optional={"what": STR}), min_items=1, unique=True
            ),
            "spec": MapOf(SCALAR_OR_LIST),
            "proof_to": ID,
            "at_owner_expense": BOOL,
            "condition_of_registration": BOOL,
            # what the owner sends to prove it (docs/proofs.md): the fields of the proof form
            "proof": OneOf(*PROOF_KINDS),
        },
    ),
    "seizure_trigger": Record(
        required={"id": ID, "for": DESIGNATION_IDS, "what": STR},
        optional={
            "act": OneOf("seize", "impound", "order_impoundment"),
            "requirement": ID,
            "after": Record(required={"deadline": ID}),
        },
    ),
    "cost": Record(
        required={"id": ID, "payer": STR, "what": STR},
        optional={
            "cap_usd": NUM,
            "for": DESIGNATION_IDS,
            # the cost in plain words for the owner, and the steps the owner files (a hearing request) on whose
            # form the owner is told of it before filing, with the provision's citation and text
            "owner_words": STR,
            "before_filing": ListOf(ID, min_items=1, unique=True),
        },
    ),
    "fee": Record(
        required={"id": ID, "what": STR, "set_by": OneOf("council_resolution", "authority")},
        optional={
            "amount_usd": Optional(NUM),
            "cap_usd": NUM,
            "resolution": Optional(STR),
            "adopted": Optional(DATE),
            "for": DESIGNATION_IDS,
        },
    ),
    "prohibition": Record(required={"id": ID, "what": STR}, optional={"for": DESIGNATION_IDS}),
    "definition": Record(required={"term": STR}),
}


_PROVISION_COMMON: dict[str, Spec] = {
    "heading": STR,
    "confirm": STR,
    "quoted": BOOL,
    "state_provision": ID,
    "differs_from_state": STR,
}
VERSION = Record(
    required={"text": STR},
    optional={"in_force": IN_FORCE, **EFFECTS},
    at_most_one_of=tuple(EFFECTS),
)
PROVISION = Record(
    required={"id": ID, "citation": STR},
    optional={
        **_PROVISION_COMMON,
        "text": STR,
        "in_force": IN_FORCE,
        "versions": ListOf(VERSION, min_items=1),
        **EFFECTS,
    },
    at_most_one_of=tuple(EFFECTS),
)

_RULE = Record(
    required={"fixed": Record(required={"month": INT, "day": INT})},
    name="a holiday rule",
)
_RULE = Record(
    optional={
        "fixed": Record(required={"month": INT, "day": INT}),
        "nth_weekday": Record(required={"month": INT, "weekday": INT, "n": INT}),
        "after": Record(required={"holiday": ID, "days": INT}),
    },
    exactly_one_of=("fixed", "nth_weekday", "after"),
)
HOLIDAY = Record(
    required={"id": ID, "name": STR, "rule": _RULE},
    optional={
        "observed": OneOf("weekend_shift", "none"),
        "in_force": IN_FORCE,
        "names": ListOf(
            Record(required={"name": STR}, optional={"from": Optional(DATE), "until": Optional(DATE)})
        ),
        "optional_for_cities": BOOL,
        "provision": ID,
    },
)
CALENDAR = Record(
    optional={
        "holidays": ListOf(HOLIDAY),
        "observes": MapOf(BOOL),
        "provision": Optional(ID),
        "extra_holidays": ListOf(HOLIDAY),
        "note": STR,
    }
)

# The rabies observation a bite to a person starts (law/observation.py). No Minnesota text in the packs says
# anything of it: `source` is always `city_procedure`, and `defect` names the pack's defect that says so.
RABIES_OBSERVATION = Record(
    required={
        "source": OneOf("city_procedure"),
        "period_days": INT,
        "held_at": ListOf(Record(required={"id": ID, "label": STR}), min_items=1),
        "examination": STR,
        "roles": ListOf(ID, min_items=1, unique=True),
        "defect": ID,
    },
    optional={"note": STR},
)

PACK = Record(
    required={
        "format": INT,
        "jurisdiction": Record(
            required={
                "id": ID,
                "name": STR,
                "kind": OneOf("state", "city", "county"),
                "timezone": STR,
                "case_prefix": CASE_PREFIX,
                "source": Record(required={"title": STR}, optional={"file": STR, "history": STR, "url": STR}),
            },
            optional={
                "layer_over": ID,
                "in_force": IN_FORCE,
                "short_name": STR,
                "floor_provision": ID,
                # who the documents send people to, and the letterhead (docs/law-packs.md, "Documents");
                # an address or telephone not known is null: the law check lists it, issuance refuses
                "offices": MapOf(OFFICE),
                "letterhead": OFFICE,
            },
        ),
        "provisions": ListOf(PROVISION),
    },
    optional={
        "roles": ListOf(
            Record(
                required={"id": ID, "label": STR},
                optional={
                    "description": STR,
                    "staff": ListOf(OneOf(*STAFF_ROLES), unique=True),
                    # an office held by appointment: the city's administrator names its holders
                    "appointed": BOOL,
                },
            )
        ),
        "procedure": ListOf(STEP),
        "documents": ListOf(DOCUMENT),
        "designations": ListOf(
            Record(
                required={"id": ID, "label": STR, "defined_by": ID},
                optional={"state_counterpart": ID, "description": STR},
            )
        ),
        "eligibilities": ListOf(
            Record(
                required={"id": ID, "label": STR, "defined_by": ID},
                optional={"description": STR},
            )
        ),
        "calendar": CALENDAR,
        "defects": ListOf(
            Record(
                required={"id": ID, "provisions": ListOf(ID, min_items=1), "text": STR, "reading": STR},
                optional={
                    "applies": IN_FORCE,
                    "kind": OneOf("defect", "ambiguity", "missing_text", "conflict"),
                },
            )
        ),
        "settings": ListOf(
            Record(
                required={"id": ID, "what": STR},
                # label: the setting's name in words, for pages (the id stays for configuration and the API)
                optional={"label": STR, "for": ID, "value": Optional(SCALAR), "allowed": ListOf(SCALAR)},
            )
        ),
        # the city's rabies observation after a bite to a person: a city procedure setting, not a provision
        # (docs/law-packs.md, "Rabies observation"); a pack without it inherits the state pack's, if any
        "rabies_observation": RABIES_OBSERVATION,
        # the pack's own vocabulary (docs/law-packs.md, "What a pack may add")
        "facts": ListOf(FACT_ENTRY, min_items=1),
        "fact_values": ListOf(
            Record(
                required={"fact": ID, "values": ListOf(ID, min_items=1, unique=True)},
                # where the new values go in the fact's order (least to most serious, for injury): right
                # after, or right before, a value the fact already has; without either, at the end
                optional={"labels": MapOf(STR), "after": ID, "before": ID},
            ),
            min_items=1,
        ),
        "events": ListOf(Record(required={"id": ID, "words": STR}), min_items=1),
        # orderings of events beyond vocabulary.EVENT_ORDER: a date recorded for `event` may not precede them
        "event_order": ListOf(
            Record(
                required={"event": EVENT, "not_before": ListOf(EVENT, min_items=1, unique=True)},
                optional={"provision": ID, "why": STR},
            ),
            min_items=1,
        ),
        "service_methods": ListOf(
            Record(required={"id": ID, "label": STR}, optional={"form_of": _ID_OR_IDS}),
            min_items=1,
        ),
        # what the city may charge the owner and the act that incurs it (dogcase/law/charges.py)
        "charges": ListOf(CHARGE, min_items=1),
        # state steps (and deadlines) a city withdraws, e.g. registration where the city bans the designation
        "withdraws": ListOf(
            Record(
                required={"provision": ID, "reason": STR},
                optional={
                    "steps": ListOf(ID, min_items=1, unique=True),
                    "deadlines": ListOf(ID, min_items=1, unique=True),
                    "for": DESIGNATION_IDS,
                },
            ),
            min_items=1,
        ),
    },
)

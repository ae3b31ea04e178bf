"""The shape of a pack file (docs/law-packs.md), as schema specs."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

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

EVENTS = (
    "incident",
    "classification",
    "declaration",
    "notice_date",
    "notice_sent",
    "notice_received",
    "hearing_request_received",
    # the hearing: one event, its last day ("after the hearing", "after the close of the hearing"), so that the
    # state's and a city's ten days, and Tracy's three, run from the same date
    "hearing_closed",
    "decision_received",
    "seizure",
    "impoundment",
    "death",
    "transfer",
    "dog_unconfined_or_attack",
    "lease_start",
    "registration_issued",
    # procedure events (docs/procedure.md)
    "hearing_request_filed",
    "hearing_scheduled",
    "decision_issued",
    "recommendation",
    "council_decision",
    "release",
    "disposal",
    "destruction",
    "sterilization",
    "security_posted",
    "review_requested",
    "review_decided",
    "owner_reported",
    "owner_not_located",
    "impoundment_ordered",
    "impoundment_notice_sent",
    "impoundment_hearing_request_received",
    "impoundment_hearing_closed",
    "impoundment_decision_received",
    "move",
    "landlord_disclosure",
    # the hearing on a destruction (§ 90.15 (K), Minn. Stat. 347.56): its own track, so that its dates do
    # not overwrite those of the hearing on the declaration
    "destruction_notice_date",
    "destruction_notice_received",
    "destruction_hearing_request_received",
    "destruction_hearing_scheduled",
    "destruction_hearing_closed",
    "destruction_decision_issued",
    "destruction_council_decision",
    # the ownership ban of 347.542, which follows a person's conviction (steps that concern the person)
    "conviction",
    "ban_review_requested",
)
# The order the meaning of the shared events gives them: (event, the events it cannot precede). A date a step
# records for `event` may not be before the case's date of any of those (docs/procedure.md, "Dates in order");
# a pack adds orderings of its own under `event_order:`.
EVENT_ORDER = (
    # a notice is not received before it was dated, sent or served
    ("notice_received", ("notice_date", "notice_sent")),
    ("destruction_notice_received", ("destruction_notice_date",)),
    # a request is not received before it was filed; a hearing is not scheduled before the request it answers
    ("hearing_request_received", ("hearing_request_filed",)),
    ("hearing_scheduled", ("hearing_request_received", "hearing_request_filed")),
    ("destruction_hearing_scheduled", ("destruction_hearing_request_received",)),
    # a hearing is not held before the date it was scheduled for (a new date is a correction, with its reason)
    ("hearing_closed", ("hearing_scheduled",)),
    ("destruction_hearing_closed", ("destruction_hearing_scheduled",)),
    # the Council decides on the recommendation it received
    ("council_decision", ("recommendation",)),
    ("destruction_council_decision", ("destruction_decision_issued",)),
)
# The longest text a step's text input takes, unless the input says `max_length:` (docs/procedure.md)
TEXT_LIMIT = 5000
TEXT_LIMIT_MAX = 20000
# event names no longer in the vocabulary, and the event a step stored with one is now read as (a case
# recorded before the hearing became one event keeps its dates)
RETIRED_EVENTS = {
    "hearing_held": "hearing_closed",
    "impoundment_hearing_held": "impoundment_hearing_closed",
    "destruction_hearing_held": "destruction_hearing_closed",
}
ACTS = (
    "declare",
    "classify",
    "serve_notice",
    "receive_hearing_request",
    "schedule_hearing",
    "hold_hearing",
    "decide_appeal",
    "recommend",
    "confirm_or_rescind",
    "issue_certificate",
    "inspect_enclosure",
    "seize",
    "impound",
    "order_impoundment",
    "order_destruction",
    "destroy",
    "dispose",
    "release",
    "review_designation",
    "implant_microchip",
    "sterilize",
    "set_fees",
    "receive_report",
    "transfer_to_responsible_person",
    "review_ban",
    # procedure acts with no authority provision of their own in the shipped packs (steps give roles + reading)
    "receive_proof",
    "receive_security",
    "record_event",
    "record_transfer",
)
SERVICE_METHODS = (
    "personal",
    "certified_mail",
    "certified_mail_return_receipt",
    "registered_mail",
    "mail",
    "hand_delivery",
    "posting_where_dog_kept",
    "posting_on_owner_property",
    "delivery_to_resident",
    "telephone_if_possible",
)
# a service method that is a form of another (certified mail is mail; hand delivery is personal delivery):
# a city notice served by such a method also meets a state notice that accepts the more general one
SERVICE_METHOD_FORMS = {
    "certified_mail": ("mail",),
    "certified_mail_return_receipt": ("certified_mail", "mail"),
    "registered_mail": ("mail",),
    "hand_delivery": ("personal",),
}
STAFF_ROLES = (
    "animal_control_officer",
    "police_officer",
    "city_clerk",
    "hearing_officer",
    "council_clerk",
    "auditor",
    "administrator",
)
# staff roles that never act (they read): a pack role acted only through them is acted by nobody
# (dogcase.cases.access.READ_ONLY is this list)
# The kinds of proof of a requirement (a requirement's `proof:`; docs/proofs.md).
PROOF_KINDS = ("coverage", "microchip", "sterilization", "photos", "document")
READ_ONLY_STAFF_ROLES = ("auditor",)
INPUT_KINDS = (
    "date",
    "datetime",
    "text",
    "bool",
    "file",
    "designation",
    "service_method",
    "outcome",
    "proofs",
    "seizure_ground",
    # a member of staff designated to take a later act (the hearing officer who will hold the hearing): the
    # choices come from the product (its users who may take that act), the engine holds them to impartiality
    "staff_member",
)
REFUSAL_CODES = (
    "not_empowered",
    "not_impartial",
    "not_yet",
    "too_late",
    "waiting",
    "missing_step",
    "already_taken",
    "outcome",
    "not_proven",
    "no_ground",
    "not_applicable",
    "prohibited",
    "case_closed",
    "wrong_state",
    "undetermined",
)
UNITS = ("calendar_days", "business_days", "hours", "weeks", "months", "years")
COUNTINGS = ("mn_645_15", "includes_trigger_day", "no_roll", "business_days", "elapsed")


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
# who a notice is addressed to, as a rule the staff app can show (docs/law-packs.md, notice)
RECIPIENT_RULES = {
    "owner": "the owner (service on any owner)",
    "every_owner": "every owner of the dog",
    "owner_of_record": "the owner of record",
    "owner_of_record_else_any_owner": "the owner of record or, if there is none, any owner",
    "owner_and_keeper": "the owner and the person keeping the dog",
}


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
    },
)
STEP = Record(
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
    },
)
PERIOD = Record(required={"amount": INT, "unit": OneOf(*UNITS)})

# the documents the law requires (docs/law-packs.md, "Documents"); the wording's {sources} are checked by
# dogcase/law/documents.py
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
        optional={"cap_usd": NUM, "for": DESIGNATION_IDS},
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

PACK = Record(
    required={
        "format": INT,
        "jurisdiction": Record(
            required={
                "id": ID,
                "name": STR,
                "kind": OneOf("state", "city"),
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
        "provisions": ListOf(PROVISION, min_items=1),
    },
    optional={
        "roles": ListOf(
            Record(
                required={"id": ID, "label": STR},
                optional={"description": STR, "staff": ListOf(OneOf(*STAFF_ROLES), unique=True)},
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
        # orderings of events beyond packschema.EVENT_ORDER: a date recorded for `event` may not precede them
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

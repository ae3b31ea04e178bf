"""The shared vocabularies a pack names: events and their words, acts, service methods, staff roles, codes."""

from __future__ import annotations

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
    "registration_applied",
    # a citation to court for a violation of the ordinance, and the court's disposition of it
    "citation_issued",
    "citation_decided",
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
    # a fact of the records, not of a step: the last day of the surety bond or liability insurance on file (the
    # latest end of the accepted proofs of coverage, recorded with each acceptance: dogcase/proofs)
    "coverage_ends",
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
# the kinds of a local government's pack, layered over a state pack: its procedure runs cases (a county's as a
# city's: the state layer and its own text, with its Sheriff or officers as the authority)
LOCAL_KINDS = ("city", "county")
INPUT_KINDS = (
    "date",
    "datetime",
    "text",
    # a telephone number (the officer's, the place where a seized dog is held): short text held to a telephone
    # rule (procedure/cleaning.py), shown as a telephone field
    "telephone",
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
    # where a dog moved to (a step that records its move): a city or county this deployment serves (its pack
    # id) or `elsewhere`; the product offers the served ones and checks the value, as it does its staff
    "jurisdiction",
)
# the value of a `jurisdiction` input for a city or county this deployment does not serve
ELSEWHERE = "elsewhere"
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
# who a notice is addressed to, as a rule the staff app can show (docs/law-packs.md, notice)
RECIPIENT_RULES = {
    "owner": "the owner (service on any owner)",
    "every_owner": "every owner of the dog",
    "owner_of_record": "the owner of record",
    "owner_of_record_else_any_owner": "the owner of record or, if there is none, any owner",
    "owner_and_keeper": "the owner and the person keeping the dog",
}
EVENT_WORDS = {
    "incident": "the incident",
    "classification": "the classification",
    "declaration": "the declaration",
    "notice_date": "the notice",
    "notice_sent": "the sending of the notice",
    "notice_received": "receipt of the notice",
    "hearing_request_received": "receipt of the hearing request",
    "hearing_closed": "the close of the hearing",
    "decision_received": "receipt of the decision",
    "seizure": "the seizure",
    "impoundment": "the impoundment",
    "death": "the death",
    "transfer": "the transfer",
    "dog_unconfined_or_attack": "the escape or attack",
    "lease_start": "the lease",
    "registration_issued": "the registration",
    "registration_applied": "the application for registration",
    "citation_issued": "the citation",
    "citation_decided": "the court's disposition of the citation",
    "coverage_ends": "the last day of the bond or insurance on file",
    "hearing_request_filed": "the filing of the hearing request",
    "hearing_scheduled": "the scheduled hearing",
    "decision_issued": "the decision",
    "recommendation": "the recommendation",
    "council_decision": "the council's decision",
    "release": "the release",
    "disposal": "the disposal",
    "destruction": "the destruction",
    "sterilization": "the sterilization",
    "security_posted": "the posting of security",
    "review_requested": "the request for review",
    "review_decided": "the review",
    "owner_reported": "the owner's report",
    "owner_not_located": "the finding that the owner cannot be located",
    "impoundment_ordered": "the impoundment order",
    "impoundment_notice_sent": "the sending of the notice of impoundment",
    "impoundment_hearing_request_received": "receipt of the impoundment hearing request",
    "impoundment_hearing_closed": "the close of the impoundment hearing",
    "impoundment_decision_received": "receipt of the impoundment decision",
    "move": "the move",
    "landlord_disclosure": "the disclosure to the property owner",
    "destruction_notice_date": "the notice of the intended destruction",
    "destruction_notice_received": "receipt of the notice of the intended destruction",
    "destruction_hearing_request_received": "receipt of the request for a hearing on the destruction",
    "destruction_hearing_scheduled": "the scheduled hearing on the destruction",
    "destruction_decision_issued": "the hearing officer's determination on the destruction",
    "destruction_council_decision": "the council's decision on the destruction",
    "destruction_hearing_closed": "the close of the hearing on the destruction",
    "conviction": "the conviction",
    "ban_review_requested": "the request for review of the ownership ban",
}
if set(EVENT_WORDS) != set(EVENTS):  # pragma: no cover - a vocabulary edit that forgot the words
    raise RuntimeError("every event of vocabulary.EVENTS needs its words in EVENT_WORDS")

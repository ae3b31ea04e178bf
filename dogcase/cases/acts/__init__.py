"""The legal acts and record changes of a case. Nothing else writes case records (DESIGN.md principle 5).

Every function here:
- checks the person's city and role on the server;
- asks the law engine whether the step is allowed now, by this person, with these facts (the procedure in the
  city's law pack), and refuses with the reason and the citation when it is not;
- runs in one transaction, first locks the audit chain its event goes to (its case's, or its city's records'),
  and writes its audit event in that transaction;
- detects a stale form (optimistic locking on `Case.version`) and a double submission (`idempotency_key`).

The acts live in the modules of this package, by what they do, each importing the ones below it (never this
package's `__init__`):
- `core`: the errors, the locks, the replay of a form sent twice, the checks of what an act is given, uploads
  and the audit event of a record change;
- `obligations`: the case's obligations as the law engine computes them, the sweep and its tasks;
- `steps`: taking a step of the procedure (staff, or the owner from the portal) and recording it;
- `corrections`: correcting a date a step recorded;
- `records`: people, premises, dogs, incidents, and opening a case;
- `named`: the common legal acts by name;
- `observation`: the rabies observation a bite to a person starts (the city's procedure, not a provision);
- `locations`: setting or moving an incident's or premises' point on the map.
The case's state as the law engine reads it (`case_state`) is read from the case's events by the models
(dogcase.cases.models), as `Case.scheduled_hearing()` reads its hearings. The names below are the ones callers
use: `from dogcase.cases import acts; acts.take_step(...)`.
"""

from dogcase.cases.acts.core import (
    NARRATIVE_LIMIT,
    REASON_LIMIT,
    STATEMENT_LIMIT,
    ActError,
    InvalidInput,
    Refused,
    StaleCase,
    check_email,
    check_language,
    check_lengths,
    check_text,
    lock_case,
    lock_city,
    now,
    record_event,
    replayed,
    roles_text,
    store,
)
from dogcase.cases.acts.corrections import correct_event_date, correct_event_input, correctable_inputs
from dogcase.cases.acts.locations import set_location
from dogcase.cases.acts.named import (
    declare_dog,
    destroy_dog,
    dispose_of_dog,
    file_hearing_request,
    hold_hearing,
    issue_certificate,
    record_death,
    record_decision,
    record_transfer,
    release_dog,
    review_designation,
    schedule_hearing,
    seize_dog,
    serve_notice,
)
from dogcase.cases.acts.obligations import (
    SweepReport,
    complete_task,
    law_fingerprint,
    recompute_obligations,
    sweep,
    task_key,
)
from dogcase.cases.acts.observation import (
    StaleObservation,
    may_keep_observation,
    observation_roles,
    observation_rule,
    record_observation,
)
from dogcase.cases.acts.records import (
    DOG_FIELDS,
    PERSON_FIELDS,
    add_to_incident,
    open_case,
    record_dog,
    record_incident,
    record_person,
    record_premises,
)
from dogcase.cases.acts.steps import (
    DOG_STATUS_BY_EVENT,
    ContentsGiven,
    OwnerRefused,
    StepResult,
    check_staff_members,
    claim_issuing_key,
    document_inputs_given,
    is_owner,
    law_actor_for_filing,
    take_owner_step,
    take_recorded_step,
    take_step,
)
from dogcase.cases.models import case_state, jurisdiction_of, parse_value

__all__ = [
    "StaleObservation",
    "may_keep_observation",
    "observation_roles",
    "observation_rule",
    "record_observation",
    "DOG_FIELDS",
    "DOG_STATUS_BY_EVENT",
    "NARRATIVE_LIMIT",
    "PERSON_FIELDS",
    "REASON_LIMIT",
    "STATEMENT_LIMIT",
    "ActError",
    "ContentsGiven",
    "InvalidInput",
    "OwnerRefused",
    "Refused",
    "StaleCase",
    "StepResult",
    "SweepReport",
    "add_to_incident",
    "case_state",
    "check_email",
    "check_language",
    "check_lengths",
    "check_staff_members",
    "check_text",
    "claim_issuing_key",
    "complete_task",
    "correct_event_date",
    "correct_event_input",
    "correctable_inputs",
    "declare_dog",
    "destroy_dog",
    "dispose_of_dog",
    "document_inputs_given",
    "file_hearing_request",
    "hold_hearing",
    "is_owner",
    "issue_certificate",
    "jurisdiction_of",
    "law_actor_for_filing",
    "law_fingerprint",
    "lock_case",
    "lock_city",
    "now",
    "open_case",
    "parse_value",
    "recompute_obligations",
    "record_death",
    "record_decision",
    "record_dog",
    "record_event",
    "record_incident",
    "record_person",
    "record_premises",
    "record_transfer",
    "release_dog",
    "replayed",
    "review_designation",
    "roles_text",
    "schedule_hearing",
    "seize_dog",
    "serve_notice",
    "set_location",
    "store",
    "sweep",
    "take_owner_step",
    "take_recorded_step",
    "take_step",
    "task_key",
]

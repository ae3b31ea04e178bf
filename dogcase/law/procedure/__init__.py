"""Procedure as law data (docs/procedure.md): the steps of a case, who may take each, and what is owed.

Pure Python. A pack's `procedure:` is parsed here into `StepDef`s (checked within the pack by the loader);
`ProcedureEngine` layers the state's and the city's steps for one jurisdiction, checks every reference
across the layers, and answers "may this person take this step now?" (`check_step`) and "what is owed, by
whom, by when?" (`obligations`). Every refusal is plain English with the provision that makes it so.

The package, by concern: model.py (the types), parsing.py (a pack's `procedure:`), engine.py
(`ProcedureEngine`, with structure.py: the checks and withdrawals; layering.py: the law as of a day;
forms.py: a step's form), context.py (`CaseContext`: one question about one case, with obligations.py),
cleaning.py (a form's values cleaned), words.py (the words it writes), jurisdiction_view.py (what it reads
of a jurisdiction). Modules outside the package import from here.
"""

from .cleaning import TELEPHONE_MAX, too_long
from .context import CaseContext
from .engine import ProcedureEngine
from .jurisdiction_view import JurisdictionView
from .model import (
    CONTENTS_INPUT,
    CONTENTS_LABEL,
    DESIGNATED_INPUT,
    Actor,
    CaseState,
    Condition,
    Input,
    Obligation,
    Refusal,
    Step,
    StepDef,
    StepOutcome,
    TakenStep,
    Verdict,
)
from .outcomes import generic_sentence, has_identifier, outcome_text, past_tense
from .parsing import parse_condition, parse_procedure, walk_conditions

__all__ = [
    "TELEPHONE_MAX",
    "generic_sentence",
    "has_identifier",
    "outcome_text",
    "past_tense",
    "Actor",
    "CaseState",
    "Condition",
    "Input",
    "Obligation",
    "Refusal",
    "Step",
    "TakenStep",
    "Verdict",
    "CONTENTS_INPUT",
    "CONTENTS_LABEL",
    "DESIGNATED_INPUT",
    "CaseContext",
    "JurisdictionView",
    "ProcedureEngine",
    "StepDef",
    "StepOutcome",
    "parse_condition",
    "parse_procedure",
    "too_long",
    "walk_conditions",
]

"""What a step's event says happened, in English and without its date: the pack's `outcome:` sentence for the
choices the step was taken with ("The City Council confirmed the designation"), or, for a pack that writes
none, a sentence built from the step's label ("Serve the notice on the owner" -> "The city served the notice
on the owner"). Never an identifier: a choice is said in the words the caller gives for it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .model import Step

# The verbs a step's label begins with, in the past tense where adding -ed or -d is wrong.
IRREGULAR_PAST = {
    "hold": "Held",
    "give": "Gave",
    "send": "Sent",
    "set": "Set",
    "put": "Put",
    "transfer": "Transferred",
    "submit": "Submitted",
    "stop": "Stopped",
    "mail": "Mailed",
    "make": "Made",
    "pay": "Paid",
    "take": "Took",
    "write": "Wrote",
    "keep": "Kept",
    "tell": "Told",
    "find": "Found",
}
# a label not beginning with one of these is said as "Recorded: <label>"
VERBS = frozenset(
    {
        "declare",
        "classify",
        "serve",
        "post",
        "receive",
        "schedule",
        "hold",
        "issue",
        "record",
        "recommend",
        "confirm",
        "seize",
        "release",
        "dispose",
        "destroy",
        "review",
        "order",
        "impound",
        "notify",
        "transfer",
        "decide",
        "close",
        "register",
        "inspect",
        "implant",
        "sterilize",
        "set",
        "give",
        "send",
        "mail",
        "accept",
        "grant",
        "deny",
        "enter",
        "return",
        "rescind",
        *IRREGULAR_PAST,
    }
)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_IDENTIFIER = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")


def past_verb(verb: str) -> str | None:
    """ "serve" -> "served"; None for a word not known as a verb of a step."""
    verb = verb.lower()
    if verb not in VERBS:
        return None
    if verb in IRREGULAR_PAST:
        return IRREGULAR_PAST[verb].lower()
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def past_tense(label: str) -> str:
    """ "Serve the notice on the owner" -> "Served the notice on the owner"; a label that does not begin with
    a known verb comes back as "Recorded: <label>"."""
    label = " ".join(str(label).split())
    if not label:
        return "Recorded"
    first, _, rest = label.partition(" ")
    done = past_verb(first)
    if done is None:
        return f"Recorded: {label}"
    # a second verb joined to the first: "confirm or rescind the designation", "schedule the hearing and mail
    # the notice"
    rest = re.sub(
        r"\b(and|or) ([a-z]+)\b", lambda m: f"{m.group(1)} {past_verb(m.group(2)) or m.group(2)}", rest
    )
    return f"{done[:1].upper()}{done[1:]} {rest}".strip()


def generic_sentence(step: Step | None, label: str = "", inputs: Mapping[str, Any] | None = None) -> str:
    """A sentence for a step its pack gives no `outcome:`: who did it (the body a label begins with, "City
    Council: ..."; else the city), the label in the past tense, and the decision chosen, in words ("The City
    Council confirmed or rescinded the designation (decision: rescinded)")."""
    said = _generic(step, label)
    outcome = next((i for i in (step.inputs if step is not None else ()) if i.kind == "outcome"), None)
    value = (inputs or {}).get(outcome.id) if outcome is not None else None
    if isinstance(value, str) and value:
        said += f" (decision: {value.replace('_', ' ')})"
    return said


def _generic(step: Step | None, label: str) -> str:
    label = " ".join(str(label or (step.label if step is not None else "")).split())
    # a trailing citation, "((I)(4))" or "((I)(1), (I)(2))": the page cites the step beside the sentence
    label = re.sub(r"\s*\((?:\([^()]*\)[^()]*)+\)$", "", label)
    who = "The city"
    head, sep, rest = label.partition(": ")
    body = bool(head) and len(head.split()) <= 4 and all(w[:1].isupper() for w in head.split())
    if sep and body and past_verb(rest.split(" ", 1)[0]):  # "City Council: confirm ..."
        who, label = f"The {head}", rest
    done = past_tense(label) if label else "Recorded"
    if done.startswith("Recorded: "):
        words = label.split()
        proper = (
            len(words) > 1 and words[1][:1].isupper()
        )  # "City Council hearing ...": a name, kept as written
        said = label if proper else label[:1].lower() + label[1:]
        return f"{who} recorded: {said}" if label else f"{who} recorded a step"
    return f"{who} {done[:1].lower()}{done[1:]}"


def outcome_text(
    step: Step | None,
    inputs: Mapping[str, Any],
    *,
    label: str = "",
    choice_words: Callable[[str, Any], str | None] | None = None,
) -> str:
    """The sentence for the step taken with `inputs`, without its date and final stop: the pack's, its
    `{input}` said by `choice_words(input id, value)`; else `generic_sentence`. A placeholder with no words
    for its value drops the clause it stands in (the sentence stays true, only less precise): write it last,
    after " (", " — ", ": " or ", "."""
    written = step.outcome.sentence(inputs) if step is not None and step.outcome is not None else None
    if not written:
        return generic_sentence(step, label, inputs)

    def fill(match: re.Match) -> str:
        value = inputs.get(match.group(1))
        words = choice_words(match.group(1), value) if choice_words is not None and value else None
        return words or "\x00"

    text = _PLACEHOLDER.sub(fill, written)
    if "\x00" in text:
        # the sentence up to the clause of the first unfilled placeholder ("... the dog (ground: {ground})")
        head = text.split("\x00", 1)[0]
        if head.count("(") > head.count(")"):
            cut = head.rfind(" (")  # the placeholder stands in a parenthesis: drop it whole
        else:
            cut = max(head.rfind(sep) for sep in (" — ", ": ", ", "))
        text = head[:cut] if cut > 0 else generic_sentence(step, label, inputs)
    return text.rstrip(" .")


def has_identifier(text: str) -> bool:
    """Whether a sentence shows an engine identifier (snake_case) to its reader."""
    return bool(_IDENTIFIER.search(text))

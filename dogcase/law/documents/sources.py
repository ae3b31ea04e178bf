"""The vocabulary of the `{…}` sources a document's wording may use: what each is and where staff supply it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..schema import Where

# The names a document's wording may use in braces, `{dog.description}`: name -> (what it is, where staff
# supply it). The documents app resolves each one from the case; a name not here is refused at load.
SOURCES: dict[str, tuple[str, str]] = {
    "city.name": ("the city's name", "the city's law pack (jurisdiction.name)"),
    "today": ("the date the document is issued", "set when the document is issued"),
    "case.number": ("the case number", "given when the case is opened"),
    "case.designation": ("the designation of the dog, in plain words", "record it with the declaration"),
    "case.declared_on": ("the date the dog was declared", "record it with the declaration"),
    "dog.name": ("the dog's name", "record it on the dog's page"),
    "dog.description": (
        "a description of the dog (name, breed, sex, colour, markings, microchip when known)",
        "record it on the dog's page",
    ),
    "dog.kept_at": ("the address where the dog is kept", "record it on the dog's page"),
    "owner.name": ("the owner's name", "record it on the owner's page"),
    "owner.address": ("the owner's address", "record it on the owner's page"),
    "owner.names": ("the name of every owner of the dog", "record them on the dog's page"),
    "portal.address": (
        "the address of the owner's portal (the site's address, DOGCASE_SITE_URL)",
        "set by the site's configuration",
    ),
    "portal.code": (
        "the owner's case access code for the portal (issued with the notice; printed only on it)",
        "issued when the notice is issued",
    ),
    "incident.number": ("the incident number", "given when the incident is recorded"),
    "incident.date": ("the date of the incident", "record it on the incident"),
    "incident.time": ("the time of the incident", "record it on the incident"),
    "incident.place": ("the place of the incident", "record it on the incident"),
    "incident.circumstances": ("what happened (the incident's narrative)", "record it on the incident"),
    "declaration.basis": (
        "the ground the dog was declared on, with its citation",
        "record it with the declaration",
    ),
    "declaration.date": ("the date of the declaration", "record it with the declaration"),
    "declarant.name": ("the name of the person who made the declaration", "record it on the declaration"),
    "declarant.office": (
        "the office the law names for the declaration (or classification), held by the person who made it — "
        "never the staff role of their account",
        "the law pack (who may declare) and the staff roles of the person who made it",
    ),
    "declarant.telephone": (
        "the telephone number of the person who made the declaration",
        "record it on the declaration",
    ),
    "issuer.name": (
        "the name of the person who takes the step that issues the document",
        "their account's name",
    ),
    "issuer.office": (
        "the office the law names for the step that issues the document, held by the person who takes it",
        "the law pack (who may take the step) and the staff roles of the person who takes it",
    ),
    "hearing.at": ("the date and time of the hearing", "record it when the hearing is scheduled"),
    "hearing.place": ("the place of the hearing", "record it when the hearing is scheduled"),
    "hearing.officer": ("the hearing officer's name", "record it when the hearing is scheduled"),
    "hearing.subject": ("what the hearing is about", "record it when the hearing is scheduled"),
    "hearing.held_on": ("the date the hearing was held", "record it when the hearing is held"),
    "decision.outcome": ("the hearing officer's decision", "record it with the decision"),
    "decision.reasons": ("the reasons for the decision", "record them with the decision"),
    "decision.date": ("the date of the decision", "record it with the decision"),
    "recommendation.outcome": (
        "the hearing officer's recommendation to the City Council",
        "record it with the recommendation",
    ),
    "council.outcome": ("the City Council's decision", "record it with the Council's decision"),
    "council.resolution": (
        "the number of the Council's resolution or motion",
        "record it with the Council's decision",
    ),
    "council.date": ("the date of the Council's decision", "record it with the Council's decision"),
    "requirements.list": (
        "every requirement for the designation, each with its citation",
        "the law pack (requirements that reach the designation)",
    ),
    "registration.conditions": (
        "each condition of registration, with its citation",
        "the law pack (conditions of registration)",
    ),
    "certificate.number": ("the certificate's number", "given when the certificate is issued"),
    "certificate.issued_on": ("the date the certificate is issued", "given when the certificate is issued"),
    "certificate.expires_on": ("the date the certificate expires", "given when the certificate is issued"),
    "seizure.date": ("the date the dog was seized", "record it on the seizure"),
    "seizure.ground": ("the ground the dog was seized on, with its citation", "record it on the seizure"),
    "seizure.place": ("where the seized dog is held", "record it on the seizure"),
    "seizure.contact": ("the contact person where the seized dog is held", "record it on the seizure"),
    "seizure.telephone": ("the telephone number where the seized dog is held", "record it on the seizure"),
    "citation.number": ("the citation's number", "type it on the citation"),
    "citation.violated": ("the provision violated", "type it on the citation"),
    "citation.violation": ("what the owner did or failed to do, when and where", "type it on the citation"),
    "citation.date": ("the date of the citation", "type it on the citation"),
    "citation.court": ("the court the owner must appear in", "type it on the citation"),
    "citation.court_at": ("the date and time the owner must appear in court", "type it on the citation"),
    "move.date": ("the date the dog moved away", "record it with the owner's notice of the move"),
    "move.new_address": ("where the dog now lives", "record it with the owner's notice of the move"),
    "move.destination": (
        "the city or county the dog moved to",
        "record it with the owner's notice of the move",
    ),
    "move.authority": (
        "the animal control authority of the place the dog moved to, with its address",
        "choose where the dog moved on this form (a city served here gives its address in its City settings; "
        "for another place, write its address here)",
    ),
    "reclaim.requirements": (
        "what the owner must do to reclaim the dog, each with its citation",
        "the law pack (the requirements proven and the fees to pay)",
    ),
}

# Families of names: `deadline.<obligation id>` (and `.citation`), `office.<office id>.<field>`,
# `input.<input id>` (a value typed in the step's form). Their ids are checked against the jurisdiction.
OFFICE_FIELDS = ("name", "address", "telephone")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_][a-z0-9_.]*)?$")


def placeholders(text: str) -> tuple[str, ...]:
    """The `{…}` names a text uses, in order, each once."""
    return tuple(dict.fromkeys(m.strip() for m in _PLACEHOLDER.findall(text)))


def source_family(name: str) -> str | None:
    """The family of a source name ("deadline", "office", "input"), or None for a fixed name."""
    head = name.split(".", 1)[0]
    return head if head in ("deadline", "office", "input") and "." in name else None


def describe_source(name: str, offices: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[str, str]:
    """(what it is, where staff supply it) for a source name, the families included."""
    if name in SOURCES:
        return SOURCES[name]
    family = source_family(name)
    rest = name.split(".", 1)[1] if family else ""
    if family == "deadline":
        if rest.endswith(".citation"):
            return (
                f"the citation of the time limit {rest[: -len('.citation')]!r}",
                "the law pack (the deadline's provision)",
            )
        return (
            f"the date the time limit {rest!r} ends for this case (when it cannot be known yet, what is known: "
            "“at least until …”, the obligation's reason)",
            "computed by dogcase from the case's dates (record the step that starts it)",
        )
    if family == "office":
        office, _, what = rest.rpartition(".")
        label = ((offices or {}).get(office) or {}).get("name") or office.replace("_", " ")
        return (
            f"the {label}'s {what}",
            "supply it on the City settings page, or in the city's law pack (jurisdiction.offices)",
        )
    if family == "input":
        return (f"the value typed in the step's form ({rest})", "type it in the form of the step")
    return (name, "")


def missing_message(name: str, offices: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """What a document says when a source has no value: "the City Clerk/Treasurer's address — supply it
    in the city's law pack (jurisdiction.offices)"."""
    what, where = describe_source(name, offices)
    where = (
        where
        if where.startswith(("supply", "record", "type", "given", "set", "computed"))
        else f"see {where}"
    )
    return f"{what} — {where}"


def check_source_names(text: str, where: Where) -> tuple[str, ...]:
    names = placeholders(text)
    for name in names:
        if not _NAME.match(name) or (name not in SOURCES and source_family(name) is None):
            families = (
                "deadline.<obligation id>, office.<office id>.<name|address|telephone>, input.<input id>"
            )
            raise where.fail(
                f"unknown source {{{name}}}: a document may use {', '.join(sorted(SOURCES))}, or {families} "
                "(dogcase/law/documents/sources.py)"
            )
        if source_family(name) == "office" and name.rsplit(".", 1)[-1] not in OFFICE_FIELDS:
            raise where.fail(f"unknown source {{{name}}}: an office gives {', '.join(OFFICE_FIELDS)}")
    return names

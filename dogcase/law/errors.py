"""Errors of the law engine. Each names what is wrong and where, in words a clerk can act on."""

from __future__ import annotations


class LawError(Exception):
    """Base class of every error the law engine raises on purpose."""


class PackError(LawError):
    """A law pack file is invalid. Names the file, the line and the rule broken."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")


class InputError(LawError):
    """Bad input to a law question: names the field and the rule."""

    def __init__(self, field: str, rule: str) -> None:
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


class UnknownJurisdiction(InputError):
    def __init__(self, jurisdiction: str, known: list[str]) -> None:
        self.jurisdiction = jurisdiction
        super().__init__(
            "jurisdiction",
            f"unknown jurisdiction {jurisdiction!r}; known: {', '.join(sorted(known))}",
        )


class LawNotInForce(InputError):
    """No stored version of the law is in force on the date asked."""


class RuleConflict(LawError):
    """Two applicable rules at the same level disagree. Never resolved silently."""

    def __init__(self, designation: str, rules: list[str]) -> None:
        self.designation = designation
        self.rules = rules
        super().__init__(
            f"conflicting rules for {designation!r} apply at the same level: {'; '.join(rules)} — "
            "the pack must say which one is the exception"
        )

"""A small declarative schema for pack files: unknown keys, missing keys and wrong types are PackErrors
naming the file, the line and the path of the offending value."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from .errors import PackError
from .yamlsource import LineDict, LineList


@dataclass(frozen=True)
class Where:
    file: str
    line: int | None
    path: str

    def at(self, key: str | int, line: int | None) -> Where:
        part = f"[{key}]" if isinstance(key, int) else (f".{key}" if self.path else key)
        return Where(self.file, line or self.line, self.path + part)

    def fail(self, message: str) -> PackError:
        return PackError(self.file, self.line, f"{self.path or 'top level'}: {message}")


class Spec:
    name = "value"

    def check(self, value: Any, where: Where) -> None:
        raise NotImplementedError


class _Scalar(Spec):
    def __init__(self, name: str, *types: type, exclude: tuple[type, ...] = ()) -> None:
        self.name = name
        self.types = types
        self.exclude = exclude

    def check(self, value: Any, where: Where) -> None:
        if not isinstance(value, self.types) or isinstance(value, self.exclude):
            raise where.fail(f"must be {self.name}, not {_describe(value)}")


STR = _Scalar("text", str)
INT = _Scalar("a whole number", int, exclude=(bool,))
NUM = _Scalar("a number", int, float, exclude=(bool,))
BOOL = _Scalar("true or false", bool)
DATE = _Scalar("a date (YYYY-MM-DD)", dt.date, exclude=(dt.datetime,))
SCALAR = _Scalar("a number, text or true/false", int, float, str, bool)


class Ident(Spec):
    name = "an identifier"

    def __init__(self, pattern_chars: str = "abcdefghijklmnopqrstuvwxyz0123456789_.-") -> None:
        self.chars = set(pattern_chars + pattern_chars.upper())

    def check(self, value: Any, where: Where) -> None:
        if isinstance(value, int | float) and not isinstance(value, bool):
            raise where.fail(f"an identifier must be text: write it in quotes, '{value}'")
        if not isinstance(value, str) or not value or not set(value) <= self.chars:
            raise where.fail(f"must be an identifier (letters, digits, _ . -), not {_describe(value)}")


ID = Ident()


class CasePrefix(Spec):
    """The letters a jurisdiction's case and incident numbers start with (BL-2026-0001, BL-I2026-0001)."""

    name = "a case number prefix (1 to 6 upper-case letters or digits, starting with a letter)"

    def check(self, value: Any, where: Where) -> None:
        if not (
            isinstance(value, str)
            and 1 <= len(value) <= 6
            and value[0] in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
            and set(value) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        ):
            raise where.fail(f"must be {self.name}, e.g. BL; not {_describe(value)}")


CASE_PREFIX = CasePrefix()


class Optional(Spec):
    def __init__(self, inner: Spec) -> None:
        self.inner = inner
        self.name = f"{inner.name} or null"

    def check(self, value: Any, where: Where) -> None:
        if value is not None:
            self.inner.check(value, where)


class OneOf(Spec):
    def __init__(self, *values: str) -> None:
        self.values = values
        self.name = "one of " + ", ".join(values)

    def check(self, value: Any, where: Where) -> None:
        if value not in self.values:
            raise where.fail(f"must be one of {', '.join(self.values)}; got {value!r}")


class ListOf(Spec):
    def __init__(self, item: Spec, *, min_items: int = 0, unique: bool = False) -> None:
        self.item = item
        self.min_items = min_items
        self.unique = unique
        self.name = f"a list of {item.name}"

    def check(self, value: Any, where: Where) -> None:
        if not isinstance(value, list):
            raise where.fail(f"must be a list, not {_describe(value)}")
        if len(value) < self.min_items:
            raise where.fail(f"must have at least {self.min_items} item(s)")
        lines = value.item_lines if isinstance(value, LineList) else []
        for index, item in enumerate(value):
            self.item.check(item, where.at(index, lines[index] if index < len(lines) else None))
        if self.unique:
            seen: set[Any] = set()
            for index, item in enumerate(value):
                key = repr(item)
                if key in seen:
                    raise where.at(index, None).fail(f"{item!r} is listed twice")
                seen.add(key)


class MapOf(Spec):
    def __init__(self, value: Spec, key: Spec = ID) -> None:
        self.value = value
        self.key = key
        self.name = f"a mapping of {value.name}"

    def check(self, value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            raise where.fail(f"must be a mapping, not {_describe(value)}")
        for k, v in value.items():
            line = value.line_of(k) if isinstance(value, LineDict) else None
            self.key.check(k, where.at(str(k), line))
            self.value.check(v, where.at(str(k), line))


@dataclass
class Record(Spec):
    required: dict[str, Spec] = field(default_factory=dict)
    optional: dict[str, Spec] = field(default_factory=dict)
    name: str = "a mapping"
    exactly_one_of: tuple[str, ...] = ()
    at_most_one_of: tuple[str, ...] = ()

    def check(self, value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            raise where.fail(f"must be {self.name}, not {_describe(value)}")
        for key in value:
            if key not in self.required and key not in self.optional:
                line = value.line_of(key) if isinstance(value, LineDict) else None
                allowed = ", ".join(sorted({*self.required, *self.optional}))
                raise where.at(str(key), line).fail(f"unknown key {key!r}; allowed here: {allowed}")
        for key in self.required:
            if key not in value:
                raise where.fail(f"missing required key {key!r}")
        for key, spec in (*self.required.items(), *self.optional.items()):
            if key in value:
                line = value.line_of(key) if isinstance(value, LineDict) else None
                spec.check(value[key], where.at(key, line))
        if self.exactly_one_of:
            present = [k for k in self.exactly_one_of if k in value]
            if len(present) != 1:
                raise where.fail(f"needs exactly one of {', '.join(self.exactly_one_of)}; has {present}")
        if self.at_most_one_of:
            present = [k for k in self.at_most_one_of if k in value]
            if len(present) > 1:
                raise where.fail(
                    f"a provision has at most one effect; this one has {', '.join(present)} — split it"
                )


def _describe(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"{value!r}".lower()
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dt.date):
        return f"the date {value.isoformat()}"
    return f"{type(value).__name__} {value!r}"


def line_of(value: Any, default: int | None = None) -> int | None:
    return getattr(value, "line", default)

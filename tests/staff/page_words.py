"""What a reader sees on a staff page, and the engine words that must not be among it (DESIGN principle 9).

Engine explanations stay available behind the fold for the city attorney: a `<details class="attorney">`
whose summary reads "Details for the city attorney" (the template `staff/_partials/attorney_details.html`).
Everything outside it is read as a clerk would read it.
"""

from __future__ import annotations

import html as html_lib
import re

# A snake_case word (notice_received, registration_trigger), a dotted lower-case name (owner.request_hearing,
# facts.yaml, mn-statute:347.50.definitions), a YAML key with its value (quoted: false, in force from: null),
# an engine value or phrase (null, "give an empty list").
_SNAKE = r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
# Two or more dotted parts, each of two letters or more (a.m., e.g. and i.e. are English).
_DOTTED = r"\b[a-z][a-z0-9_-]+(?:\.[a-z][a-z0-9_-]+)+\b"
_PACK_KEY = r"\b[a-z][a-z0-9-]+:[\w(][^\s,;]*"
_YAML_VALUE = r"\b[a-z]+(?: [a-z]+){0,3}:\s*(?:null|None|true|false|True|False|\[\]|\{\})(?![\w-]|\s+[a-z])"
_ENGINE_WORDS = r"\bnull\b|\bempty list\b|\bTrue\b|\bFalse\b"
IDENTIFIER = re.compile("|".join((_PACK_KEY, _YAML_VALUE, _SNAKE, _DOTTED, _ENGINE_WORDS)))

_DETAILS = re.compile(r"<details\b[^>]*>|</details>", flags=re.I)
_FOLD_OPEN = re.compile(
    r"<details\b[^>]*\bclass=\"[^\"]*\battorney\b|<details\b[^>]*>\s*<summary[^>]*>\s*Details for the city attorney",
    flags=re.I,
)


def without_attorney_folds(page: str) -> str:
    """The page less every fold for the city attorney, with whatever folds it holds inside."""
    out, start, depth, kept_from = [], None, 0, 0
    for m in _DETAILS.finditer(page):
        if m.group().startswith("</"):
            if start is not None:
                depth -= 1
                if depth == 0:
                    kept_from, start = m.end(), None
        elif start is not None:
            depth += 1
        elif _FOLD_OPEN.match(page, m.start()):
            out.append(page[kept_from : m.start()])
            start, depth = m.start(), 1
    out.append(page[kept_from:] if start is None else "")
    return " ".join(out)


# The name a person gave a file they sent (an owner's photo, scanned evidence, a spreadsheet brought in) is theirs,
# shown as they gave it; so are the values of a spreadsheet's cells shown while its columns are matched.
_FILE_NAME = re.compile(r'<span class="(?:file-name|as-given)">[^<]*</span>')


def visible_text(page: str) -> str:
    """The words a reader sees: no tags, attributes, scripts or styles, nor the fold for the city attorney, nor
    the names people gave the files they sent."""
    page = _FILE_NAME.sub(" ", without_attorney_folds(page))
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]*>", " ", page))


def identifiers_on(page: str) -> list[str]:
    text = re.sub(r"\b(?:https?|mailto|tel):\S+", " ", visible_text(page))  # an address is for people
    return sorted(set(IDENTIFIER.findall(text)))

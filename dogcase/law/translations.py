"""A pack's own words in an owner's language: `<pack folder>/<language>.yaml`, a mapping of the pack's English
(a step's label or outcome sentence, a document's title, a designation's label) to its translation. Owner pages
read the shipped catalogue first (dogcase/locale), then these; a text neither translates is shown in English and
said to be English (`dogcase law check` lists them)."""

from __future__ import annotations

import re
from pathlib import Path

from .errors import PackError
from .yamlsource import read_yaml

LANGUAGES = ("es",)
_PLACEHOLDER = re.compile(r"\{\w+\}")


def read_translations(folder: Path, root: Path, language: str) -> dict[str, str]:
    """The pack's translations into `language` ({} when it ships none). A file that is not a mapping of text to
    text, or a translation that drops or adds a {placeholder}, is a PackError naming the file and line."""
    path = Path(folder) / f"{language}.yaml"
    if not path.exists():
        return {}
    try:
        shown = str(path.relative_to(Path(root).parent))
    except ValueError:
        shown = str(path)
    raw = read_yaml(path, shown)
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise PackError(shown, None, "must map each English text of the pack to its translation")
    out: dict[str, str] = {}
    for english, own in raw.items():
        line = raw.line_of(english) if hasattr(raw, "line_of") else None
        if not isinstance(english, str) or not isinstance(own, str) or not own.strip():
            raise PackError(shown, line, f"{english!r}: the English and its translation must both be text")
        if set(_PLACEHOLDER.findall(english)) != set(_PLACEHOLDER.findall(own)):
            raise PackError(
                shown,
                line,
                f"{english!r}: the translation must keep the same {{placeholders}} as the English",
            )
        out[english] = own
    return out

"""A text of the law packs in an owner's language: the shipped catalogue (dogcase/locale) first, then the words a
city's own pack ships (`<pack folder>/<language>.yaml`, dogcase.law.translations)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from dogcase.law import library


def translated(text: str, language: str) -> str | None:
    """`text` in `language`; None when neither the catalogue nor a pack translates it (the text is then English
    only)."""
    if not text:
        return None
    with translation.override(language):
        out = gettext(text)
    if out != text:
        return out
    return library().translations.get(language, {}).get(text)


def owner_words(j, day) -> dict[str, set[str]]:
    """The texts of a jurisdiction's law an owner's pages and documents show, by kind: the steps' labels and
    what they did (an owner's own filing also as "You ..."), the owner's documents' titles, the designations,
    and the scheduled hearings' names."""
    return {kind: set(texts) for kind, texts in _owner_words(j, day).items()}


def _owner_words(j, day) -> dict[str, dict[str, str]]:
    """owner_words, each text with the pack that wrote it."""
    kinds = (
        "step's name",
        "sentence of what a step did",
        "document's title",
        "designation",
        "hearing's name",
    )
    words: dict[str, dict[str, str]] = {kind: {} for kind in kinds}
    for step in j.procedure(day):
        writer = step.layers[-1] if step.layers else j.id  # the city's words, where it wrote the step
        words["step's name"][step.label] = writer
        for sentence in step.outcome.sentences() if step.outcome is not None else ():
            words["sentence of what a step did"][sentence] = writer
            if step.filed_by_owner and sentence.startswith("The owner "):
                words["sentence of what a step did"]["You " + sentence.removeprefix("The owner ")] = writer
        for inp in step.inputs:
            if inp.when == "future" and inp.kind == "datetime":
                for name in inp.records:
                    label = j.event_label(name).removeprefix("the ")
                    words["hearing's name"][label[:1].upper() + label[1:]] = writer
    for doc in j.all_document_types(day):
        if getattr(doc, "audience", "") == "owner":
            words["document's title"][doc.title] = doc.pack
    for designation in j.designations.values():
        label = designation.label
        words["designation"][label[:1].lower() + label[1:] if label[1:2].islower() else label] = (
            designation.pack
        )
    return words


def missing_translations(lib, language: str = "es") -> list[dict[str, str]]:
    """What `dogcase law check` warns of: each text of a city's law an owner sees that neither the catalogue nor
    the city's pack translates (it is shown in English, said to be English). Not a failure."""
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for j in lib.jurisdictions.values():
        if j.pack.kind == "state":
            continue
        for kind, texts in _owner_words(j, j.today()).items():
            for text, writer in sorted(texts.items()):
                if text in seen:
                    continue
                seen.add(text)
                if translated(text, language) is None:
                    pack = lib.packs.get(writer) or j.pack
                    out.append(
                        {
                            "pack": pack.id,
                            "file": pack.file,
                            "warning": f"no {language} translation of the {kind} {text!r}: an owner who chose that "
                            f"language reads it in English (add it to {pack.id}/{language}.yaml)",
                        }
                    )
    return out

"""Issue 20, item 2: every step of every shipped pack says what happened in words (its `outcome:`), each choice
its own sentence; a pack without outcome texts still reads as a sentence, never as an identifier; a pack's
`outcome:` is checked against the step's inputs when it loads."""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from dogcase.law import library
from dogcase.law.errors import PackError
from dogcase.law.procedure import generic_sentence, has_identifier, outcome_text
from tests.packs_library import packs_folder

SHIPPED = ("battle-lake-mn", "mn-statute", "tracy-mn")


def _steps():
    lib = library()
    for city in SHIPPED:
        j = lib.jurisdictions[city]
        for step in j.procedure(j.today()):
            yield pytest.param(j, step, id=f"{city}:{step.id}")


def _choices(step):
    """Every input value the step's outcome may depend on: {input id: [values]}."""
    out = {}
    for inp in step.inputs:
        if inp.kind == "outcome":
            out[inp.id] = list(inp.choices)
        elif inp.kind == "designation":
            out[inp.id] = list(step.for_ or ())
    return out


@pytest.mark.parametrize("j, step", list(_steps()))
def test_every_step_says_what_happened_for_every_choice(j, step):
    assert step.outcome is not None, f"{step.id} has no outcome: sentence"
    if step.outcome.by is not None:
        by = step.outcome.by
        values = _choices(step)[by]
        assert values, f"{step.id}: outcome by {by} has no choices"
        said = {}
        for value in values:
            sentence = outcome_text(step, {by: value}, choice_words=lambda i, v: "the dog is not registered")
            said[value] = sentence
            assert sentence and sentence[0].isupper()
            assert not has_identifier(sentence), sentence
            assert "{" not in sentence
        # each choice reads differently: the reader can tell what was decided
        assert len(set(said.values())) == len(values), said
    else:
        sentence = outcome_text(step, {"ground": "x"}, choice_words=lambda i, v: "the dog is not registered")
        assert sentence[0].isupper() and not has_identifier(sentence) and "{" not in sentence


@pytest.mark.parametrize("j, step", list(_steps()))
def test_a_sentence_names_who_acted_and_is_past_tense(j, step):
    for sentence in step.outcome.sentences():
        subject = re.match(
            r"(The city|The City Council|The hearing officer(?:'s written decision)?|The owner|The appeal hearing"
            r"|The hearing on the destruction|The animal control (?:authority|officer)|The City Clerk/Treasurer"
            r"|Ownership of the dog|The police|The court)\b",
            sentence,
        )
        assert subject, f"{step.id}: who acted? {sentence!r}"
        assert not sentence.endswith("."), "the date and the stop are added where it is said"


def test_the_council_decision_reads_as_what_it_decided():
    j = library().jurisdictions["battle-lake-mn"]
    step = j.step("confirm_or_rescind", j.today())
    assert outcome_text(step, {"outcome": "confirmed"}) == "The City Council confirmed the designation"
    assert outcome_text(step, {"outcome": "rescinded"}) == "The City Council rescinded the designation"


def test_a_ground_left_unsaid_drops_its_clause_not_the_sentence():
    j = library().jurisdictions["battle-lake-mn"]
    step = j.step("seize", j.today())
    assert outcome_text(step, {"ground": "not_registered"}, choice_words=lambda i, v: None) == (
        "The city seized the dog"
    )
    said = outcome_text(
        step, {"ground": "not_registered"}, choice_words=lambda i, v: "the dog is not registered"
    )
    assert said == "The city seized the dog (ground: the dog is not registered)"


@pytest.mark.parametrize(
    "label, sentence",
    [
        ("Serve the notice on the owner", "The city served the notice on the owner"),
        (
            "City Council: confirm or rescind the designation",
            "The City Council confirmed or rescinded the designation",
        ),
        ("Hold the hearing", "The city held the hearing"),
        ("Owner's report", "The city recorded: owner's report"),
    ],
)
def test_a_step_without_an_outcome_reads_as_a_sentence(label, sentence):
    said = generic_sentence(None, label)
    assert said == sentence
    assert not has_identifier(said)


def test_a_step_without_an_outcome_says_the_decision_in_words():
    j = library().jurisdictions["tracy-mn"]
    step = replace(j.step("decide_impoundment", j.today()), outcome=None)
    said = outcome_text(step, {"outcome": "release_conditionally"})
    assert said.endswith("(decision: release conditionally)") and not has_identifier(said)


# ------------------------------------------------------------------------------------- the pack is checked


def _pack_with(tmp_path: Path, step_id: str, outcome_yaml: str) -> Path:
    """The shipped packs, copied, with `outcome:` of a Battle Lake step replaced."""
    root = packs_folder(tmp_path / "packs")
    path = root / "battle-lake-mn" / "pack.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f"  - id: {step_id}")
    i = next(n for n in range(start, len(lines)) if lines[n].startswith("    outcome:"))
    end = i + 1
    while lines[end].startswith("      "):
        end += 1
    lines[i:end] = textwrap.indent(outcome_yaml.strip("\n"), "    ").split("\n")
    path.write_text("\n".join(lines), encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "outcome, error",
    [
        (
            "outcome:\n  by: outcome\n  confirmed: The Council confirmed it\n  upheld: The Council upheld it\n",
            "'upheld' is not a choice of input 'outcome'; its choices: confirmed, rescinded",
        ),
        (
            "outcome:\n  by: outcome\n  confirmed: The Council confirmed it\n",
            "no outcome sentence for 'rescinded'",
        ),
        ("outcome:\n  by: resolution\n  confirmed: The Council confirmed it\n", "is a text input"),
        (
            "outcome:\n  by: decision\n  confirmed: The Council confirmed it\n",
            "the step has no input 'decision'",
        ),
        (
            'outcome: "The Council decided ({resolution})"\n',
            "{resolution} in an outcome sentence must name an input",
        ),
        ("outcome:\n  confirmed: The Council confirmed it\n", "names its input with by:"),
    ],
)
def test_a_wrong_outcome_is_refused_with_a_clear_error(tmp_path, outcome, error):
    from dogcase.law.loader import Library

    root = _pack_with(tmp_path, "confirm_or_rescind", outcome)
    with pytest.raises(PackError) as info:
        Library(root)
    assert error in str(info.value)
    assert "confirm_or_rescind" in str(info.value) or "procedure[" in str(info.value)


def test_an_otherwise_covers_the_choices_not_written(tmp_path):
    from dogcase.law.loader import Library

    root = _pack_with(
        tmp_path,
        "confirm_or_rescind",
        "outcome:\n  by: outcome\n  confirmed: The Council kept it\n  otherwise: The Council decided\n",
    )
    j = Library(root).jurisdictions["battle-lake-mn"]
    step = j.step("confirm_or_rescind", j.today())
    assert outcome_text(step, {"outcome": "rescinded"}) == "The Council decided"
    assert outcome_text(step, {"outcome": "confirmed"}) == "The Council kept it"


def test_a_pack_without_outcomes_still_reads(tmp_path):
    """A city pack written before `outcome:` (another city's test pack): every step gets a sentence built from
    its label, none an identifier."""
    from dogcase.law.loader import Library

    root = packs_folder(tmp_path / "packs")
    path = root / "tracy-mn" / "pack.yaml"
    data = path.read_text(encoding="utf-8")
    data = re.sub(r"\n    outcome:(?: \"[^\"]*\"|(?:\n      [^\n]*)+)", "", data)
    assert "    outcome:" not in data
    path.write_text(data, encoding="utf-8")
    j = Library(root).jurisdictions["tracy-mn"]
    for step in j.procedure(j.today()):
        if step.layers == ("tracy-mn",):
            assert step.outcome is None
        for value in [None, *next((i.choices for i in step.inputs if i.kind == "outcome"), ())]:
            said = outcome_text(step, {"outcome": value}, label=step.label)
            assert said[:1].isupper() and not has_identifier(said), (step.id, said)
            assert said != step.label


def test_the_shipped_packs_are_yaml_with_their_outcomes_quoted():
    for city in SHIPPED:
        raw = yaml.safe_load((Path("dogcase/law/packs") / city / "pack.yaml").read_text(encoding="utf-8"))
        assert all("outcome" in s for s in raw["procedure"]), city


def test_every_outcome_sentence_has_its_spanish():
    """The owner's page says what happened in the owner's language: every sentence of the shipped packs (and
    an owner's own filing as "You ...") is in the catalogue, with its {placeholders} kept."""
    from dogcase.documents.words import translated

    missing = []
    for city in SHIPPED:
        j = library().jurisdictions[city]
        for step in j.procedure(j.today()):
            for sentence in step.outcome.sentences():
                wanted = [sentence]
                if step.filed_by_owner and sentence.startswith("The owner "):
                    wanted.append("You " + sentence.removeprefix("The owner "))
                for text in wanted:
                    own = translated(text, "es")
                    if own is None:
                        missing.append(text)
                    else:
                        assert set(re.findall(r"\{\w+\}", own)) == set(re.findall(r"\{\w+\}", text)), text
    assert not missing, "add to dogcase/locale/es/LC_MESSAGES/django.po:\n" + "\n".join(sorted(set(missing)))

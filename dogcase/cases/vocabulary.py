"""Record fields whose values are a law fact's values: the kind of place of an incident, a victim's kind and
injury. Their allowed values and plain words come from the jurisdiction's fact vocabulary (`j.facts`: the
shared facts.yaml and what the city's pack adds), not from Django choices — a city value such as an injury
"permanent disfigurement" needs a pack, not a migration."""

from __future__ import annotations

from dataclasses import dataclass

from dogcase.law import library
from dogcase.law.model import id_in_words


@dataclass(frozen=True)
class FactField:
    """A record field holding a value of the law fact `fact` (less the values in `exclude`)."""

    fact: str
    exclude: tuple[str, ...] = ()

    def values(self, vocabulary) -> tuple[str, ...]:
        fact = vocabulary.facts.get(self.fact)
        return tuple(v for v in fact.ordered_values if v not in self.exclude) if fact else ()

    def problem(self, vocabulary, value) -> str | None:
        """Why `value` cannot be stored in this field for this vocabulary, or None."""
        allowed = self.values(vocabulary)
        if value not in allowed:
            return f"must be one of {', '.join(allowed)}"
        return None

    def label(self, jurisdiction_id: str, value: str) -> str:
        """The value's plain words in its city's vocabulary (its id in words when the pack is gone)."""
        j = library().jurisdictions.get(jurisdiction_id)
        fact = j.facts.facts.get(self.fact) if j is not None else None
        return fact.label_of(value) if fact is not None else id_in_words(value)


PLACE_TYPE = FactField("place")
VICTIM_KIND = FactField("victim", exclude=("none",))  # a victim recorded is someone: a person or an animal
INJURY = FactField("injury")

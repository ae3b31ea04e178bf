"""Intake's "already on record": a dog being entered as new that the incident's city already holds — the same
microchip, or the same name with the same owner — with its cases (a case that came with the dog from another city
served here says so). Each look-up is an indexed equality on the city (`cities`) and takes a handful of rows,
whatever the size of the state's records."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from dogcase.cases.models import Case, CaseMove, Dog, Person
from dogcase.cases.pages import city_names, installed
from dogcase.staff.present import designation_label

# the most dogs shown for one row of the form
LIMIT = 5


def _spellings(text: str) -> list[str]:
    """The spellings an equality matches (the columns' indexes serve equality; case-insensitive matching would
    read every row): as typed, capitalised word by word, in lower case."""
    text = " ".join(text.split())
    return list(dict.fromkeys([text, text.title(), text.lower()]))


def matches(rows, cities: tuple[str, ...]) -> list[dict[str, Any]]:
    """For each dog row entered as new, the dogs already recorded that look like it, with why and their cases."""
    out: list[dict[str, Any]] = []
    names = city_names(cities)
    for row in rows:
        if row.existing:
            continue
        found: dict[int, tuple[Dog, str]] = {}
        chip = "".join(row.get("microchip_number").split())
        if chip:
            for dog in Dog.objects.filter(microchip_number=chip, jurisdiction__in=cities)[:LIMIT]:
                found.setdefault(dog.pk, (dog, f"the same microchip, {chip}"))
        name, owner = row.get("name").strip(), row.get("owner_name").strip()
        if name and owner:
            people = Person.objects.filter(full_name__in=_spellings(owner), jurisdiction__in=cities)[:LIMIT]
            for dog in Dog.objects.filter(
                name__in=_spellings(name), jurisdiction__in=cities, ownerships__person__in=people
            ).distinct()[:LIMIT]:
                found.setdefault(dog.pk, (dog, f"the same name and owner, {name} of {owner}"))
        if not found:
            continue
        dogs = [d for d, _ in found.values()]
        cases = Case.objects.filter(dog__in=dogs).order_by("-opened_at")
        came = {
            m.to_case_id: m for m in CaseMove.objects.filter(to_case__in=cases).select_related("from_case")
        }
        by_dog: dict[int, list[dict[str, Any]]] = {}
        for case in cases[: LIMIT * 4]:
            j = installed(case.jurisdiction)
            move = came.get(case.pk)
            by_dog.setdefault(case.dog_id, []).append(
                {
                    "number": case.number,
                    "url": reverse("staff:case", args=[case.number]),
                    "designation": designation_label(j, case.designation),
                    "in_effect": case.designation_in_effect,
                    "status": case.get_status_display(),
                    "moved_from": (
                        f"{city_names([move.from_case.jurisdiction])[move.from_case.jurisdiction]} "
                        f"(case {move.from_case.number})"
                        if move is not None
                        else ""
                    ),
                }
            )
        out.append(
            {
                "row": row.index + 1,
                "dogs": [
                    {
                        "description": dog.description,
                        "city": names.get(dog.jurisdiction, dog.jurisdiction),
                        "url": reverse("staff:dog", args=[dog.pk]),
                        "why": why,
                        "cases": by_dog.get(dog.pk, []),
                    }
                    for dog, why in found.values()
                ],
            }
        )
    return out

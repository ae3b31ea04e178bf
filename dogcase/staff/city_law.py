"""What the dashboard reads from a city's law on one day, cached: which acts meet each deadline, what a missed
deadline authorizes, which staff role can meet what — and what a role can do only through an office held by
appointment (dogcase/cases/access.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from dogcase.cases.access import staff_roles_for_pack_roles
from dogcase.cases.acts.waiting import ACT_PREFIX


@dataclass(frozen=True)
class CityLaw:
    """What the dashboard reads from one city's law on one day: deadline id -> the acts of the steps that
    meet it, and -> the acts its missing authorizes (seizure triggers with that deadline as `after`)."""

    met_by: dict[str, frozenset[str]]
    authorizes: dict[str, frozenset[str]]
    decide_label: str
    # staff role -> the deadline ids that a step this role can take meets, in any version of the city's law:
    # every obligation whose `staff_roles` names the role has one of them (its roles come from the steps
    # that meet it, in the law in force when it was computed)
    by_role: dict[str, frozenset[str]]
    # staff role -> {deadline id: the offices held by appointment (pack roles marked `appointed`) through which
    # alone that role meets it}: an account of the role sees it only while it holds one of them (Tracy's
    # classification by its Chief of Police, not by every police account)
    office_only: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    # staff role -> the offices held by appointment through which alone it decides an incident (the step that
    # opens the case); a role absent decides through an office anyone of it holds, or not at all
    decide_offices: dict[str, frozenset[str]] = field(default_factory=dict)
    city: str = ""


CITY_LAW_CACHE: dict[tuple[int, str, dt.date], CityLaw] = {}


def city_law(city: str, today: dt.date) -> CityLaw | None:
    from dogcase.law import library

    lib = library()
    j = lib.jurisdictions.get(city)
    if j is None:
        return None
    key = (id(j), city, today)
    cached = CITY_LAW_CACHE.get(key)
    if cached is not None:
        return cached
    met_by: dict[str, set[str]] = {}
    label = ""
    for step in j.procedure(today):
        for deadline in step.satisfies:
            met_by.setdefault(deadline, set()).add(step.act)
        # the row of an act waiting on staff (cases/acts/waiting.py) is met by its own step
        met_by.setdefault(ACT_PREFIX + step.id, set()).add(step.act)
        if step.opens_case and not label:
            label = step.label
    appointed = {r.id for r in j.roles.values() if getattr(r, "appointed", False)}
    by_role: dict[str, set[str]] = {}
    # (staff role, deadline) -> the appointed offices it meets it through; None once any way is open to all
    through: dict[tuple[str, str], set[str] | None] = {}
    for step in j.every_version_of_steps():
        pack_roles = set(step.roles).union(*step.roles_by_designation.values())
        for role in staff_roles_for_pack_roles(city, pack_roles):
            met = {*step.satisfies, ACT_PREFIX + step.id}
            by_role.setdefault(role, set()).update(met)
            offices = {p for p in pack_roles if role in staff_roles_for_pack_roles(city, {p})}
            for deadline in met:
                known = through.get((role, deadline), set())
                if known is None or not offices <= appointed:
                    through[(role, deadline)] = None
                else:
                    through[(role, deadline)] = known | offices
    office_only: dict[str, dict[str, frozenset[str]]] = {}
    for (role, deadline), offices in through.items():
        if offices:
            office_only.setdefault(role, {})[deadline] = frozenset(offices)
    decide: dict[str, set[str] | None] = {}
    for step in j.procedure(today):
        if not step.opens_case:
            continue
        pack_roles = set(step.roles).union(*step.roles_by_designation.values())
        for role in staff_roles_for_pack_roles(city, pack_roles):
            offices = {p for p in pack_roles if role in staff_roles_for_pack_roles(city, {p})}
            known = decide.get(role, set())
            decide[role] = None if known is None or not offices <= appointed else known | offices
    authorizes: dict[str, set[str]] = {}
    for version in j.all_versions():
        if version.effect_kind == "seizure_trigger" and version.effect.get("after"):
            authorizes.setdefault(version.effect["after"]["deadline"], set()).add(
                version.effect.get("act", "")
            )
    value = CityLaw(
        met_by={k: frozenset(v) for k, v in met_by.items()},
        authorizes={k: frozenset(v) for k, v in authorizes.items()},
        decide_label=label,
        by_role={k: frozenset(v) for k, v in by_role.items()},
        office_only=office_only,
        decide_offices={k: frozenset(v) for k, v in decide.items() if v},
        city=city,
    )
    if len(CITY_LAW_CACHE) > 256:
        CITY_LAW_CACHE.clear()
    CITY_LAW_CACHE[key] = value
    return value

"""A city or county with no ordinance of its own, added by the deployment's administrator from the web: the same
pack `dogcase city add --state-only` writes (dogcase.law.sitepacks), taken into use at once by this process
(the others within DOGCASE_LAW_RELOAD_SECONDS), an event in the new city's audit chain, the administrator given
access to it, and its offices' addresses and telephones recorded (dogcase.documents.offices)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from dogcase.cases.acts import now
from dogcase.cases.audit import append_event
from dogcase.cases.lawchanges import take_newer_law
from dogcase.cases.models import CityAccess, Event
from dogcase.documents import offices
from dogcase.law import InputError, library
from dogcase.law.loader import site_packs_dir
from dogcase.law.sitepacks import NewJurisdiction, add_state_only

# the command's option names, as the web form names its fields
FIELDS = {
    "NAME": "name",
    "--id": "name",
    "--case-prefix": "case_prefix",
    "--observes": "observes",
    "--kind": "kind",
    "DOGCASE_SITE_PACKS_DIR": "general",
    "pack": "general",
}


@dataclass
class CityProblem(Exception):
    field: str
    message: str


def optional_holidays() -> list[tuple[str, str]]:
    """The holidays 645.44 subd. 5 leaves to a city (id, name), from the state pack."""
    state = library().packs["mn-statute"]
    return [(r.id, r.name) for r in state.holiday_rules if getattr(r, "optional", False)]


def add_city(
    *,
    actor,
    name: str,
    kind: str,
    case_prefix: str,
    observes: dict[str, str],
    authority: str,
    address: str,
    telephone: str,
) -> NewJurisdiction:
    """Add the jurisdiction, take its law into use, give `actor` access to it, record its offices. Raises
    CityProblem naming the form field; nothing is written then."""
    if site_packs_dir() is None:
        raise CityProblem(
            "general", "This server keeps no law packs of its own (DOGCASE_SITE_PACKS_DIR is empty)."
        )
    try:
        offices.clean_values(address, telephone)
    except offices.OfficeProblem as problem:
        raise CityProblem(problem.field, problem.message) from None
    for holiday, answer in observes.items():
        if not answer:
            raise CityProblem(
                "observes", f"Say whether the {kind} observes {dict(optional_holidays())[holiday]}."
            )
    try:
        new = add_state_only(
            name,
            kind=kind,
            case_prefix=case_prefix or None,
            observes=observes,
            authority_name=authority or None,
        )
    except InputError as problem:
        raise CityProblem(FIELDS.get(problem.field, "general"), problem.rule) from None
    result = take_newer_law(record=True)  # this process uses it from now; the sweep and the others follow
    if result is not None and result.error is not None:  # pragma: no cover - checked before it was written
        raise CityProblem("general", f"The new pack does not load: {result.error}")
    at = now()
    with transaction.atomic():
        CityAccess.objects.get_or_create(user=actor, jurisdiction=new.id)
        choices = ", ".join(
            f"{h} {'observed' if v in ('yes', 'true') else 'not observed'}" for h, v in observes.items()
        )
        append_event(
            at=at,
            jurisdiction=new.id,
            kind=Event.Kind.RECORD,
            act="city_added",
            summary=f"{new.name} was added to this server with the state law as its whole law (Minn. Stat. "
            f"347.565); case numbers start {new.case_prefix}; {choices}. {actor.get_username()} administers it.",
            actor=actor,
            data={
                "jurisdiction": new.id,
                "kind": new.kind,
                "case_prefix": new.case_prefix,
                "observes": observes,
            },
        )
    if address or telephone:
        for office in ("animal_control_authority", offices.CityOffice.LETTERHEAD):
            try:
                offices.supply_office(
                    new.id, office, address=address, telephone=telephone, actor=actor, at=at
                )
            except offices.OfficeProblem as problem:  # pragma: no cover - the values were checked above
                raise CityProblem("general", problem.message) from None
    return new

"""What the procedure reads of a jurisdiction (dogcase.law.jurisdiction.Jurisdiction, which builds it)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .. import clock
from ..model import Designation, Pack, ProvisionVersion, Role, ServiceMethod


class JurisdictionView(Protocol):
    """The jurisdiction as the procedure engine uses it: its packs and their law, its deadlines, and the
    words for its events and service methods. A protocol, so that the procedure need not import the
    jurisdiction that builds it. The jurisdiction computes them once, when its packs are loaded."""

    id: str
    name: str
    tz: dt.tzinfo
    pack: Pack  # the city's pack (or the state's, read alone)
    state: Pack | None  # the state's pack under a city; None for a pack read alone
    layers: tuple[Pack, ...]  # the state's first
    roles: Mapping[str, Role]
    designations: Mapping[str, Designation]
    service_methods: Mapping[str, ServiceMethod]
    service_method_forms: Mapping[str, tuple[str, ...]]
    event_order: Mapping[str, list[tuple[str, str | None, str | None]]]
    calendar: clock.HolidayCalendar
    boundaries: list[dt.date]  # the days any layer's law changes, in order
    floor_cite: str  # " (citation)" of the state floor provision, or ""
    setting_values: Mapping[str, Any]  # each setting's value as the pack sets it
    deadline_plans: Mapping[str, Any]  # each deadline's plan (what, whose, how counted)

    def all_versions(self) -> Iterable[ProvisionVersion]: ...

    def versions_on(self, day: dt.date) -> list[ProvisionVersion]: ...

    def deadline_ids(self) -> list[str]: ...

    def deadline(
        self,
        deadline_id: str,
        events: Mapping[str, dt.date | dt.datetime],
        *,
        settings: Mapping[str, Any] | None = None,
        designation: str | None = None,
        undeclared: bool = False,
    ) -> dict[str, Any]: ...

    def deadline_applies(
        self, deadline_id: str, designation: str | None, *, undeclared: bool = False
    ) -> bool: ...

    def event_label(self, event: str) -> str: ...

    def service_method_label(self, method: str) -> str: ...

"""City settings' choices of the settings a city's law leaves to it (dogcase/cases/citysettings.py): each shown
with the value in use and where it comes from, checked against what the law allows, and each change an event in
the city's chain."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from dogcase.cases.audit import append_event
from dogcase.cases.citysettings import CitySetting, supplied
from dogcase.cases.models import Event
from dogcase.law import library

EVENT = "city_setting_changed"
YES, NO = "yes", "no"


class SettingProblem(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass
class SettingRow:
    """One setting as City settings shows it: what it is, the value in use and where it comes from."""

    id: str
    label: str
    what: str
    kind: str  # choice | yes_no | number
    value: Any
    chosen: bool  # the city chose it here (else: the pack's value)
    choices: list[tuple[str, str]]
    citation: str = ""

    @property
    def field(self) -> str:
        return f"setting-{self.id}"

    @property
    def shown(self) -> str:
        return words_of(self, self.value)


def _kind(setting) -> str:
    if setting.allowed:
        return "choice"
    if isinstance(setting.value, bool):
        return "yes_no"
    return "number" if isinstance(setting.value, int) else "choice"


def _choice_words(j, value: Any) -> str:
    if isinstance(value, str) and value in getattr(j, "events", {}):
        words = j.event_label(value)
    else:
        words = str(value).replace("_", " ")
    return words[:1].upper() + words[1:]


def rows(jurisdiction: str) -> list[SettingRow]:
    """Every setting the city's law leaves to it, with the value in use."""
    j = library().get(jurisdiction)
    chosen = supplied(jurisdiction)
    out = []
    for sid, setting in j.settings.items():
        kind = _kind(setting)
        choices = [(str(v), _choice_words(j, v)) for v in setting.allowed] if kind == "choice" else []
        if kind == "yes_no":
            choices = [(YES, "Yes"), (NO, "No")]
        key = setting.for_provision
        if key and ":" not in key:
            key = f"{setting.pack}:{key}"
        cite = j.provision_cite(key, timezone.localdate()) if key else None
        out.append(
            SettingRow(
                id=sid,
                label=setting.label or sid.replace("_", " ").capitalize(),
                what=setting.what,
                kind=kind,
                value=chosen.get(sid, setting.value),
                chosen=sid in chosen,
                choices=choices,
                citation=(cite or {}).get("citation", ""),
            )
        )
    return out


def words_of(row: SettingRow, value: Any) -> str:
    if value is None:
        return "not chosen"
    if row.kind == "yes_no":
        return "Yes" if value else "No"
    return next((w for v, w in row.choices if v == str(value)), str(value))


def clean(row: SettingRow, raw: str) -> Any:
    """The value a form gave for the setting, checked against what the law allows; raises SettingProblem."""
    raw = (raw or "").strip()
    if row.kind == "yes_no":
        if raw not in (YES, NO):
            raise SettingProblem(row.field, f"{row.label}: answer yes or no")
        return raw == YES
    if row.kind == "number":
        if not raw.isdecimal() or not 1 <= int(raw) <= 24 * 60:
            raise SettingProblem(row.field, f"{row.label}: a whole number of minutes, from 1 to 1,440")
        return int(raw)
    allowed = [v for v, _ in row.choices]
    if raw not in allowed:
        offered = "; ".join(w for _, w in row.choices)
        raise SettingProblem(row.field, f"{row.label}: choose one of the choices offered ({offered})")
    return raw


def choose(jurisdiction: str, row: SettingRow, value: Any, *, actor, at: dt.datetime) -> bool:
    """Record the city's choice of one setting; False when it is the value already in use. An event in the
    city's chain says what changed, from what, by whom."""
    if value == row.value:
        return False
    with transaction.atomic():
        CitySetting.objects.update_or_create(
            jurisdiction=jurisdiction,
            setting=row.id,
            defaults={"value": value, "updated_at": at, "updated_by": actor},
        )
        append_event(
            at=at,
            jurisdiction=jurisdiction,
            actor=actor,
            actor_roles="administrator",
            kind=Event.Kind.RECORD,
            act=EVENT,
            summary=f"{row.label}: {words_of(row, row.value)} → {words_of(row, value)}"[:500],
            data={"setting": row.id, "old": row.value, "new": value},
        )
    return True

"""A change of the law packs in use is a legal event: the new version is recorded (dogcase.cases.lawversions)
and each city it touches gets an audit event naming what changed, provision by provision."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from dogcase.cases.audit import append_event
from dogcase.cases.lawversions import LawVersion, current
from dogcase.cases.models import Event
from dogcase.law import changes, library
from dogcase.law.loader import Reload, loaded_texts, reload_if_changed

logger = logging.getLogger(__name__)

# "fingerprint": the version this process last found recorded; "hashed": (the texts in use, their fingerprint)
_last_recorded: dict[str, Any] = {}


def take_newer_law(*, record: bool = True) -> Reload | None:
    """Where a law file was written since this process read the packs: use the new version if it loads and
    record it (with an audit event in each city it touches), or keep the law in use and log why not. With
    `record`, also make sure the version in use is the one recorded last (a restart with new packs). Called
    by each web process at most every DOGCASE_LAW_RELOAD_SECONDS (dogcase.ops.lawreload; `record=False`:
    a request writes only when the law changed) and by each sweep."""
    result = reload_if_changed()
    if result is not None and result.error is not None:
        logger.error(
            "law packs: a file was written but the packs do not load (%s); the law in use is kept",
            result.error,
        )
    elif result is not None:
        logger.warning(
            "law packs: a new version is in use: %s",
            "; ".join(str(c) for c in result.changes) or "no change of substance",
        )
    taken = result is not None and result.error is None
    fingerprint = _in_use_fingerprint()
    if (taken or record) and _last_recorded.get("fingerprint") != fingerprint:
        try:
            record_law_in_use(timezone.now())
            _last_recorded["fingerprint"] = fingerprint
        except DatabaseError:
            logger.exception(
                "law packs: the version in use could not be recorded; it will be on the next check"
            )
    return result


def _in_use_fingerprint() -> str:
    """The fingerprint of the law texts in use, hashed once for each set of texts loaded (the texts of a
    loaded library never change: a reload loads new ones), not on every sweep and every reload check."""
    texts = loaded_texts()
    held = _last_recorded.get("hashed")
    if held is None or held[0] is not texts:
        held = _last_recorded["hashed"] = (texts, changes.fingerprint(texts))
    return held[1]


def record_law_in_use(at: dt.datetime) -> LawVersion | None:
    """Record the law this process uses now, if it is not the version last recorded: the new version, and in
    each city whose law (its pack, its state's pack or the shared facts) changed, an audit event listing the
    changes. None when the version in use is already the latest recorded."""
    texts = loaded_texts()
    fingerprint = changes.fingerprint(texts)
    previous = current()
    if previous is not None and previous.fingerprint == fingerprint:
        return None
    found = changes.what_changed(previous.texts, texts) if previous is not None else []
    try:
        with transaction.atomic():
            latest = LawVersion.objects.select_for_update().order_by("-first_used_at", "-id").first()
            if latest is not None and latest.fingerprint == fingerprint:
                return None  # another process recorded it meanwhile
            version = LawVersion.objects.create(
                fingerprint=fingerprint, texts=texts, first_used_at=at, changes=[str(c) for c in found]
            )
            if previous is None:
                return version
            lib = library()
            for city, j in sorted(lib.jurisdictions.items()):
                if j.pack.kind == "state":
                    continue
                folders = {Path(layer.folder).name for layer in j.layers}
                mine = [c for c in found if c.pack in folders or c.pack == "facts.yaml"]
                if not mine:
                    continue
                append_event(
                    at=at,
                    jurisdiction=city,
                    kind=Event.Kind.SYSTEM,
                    act="law_changed",
                    summary=f"The law packs in use changed ({len(mine)} change{'s' * (len(mine) != 1)}): "
                    + _cut("; ".join(str(c) for c in mine), 380),
                    actor_name="dogcase (law packs)",
                    data={
                        "version": fingerprint,
                        "previous": previous.fingerprint,
                        "changes": [str(c) for c in mine],
                    },
                )
    except IntegrityError:  # pragma: no cover - a concurrent writer of the same chain; the next call records
        logger.warning("law packs: the new version could not be recorded now; it will be on the next check")
        return None
    return version


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word (the event's data keeps every change in full)."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"

"""Setting or moving the point of an incident or of a dog's premises on the map (cases/geo.py).

Not a legal act of a procedure, but a point is part of the record (an address, as a place on the map): it is
set or moved in one transaction with an event that keeps the old point and the new, how it was set, the person
and, for a move, the reason.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from dogcase.cases.access import require_record_keeper
from dogcase.cases.acts.core import REASON_LIMIT, InvalidInput, check_text, lock_city, now, record_event
from dogcase.cases.geo import PointError, PointSource, check_point
from dogcase.cases.models import Incident, Premises


def _name(record: Incident | Premises) -> str:
    return f"incident {record.number}" if isinstance(record, Incident) else f"premises {record}"


def set_location(
    record: Incident | Premises,
    *,
    actor,
    latitude,
    longitude,
    source: str,
    reason: str = "",
    detail: str = "",
    at: dt.datetime | None = None,
) -> Incident | Premises:
    """Put an incident or premises on the map, or move its point, saying how the point was found (the phone's
    location at intake, placed by hand, the address geocoded). Moving a point already set needs a reason;
    the old point stays in the event (`set_incident_location` or `set_premises_location`, in the city's records
    chain). `detail` says more of the source (e.g. the geocoder's matched name)."""
    if not isinstance(record, Incident | Premises):
        raise InvalidInput("record", "only an incident or premises has a point on the map")
    require_record_keeper(actor, record.jurisdiction)
    if source not in PointSource.values:
        raise InvalidInput("source", f"must be one of {', '.join(PointSource.values)}")
    try:
        lat, lon = check_point(latitude, longitude)
    except PointError as exc:
        raise InvalidInput(exc.field, exc.rule) from None
    reason = (reason or "").strip()
    check_text("reason", reason, REASON_LIMIT)
    detail = (detail or "").strip()[:300]
    at = at or now()
    with transaction.atomic():
        lock_city(record.jurisdiction)
        record = type(record).objects.select_for_update().get(pk=record.pk)
        old = None if record.latitude is None else [str(record.latitude), str(record.longitude)]
        if old == [str(lat), str(lon)] and record.located_by == source:
            raise InvalidInput("latitude", "the point is already there")
        if old is not None and len(reason) < 5:
            raise InvalidInput("reason", "say why the point moves (at least 5 characters)")
        kind = "incident" if isinstance(record, Incident) else "premises"
        old_source = record.located_by
        record.latitude, record.longitude, record.located_by = lat, lon, source
        record.save(update_fields=["latitude", "longitude", "located_by"])
        how = PointSource(source).label.lower()
        verb = "Placed" if old is None else "Moved"
        summary = f"{verb} {_name(record)} on the map at {lat}, {lon} ({how})"
        record_event(
            actor=actor,
            jurisdiction=record.jurisdiction,
            act=f"set_{kind}_location",
            summary=(summary + (f" — {reason}" if reason else ""))[:500],
            data={
                "record": kind,
                "id": record.pk,
                "old": old and [*old, old_source],
                "new": [str(lat), str(lon), source],
                "source": source,
                "detail": detail,
                "reason": reason,
            },
            at=at,
        )
    return record

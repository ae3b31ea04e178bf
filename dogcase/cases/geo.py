"""Where an incident happened and where a dog is kept, as a point on the map (issue 23, part 4).

A point is a latitude and longitude in degrees (WGS 84, six decimal places: about 10 cm) and how it was set:
the officer's phone location at intake, a point placed by hand, or the address geocoded. A point is personal
data (it is an address): it is shown only on the staff's own pages. It is set or moved only by
`acts.set_location`, which keeps the old point, the person and how in the records' audit chain.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from django.db import models

PLACES = Decimal("0.000001")

# Minnesota's extent with a margin of about 10 km (the state runs 43.50–49.38 N, 97.24–89.49 W): a point
# outside is almost always a typing slip (a longitude without its minus sign, latitude and longitude swapped).
MINNESOTA = {
    "south": Decimal("43.4"),
    "north": Decimal("49.5"),
    "west": Decimal("-97.35"),
    "east": Decimal("-89.4"),
}


class PointSource(models.TextChoices):
    PHONE = "phone", "Officer’s phone location"
    HAND = "hand", "Placed by hand"
    GEOCODED = "geocoded", "Geocoded from the address"


def latitude_field() -> models.DecimalField:
    return models.DecimalField("latitude", max_digits=8, decimal_places=6, null=True, blank=True)


def longitude_field() -> models.DecimalField:
    return models.DecimalField("longitude", max_digits=9, decimal_places=6, null=True, blank=True)


def source_field() -> models.CharField:
    return models.CharField("point set by", max_length=10, choices=PointSource.choices, blank=True)


class PointError(ValueError):
    def __init__(self, field: str, rule: str) -> None:
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


def degrees(value, field: str) -> Decimal:
    """A latitude or longitude as given (text, number, Decimal), rounded to six places; PointError if not one."""
    text = str(value).strip().replace("\u2212", "-") if value is not None else ""
    if not text:
        raise PointError(field, "give the " + field)
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise PointError(field, f"{text!r} is not a number of degrees, e.g. 46.2797") from None
    if not number.is_finite():
        raise PointError(field, "must be a number of degrees")
    return number.quantize(PLACES, rounding=ROUND_HALF_EVEN)


def check_point(latitude, longitude) -> tuple[Decimal, Decimal]:
    """The point as stored, or PointError naming the field: on Earth first, then within Minnesota (with the
    likely slip said)."""
    lat, lon = degrees(latitude, "latitude"), degrees(longitude, "longitude")
    if _in_minnesota(lon, lat) and not _in_minnesota(lat, lon):
        raise PointError(
            "latitude", f"{lat} is not a latitude in Minnesota: are latitude and longitude swapped?"
        )
    if not Decimal(-90) <= lat <= Decimal(90):
        raise PointError("latitude", "must be between −90 and 90 degrees")
    if not Decimal(-180) <= lon <= Decimal(180):
        raise PointError("longitude", "must be between −180 and 180 degrees")
    if not MINNESOTA["south"] <= lat <= MINNESOTA["north"]:
        hint = (
            " (are latitude and longitude swapped?)" if MINNESOTA["west"] <= lat <= MINNESOTA["east"] else ""
        )
        raise PointError("latitude", f"{lat} is outside Minnesota (between 43.4 and 49.5 north){hint}")
    if not MINNESOTA["west"] <= lon <= MINNESOTA["east"]:
        hint = " (a longitude in Minnesota is negative: west of Greenwich)" if lon > 0 else ""
        raise PointError("longitude", f"{lon} is outside Minnesota (between −97.35 and −89.4){hint}")
    return lat, lon


def _in_minnesota(lat: Decimal, lon: Decimal) -> bool:
    return MINNESOTA["south"] <= lat <= MINNESOTA["north"] and MINNESOTA["west"] <= lon <= MINNESOTA["east"]

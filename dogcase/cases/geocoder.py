"""An address to a point, by a Nominatim-compatible geocoder the deployment names (docs/data.md, "The map").

Used only when `DOGCASE_GEOCODER_URL` is set (the city's own geocoder, or a Nominatim it may use): nothing is
sent anywhere otherwise. One request per address, with a short timeout; a failure is a `GeocoderError` with
words for the user, and the record stays saved without a point.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from django.conf import settings

from dogcase.cases.geo import PointError, check_point


class GeocoderError(Exception):
    pass


@dataclass(frozen=True)
class Found:
    latitude: object
    longitude: object
    name: str  # what the geocoder matched, kept with the point's event


def premises_address(premises) -> str:
    """The premises' address as the geocoder is asked for it (without the unit: one point per building)."""
    return ", ".join(p for p in (premises.street, premises.city_name, "MN", premises.postal_code) if p)


def configured() -> bool:
    return bool(getattr(settings, "DOGCASE_GEOCODER_URL", ""))


def geocode(address: str) -> Found:
    """The first match for the address, in Minnesota; GeocoderError when there is none or the geocoder fails."""
    if not configured():
        raise GeocoderError("No geocoder is set up for this site; place the point by hand.")
    query = urllib.parse.urlencode({"q": address, "format": "jsonv2", "limit": "1", "countrycodes": "us"})
    base = settings.DOGCASE_GEOCODER_URL
    url = f"{base}{'&' if '?' in base else '?'}{query}"
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise GeocoderError("The geocoder's address must start with http:// or https://.")
    request = urllib.request.Request(  # noqa: S310 - the scheme is checked above
        url, headers={"User-Agent": settings.DOGCASE_GEOCODER_USER_AGENT, "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=settings.DOGCASE_GEOCODER_TIMEOUT) as response:  # noqa: S310
            answer = json.loads(response.read(200_000).decode("utf-8"))
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise GeocoderError(
            f"The geocoder did not answer ({exc.__class__.__name__}); try again later."
        ) from None
    except (ValueError, UnicodeDecodeError):
        raise GeocoderError("The geocoder's answer could not be read.") from None
    if not isinstance(answer, list) or not answer or not isinstance(answer[0], dict):
        raise GeocoderError("The geocoder found no place for this address; place the point by hand.")
    first = answer[0]
    try:
        lat, lon = check_point(first.get("lat"), first.get("lon"))
    except PointError as exc:
        raise GeocoderError(f"The geocoder's match is not usable: {exc.rule}.") from None
    return Found(latitude=lat, longitude=lon, name=str(first.get("display_name") or "")[:300])

"""The demo's (and the tests') users hold the offices of their cities that their role maps to: in a deployment
the city's administrator appoints each holder (dogcase.accounts.manage.set_offices, audited); a demo city comes
with its Chief of Police and its City Administrator already named."""

from __future__ import annotations

from collections.abc import Iterable

from dogcase.cases.access import appointed_offices
from dogcase.cases.models import OfficeHolder


def appoint_by_role(user, cities: Iterable[str]) -> None:
    """Appoint `user` to every office of `cities` held by appointment that one of its staff roles maps to."""
    roles = set(user.groups.values_list("name", flat=True))
    for city in cities:
        for office in appointed_offices(city):
            if roles & set(office.staff):
                OfficeHolder.objects.get_or_create(user=user, jurisdiction=city, office=office.id)
    user.__dict__.pop("_dogcase_offices", None)

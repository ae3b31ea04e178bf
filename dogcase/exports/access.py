"""Who may take records out (docs/data.md, "Taking records out"). Checked on the server for every download.

- The lists (CSV, XLSX): the staff who keep or check the records of their cities — the animal control and
  police officers, the city clerk, the administrator and the auditor (read-only: a list taken out changes
  nothing). The hearing officer and the council clerk decide on one case at a time and take nothing out in
  bulk. Each list holds only the rows of the cities the person works for.
- The whole city as one archive: the city's administrator only, for a city they administer; each archive
  taken is written in the city's audit trail.
"""

from __future__ import annotations

from dogcase.cases.access import cities_of, staff_roles

LIST_ROLES = frozenset({"animal_control_officer", "police_officer", "city_clerk", "administrator", "auditor"})
ARCHIVE_ROLES = frozenset({"administrator"})


def may_export(user) -> bool:
    """Whether the user may take lists out (of their own cities only)."""
    return bool(staff_roles(user) & LIST_ROLES) and bool(cities_of(user))


def may_take_archive(user) -> bool:
    """Whether the user administers a city, whose whole archive they may take."""
    return bool(staff_roles(user) & ARCHIVE_ROLES) and bool(cities_of(user))

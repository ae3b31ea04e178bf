"""Exports are read from cases made through the acts (tests/staff/conftest.py's intake, tests/documents/conftest.py's
cases whose steps issue their documents), by staff of one city or both."""

import pytest

from tests.documents.conftest import make_case, media  # noqa: F401
from tests.staff.conftest import BATTLE_LAKE, clerk, officer  # noqa: F401


@pytest.fixture
def bl_clerk(make_staff_user):
    """A clerk of Battle Lake only."""
    return make_staff_user("city_clerk", username="bl-clerk", cities=(BATTLE_LAKE,))


@pytest.fixture
def bl_admin(make_staff_user):
    return make_staff_user("administrator", username="bl-admin", cities=(BATTLE_LAKE,))

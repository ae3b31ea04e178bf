"""Cases declared dangerous, made through the acts as staff would, for the proof tests."""

import pytest

from tests.staff.conftest import auditor, clerk, declare, hearing_officer, officer, record_bite  # noqa: F401

BATTLE_LAKE = "battle-lake-mn"
TRACY = "tracy-mn"


@pytest.fixture
def dangerous_case(officer):  # noqa: F811
    """A Tracy case whose dog was just declared dangerous: four conditions of registration to prove."""

    def make(city: str = TRACY):
        case = record_bite(officer, city=city)
        declare(case, officer, designation="dangerous")
        case.refresh_from_db()
        return case

    return make

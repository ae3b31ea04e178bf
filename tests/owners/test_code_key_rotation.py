"""An owner's code survives a rotation of the site's key (SECRET_KEY moved to SECRET_KEY_FALLBACKS): it still
signs the owner in, and the next notice prints the same code instead of replacing it."""

from __future__ import annotations

from dogcase.owners import codes
from dogcase.owners.models import CaseAccessCode
from tests.cases.conftest import story  # noqa: F401  (the story fixture)
from tests.owners.conftest import owner_of, served_case  # noqa: F401  (the served_case fixture)

OLD, NEW = "old-site-key-" + "x" * 40, "new-site-key-" + "y" * 40


def test_a_code_made_under_the_old_key_works_and_prints_again_after_rotation(served_case, settings):  # noqa: F811
    s = served_case
    person = owner_of(s)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = OLD, []
    row, code = codes.code_for_notice(s.case, person, actor=s.staff["officer"])

    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = NEW, [OLD]
    assert codes.find_live(code) == row
    again, printed = codes.code_for_notice(s.case, person, actor=s.staff["officer"])
    assert (again, printed) == (row, code)  # the same code, not a new generation
    assert CaseAccessCode.objects.filter(case=s.case, person=person).count() == 1

    # once the old key is dropped from the fallbacks, its codes open nothing (and a notice issues a new one)
    settings.SECRET_KEY_FALLBACKS = []
    assert codes.find_live(code) is None
    newer, new_code = codes.code_for_notice(s.case, person, actor=s.staff["officer"])
    assert newer != row and new_code != code and codes.find_live(new_code) == newer


def test_a_replaced_code_is_still_recognised_as_replaced_after_rotation(served_case, settings):  # noqa: F811
    s = served_case
    person = owner_of(s)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = OLD, []
    old_row, old_code = codes.code_for_notice(s.case, person, actor=s.staff["officer"])
    codes.issue_code(s.case, person, actor=s.staff["officer"], reason="lost")

    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = NEW, [OLD]
    assert codes.find_live(old_code) is None
    assert codes.find_replaced(old_code) == old_row

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import envbool


@pytest.mark.parametrize("value", ["yes", "true", "1", "", "False "])
def test_envbool_rejects_anything_but_True_or_False(monkeypatch, value):
    monkeypatch.setenv("DOGCASE_TEST_FLAG", value)

    with pytest.raises(ImproperlyConfigured, match="DOGCASE_TEST_FLAG"):
        envbool("DOGCASE_TEST_FLAG", "False")


@pytest.mark.parametrize(("value", "expected"), [("True", True), ("False", False)])
def test_envbool_reads_True_and_False(monkeypatch, value, expected):
    monkeypatch.setenv("DOGCASE_TEST_FLAG", value)

    assert envbool("DOGCASE_TEST_FLAG", "False") is expected


def test_envbool_falls_back_to_its_default(monkeypatch):
    monkeypatch.delenv("DOGCASE_TEST_FLAG", raising=False)

    assert envbool("DOGCASE_TEST_FLAG", "True") is True


def test_time_zone_is_minnesotas(settings):
    assert settings.TIME_ZONE == "America/Chicago"
    assert settings.USE_TZ is True

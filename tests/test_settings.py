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


def _settings_in_production(tmp_path, **env):
    """Import the settings in a fresh interpreter with DEBUG=False and the given environment."""
    import os
    import subprocess
    import sys

    base = {k: v for k, v in os.environ.items() if not k.startswith(("DOGCASE_AUDIT_KEY", "DEBUG"))}
    base.update(
        {
            "DEBUG": "False",
            "SECRET_KEY": "s" * 50,
            "ALLOWED_HOSTS": "dogcase.example.org",
            "DOGCASE_VAR_DIR": str(tmp_path),
            **env,
        }
    )
    return subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-c", "import config.settings as s; print(len(s.DOGCASE_AUDIT_KEY))"],
        env=base,
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_refuses_to_start_without_an_audit_key(tmp_path):
    result = _settings_in_production(tmp_path)
    assert result.returncode != 0
    assert "DOGCASE_AUDIT_KEY must be set when DEBUG is False" in result.stderr


@pytest.mark.parametrize(
    "key", ["too short", "dogcase development audit key - not a secret, never for production"]
)
def test_production_refuses_a_short_or_the_development_audit_key(tmp_path, key):
    result = _settings_in_production(tmp_path, DOGCASE_AUDIT_KEY=key)
    assert result.returncode != 0
    assert "at least 32 characters" in result.stderr


def test_production_reads_the_audit_key_from_the_environment_or_a_file(tmp_path):
    assert _settings_in_production(tmp_path, DOGCASE_AUDIT_KEY="k" * 40).stdout.strip() == "40"
    key_file = tmp_path / "audit.key"
    key_file.write_text("f" * 48 + "\n")
    assert _settings_in_production(tmp_path, DOGCASE_AUDIT_KEY_FILE=str(key_file)).stdout.strip() == "48"


def test_development_uses_the_development_key_when_none_is_set(tmp_path):
    result = _settings_in_production(tmp_path, DEBUG="True")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(
        len("dogcase development audit key - not a secret, never for production")
    )

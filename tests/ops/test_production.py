"""The production configuration: `check --deploy` clean with a production environment, the settings that
refuse to start half-configured, and gunicorn serving the app with JSON logs (what `make serve` runs)."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def production_env(tmp_path):
    """The environment docs/deploy.md asks for, behind a TLS proxy."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "DEBUG", "SECURE_"))}
    return env | {
        "DEBUG": "False",
        "SECRET_KEY": "a-production-like-secret-key-" + "x7Qp2Lm9" * 8,
        "DOGCASE_AUDIT_KEY": "a-production-like-audit-key-" + "k3Vn8Rt5" * 6,
        "ALLOWED_HOSTS": "dogcase.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://dogcase.example.org",
        "SECURE_PROXY_SSL": "True",
        "DOGCASE_CLIENT_IP_HEADER": "X-Forwarded-For",
        "DOGCASE_VAR_DIR": str(tmp_path / "var"),
        "EMAIL_HOST": "smtp.example.org",
        "DEFAULT_FROM_EMAIL": "animals@example.org",
        "DOGCASE_SITE_URL": "https://dogcase.example.org",
    }


def manage(*args, env):
    return subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_in_the_production_environment(production_env):
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env)

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_without_a_mail_server(production_env):
    env = {
        k: v
        for k, v in production_env.items()
        if k not in ("EMAIL_HOST", "DEFAULT_FROM_EMAIL", "DOGCASE_SITE_URL")
    }
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 1
    assert "dogcase.W101" in result.stderr and "dogcase.W102" in result.stderr
    assert "dogcase.E103" in result.stderr


def test_check_deploy_fails_without_the_site_address_even_at_the_default_fail_level(production_env):
    env = {k: v for k, v in production_env.items() if k != "DOGCASE_SITE_URL"}
    assert manage("check", "--deploy", env=env).returncode == 1
    assert manage("check", "--deploy", env=production_env).returncode == 0


def test_check_deploy_warns_when_production_turns_https_off(production_env):
    https_off = {"SECURE_HSTS_SECONDS": "0", "SECURE_SSL_REDIRECT": "False", "SECURE_COOKIES": "False"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env | https_off)

    assert result.returncode != 0
    for check_id in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check_id in result.stderr


def test_check_deploy_warns_behind_a_proxy_without_the_client_address_header(production_env):
    # every client would have the proxy's address: one failed-login count (and lock) for everybody
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", env=production_env | {"DOGCASE_CLIENT_IP_HEADER": ""}
    )

    assert result.returncode != 0
    assert "dogcase.W001" in result.stderr
    assert "DOGCASE_CLIENT_IP_HEADER" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts(production_env):
    env = production_env | {"ALLOWED_HOSTS": ""}
    result = manage("check", env=env)

    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is False" in result.stderr


@pytest.mark.parametrize(("variable", "value"), [("DOGCASE_STORAGE", "ftp"), ("LOG_FORMAT", "xml")])
def test_a_mistyped_production_setting_is_an_error_naming_it(production_env, variable, value):
    result = manage("check", env=production_env | {variable: value})

    assert result.returncode != 0
    assert variable in result.stderr


def test_an_s3_store_needs_its_bucket(production_env):
    result = manage("check", env=production_env | {"DOGCASE_STORAGE": "s3"})

    assert result.returncode != 0
    assert "DOGCASE_S3_BUCKET" in result.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gunicorn_serves_the_app_with_one_json_log_line_per_request(production_env):
    port = free_port()
    env = production_env | {"DOGCASE_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"}
    (Path(env["DOGCASE_VAR_DIR"]) / "static").mkdir(parents=True)  # where collectstatic puts the files
    server = subprocess.Popen(  # noqa: S603
        [str(Path(sys.executable).parent / "gunicorn"), "--config", "config/gunicorn.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        health = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:  # noqa: S310
                    health = json.loads(response.read())
                break
            except OSError:
                time.sleep(0.1)
        assert health == {"status": "ok", "database": "ok", "packs": health["packs"]} and health["packs"] >= 3
        request = urllib.request.Request(  # noqa: S310
            f"http://127.0.0.1:{port}/api/v1/facts?q=Smith",
            headers={"Host": "dogcase.example.org", "X-Forwarded-Proto": "https", "X-Request-ID": "lb-42"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
            assert response.status == 200
            assert response.headers["X-Request-ID"] == "lb-42"
            assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    assert len(lines) == len(output.splitlines()), output  # every line is JSON
    (logged,) = [line for line in lines if line.get("request_id") == "lb-42"]
    assert logged["logger"] == "dogcase.request"
    assert logged["path"] == "/api/v1/facts" and logged["status"] == 200 and logged["user_id"] is None
    assert isinstance(logged["duration_ms"], float) and 0 < logged["duration_ms"] < 60_000
    assert "Smith" not in output  # the query string (a search for a person) is never logged


def database_options(env) -> dict | str:
    """The default database's OPTIONS as config.settings builds them in `env` (or the error it raises)."""
    code = "import django; django.setup(); from django.conf import settings as s; print(s.DATABASES['default'].get('OPTIONS', {}))"
    result = subprocess.run(  # noqa: S603 - our own code
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.stdout.strip() if result.returncode == 0 else result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        # JIT off, and the generic plan for the dashboard's statements prepared on the connection
        ({}, "{'options': '-c jit=off -c plan_cache_mode=force_generic_plan'}"),
        # what the operator's PGOPTIONS or the URL's ?options= asked for is kept, JIT off after it
        (
            {"PGOPTIONS": "-c statement_timeout=5000"},
            "{'options': '-c statement_timeout=5000 -c jit=off -c plan_cache_mode=force_generic_plan'}",
        ),
        (
            {"DATABASE_URL": "postgres://dogcase@db.internal/dogcase?options=-c%20search_path%3Dcity"},
            "{'options': '-c search_path=city -c jit=off -c plan_cache_mode=force_generic_plan'}",
        ),  # fmt: skip
        # no statement prepared: no plan mode asked
        ({"DOGCASE_PG_PREPARE": "off"}, "{'options': '-c jit=off'}"),
        # behind a pooler that refuses startup options: nothing asked (the role's setting does it)
        ({"DOGCASE_PG_JIT": "server"}, "{}"),
        (
            {"DOGCASE_PG_JIT": "no"},
            "ImproperlyConfigured: Unexpected value DOGCASE_PG_JIT='no', use 'off' or 'server'",
        ),
        (
            {"DOGCASE_PG_PREPARE": "yes"},
            "ImproperlyConfigured: Unexpected value DOGCASE_PG_PREPARE='yes', use 'on' or 'off'",
        ),
    ],
)
def test_postgresql_connections_ask_for_jit_off_unless_the_server_decides(production_env, extra, expected):
    env = production_env | {"DATABASE_URL": "postgres://dogcase@db.internal/dogcase"} | extra
    if "PGOPTIONS" not in extra:
        env.pop("PGOPTIONS", None)
    assert database_options(env).endswith(expected)

"""The platform promises: health check, deploy check, API schema, security headers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x7!kq#2v$9z@pl4m8n&w0r^t6y*u1i(o3e)a5s_d+f-g=h~j`k[l]c{v}b|n<m>,.?",
    "ALLOWED_HOSTS": "chronique.example.org",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


def _manage(*args, env=None, timeout=120):
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_it_passes_the_deploy_check_with_production_values():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_warns_when_production_values_are_missing():
    """The deploy check is a real gate: without HSTS and secure cookies it fails."""
    env = {**PRODUCTION_ENV, "SECURE_HSTS_SECONDS": "0", "SESSION_COOKIE_SECURE": "false"}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout


@pytest.mark.django_db
def test_it_reports_healthy_when_the_database_and_broker_answer(client, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] is True
    if settings.CELERY_BROKER_URL:
        assert body["checks"]["broker"] is True


def _python_with_django(code: str, env: dict) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter whose settings come from `env`."""
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _healthz_in_subprocess(env: dict) -> tuple[int, dict]:
    code = (
        "import json\n"
        "from django.test import Client\n"
        "r = Client(HTTP_HOST='localhost').get('/healthz')\n"
        "print(json.dumps({'status': r.status_code, 'body': r.json()}))\n"
    )
    result = _python_with_django(code, env)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    return out["status"], out["body"]


def test_it_turns_503_when_the_database_is_unreachable():
    status, body = _healthz_in_subprocess(
        {
            "DATABASE_URL": "postgres://nobody@127.0.0.1:1/chronique",
            "DATABASE_POOL": "false",
            "CELERY_BROKER_URL": "",
        }
    )
    assert status == 503
    assert body == {"status": "unavailable", "checks": {"database": False}}


def test_it_turns_503_when_the_broker_is_unreachable(tmp_path):
    status, body = _healthz_in_subprocess(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",
        }
    )
    assert status == 503
    assert body["checks"] == {"database": True, "broker": False}


@pytest.mark.django_db
def test_it_serves_a_valid_openapi_schema(client):
    from drf_spectacular.validation import validate_schema

    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    validate_schema(schema)
    assert schema["info"]["title"] == "Chronique API"
    assert "/api/v1/me/" in schema["paths"]
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])


def test_it_generates_the_schema_without_warnings():
    result = _manage("spectacular", "--validate", "--fail-on-warn", "--file", os.devnull)
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_it_serves_the_api_documentation_without_a_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger" in html.lower()
    assert "cdn.jsdelivr" not in html and "unpkg" not in html
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy


@pytest.mark.django_db
def test_it_sends_a_strict_content_security_policy(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-eval" not in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_it_configures_htmx_for_same_origin_requests_without_eval(client):
    html = client.get("/").content.decode()
    assert 'name="htmx-config"' in html
    start = html.index("content='", html.index('name="htmx-config"')) + len("content='")
    config = json.loads(html[start : html.index("'", start)])
    assert config["selfRequestsOnly"] is True
    assert config["allowEval"] is False
    assert config["allowScriptTags"] is False
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    # htmx is vendored: the only scripts are our own static files.
    assert html.count("<script") == html.count('<script src="/static/')


@pytest.mark.django_db
def test_it_refuses_a_form_without_its_csrf_token(player, password):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_it_refuses_an_htmx_post_without_the_csrf_header(player):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("account-token"), {"action": "rotate"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    client.get(reverse("account"))
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("account-token"),
        {"action": "rotate"},
        HTTP_HX_REQUEST="true",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200


def test_it_sets_hsts_and_secure_cookies_from_the_environment():
    code = (
        "from django.conf import settings as s\n"
        "print(s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SECURE_SSL_REDIRECT, s.DEBUG, s.X_FRAME_OPTIONS)\n"
    )
    result = _python_with_django(code, PRODUCTION_ENV)
    assert result.stdout.split() == ["31536000", "True", "True", "True", "False", "DENY"]


def test_the_deploy_check_asks_for_a_shared_cache_behind_cached_sessions():
    """Sessions and the signed-in player are read from the cache: a per-process cache would
    keep a logout made through one server process from reaching the others."""
    env = {**PRODUCTION_ENV, "CACHE_URL": "locmemcache://"}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "chronique.W001" in result.stdout + result.stderr
    assert "CACHE_URL" in result.stdout + result.stderr


def test_the_deploy_check_fails_on_the_public_development_key():
    """The default SECRET_KEY is in the repository: a deployment still using it fails the
    deploy check, with the way to make one."""
    env = {k: v for k, v in {**os.environ, **PRODUCTION_ENV}.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "chronique.E001" in result.stdout + result.stderr
    assert "secrets.token_urlsafe" in result.stdout + result.stderr

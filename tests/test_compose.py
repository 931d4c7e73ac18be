"""The container deployment: Dockerfile, docker-compose.yml and .env.example agree.

No Docker engine is needed: the files are parsed and checked against what the
operator relies on (services, health checks, shared image, environment).
"""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
ENV_EXAMPLE = ROOT / ".env.example"
SETTINGS = ROOT / "config" / "settings.py"
APP_SERVICES = ("web", "ws", "worker", "beat")


def _services() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]


def _text(value) -> str:
    """A command or healthcheck test, in string or list form, as one string."""
    if isinstance(value, list):
        return " ".join(str(part) for part in value)
    return str(value)


def _environment(service: dict) -> dict:
    """The service's environment, in mapping or `KEY=value` list form, as a dict."""
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        return dict(item.split("=", 1) if "=" in item else (item, None) for item in environment)
    return environment


def _condition(service: dict, dependency: str) -> str | None:
    depends_on = service.get("depends_on") or {}
    if isinstance(depends_on, list):
        return None
    return (depends_on.get(dependency) or {}).get("condition")


def _settings_variables() -> set[str]:
    source = SETTINGS.read_text(encoding="utf-8")
    return set(re.findall(r"env\.\w+\(\s*\"([A-Z_]+)\"", source)) | set(
        re.findall(r"env\(\"([A-Z_]+)\"", source)
    )


def test_it_defines_the_services():
    """`docker compose up` starts the database, the broker, the pages (WSGI), the live
    table's WebSockets (ASGI), the proxy in front of both, a worker and beat."""
    assert {"db", "redis", "proxy", "web", "ws", "worker", "beat"} <= set(_services())


def test_it_builds_one_image_from_the_dockerfile_for_every_app_service():
    """The site, the worker and beat run the same code, built from the project's Dockerfile."""
    services = _services()
    images = {services[name].get("image") for name in APP_SERVICES}
    assert len(images) == 1
    assert None not in images
    for name in APP_SERVICES:
        build = services[name].get("build")
        assert build is not None, name
        if isinstance(build, str):
            build = {"context": build}
        context = ROOT / build.get("context", ".")
        assert context.resolve() == ROOT
        assert (context / build.get("dockerfile", "Dockerfile")).resolve() == DOCKERFILE


def test_it_runs_postgres_16_with_a_pg_isready_healthcheck():
    """The app waits for a PostgreSQL 16 that actually accepts connections."""
    db = _services()["db"]
    assert db["image"].split(":")[0] == "postgres"
    assert db["image"].split(":")[1].split(".")[0] == "16"
    assert "pg_isready" in _text(db["healthcheck"]["test"])


def test_it_gives_redis_a_healthcheck():
    """Services that need the broker start only once Redis answers."""
    redis = _services()["redis"]
    assert redis["image"].startswith("redis")
    assert "redis-cli ping" in _text(redis["healthcheck"]["test"])


def test_it_starts_web_and_worker_only_once_the_database_is_healthy():
    """No crash loop at boot: the site and the worker wait for a healthy database."""
    services = _services()
    for name in ("web", "ws", "worker"):
        assert _condition(services[name], "db") == "service_healthy", name
        assert _condition(services[name], "redis") == "service_healthy", name
    assert _condition(services["beat"], "redis") == "service_healthy"


def test_it_serves_the_pages_over_wsgi_with_gunicorn_threads_after_migrating():
    """The web container migrates the database, then serves config.wsgi (the pages and the
    API) on gunicorn's threaded workers, reading the visitor's address from the proxy."""
    web = _services()["web"]
    command = _text(web["command"])
    assert "migrate --noinput" in command
    assert "gunicorn config.wsgi:application" in command
    assert command.index("migrate") < command.index("gunicorn")
    assert "--worker-class gthread" in command
    assert "--threads" in command
    assert "--proxy-protocol" in command
    assert "ports" not in web  # reached through the proxy only


def test_it_serves_the_websockets_over_asgi_with_daphne():
    """The ws container serves config.asgi with daphne: the live encounter's WebSockets,
    on a Redis channel layer so that every process hears every change."""
    ws = _services()["ws"]
    command = _text(ws["command"])
    assert "daphne" in command
    assert "config.asgi:application" in command
    assert "--proxy-headers" in command
    assert "ports" not in ws
    for name in ("web", "ws"):
        assert _services()[name]["environment"]["CHANNEL_REDIS_URL"].startswith("redis://")


def test_its_proxy_sends_the_websockets_to_daphne_and_the_rest_to_gunicorn():
    """Port 8000 is the proxy's: /ws/ goes to the ASGI server, every other path to the WSGI
    one, with the visitor's address (PROXY protocol to gunicorn, one request a connection,
    since gunicorn reads that address only at a connection's start)."""
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    proxy = compose["services"]["proxy"]
    assert proxy["ports"] == ["8000:8000"]
    source = proxy["configs"][0]["source"]
    config = compose["configs"][source]["content"]
    assert re.search(r"use_backend ws if \{ path_beg /ws/ \}", config)
    assert "default_backend web" in config
    web = config[config.index("backend web") :]
    assert re.search(r"server web web:8000 send-proxy\b", web)
    assert "option http-server-close" in web.split("backend ws")[0]
    assert "server ws ws:8001" in config[config.index("backend ws") :]
    for name in ("web", "ws"):
        assert _condition(proxy, name) == "service_healthy", name


def test_its_proxy_overwrites_x_forwarded_for_with_the_address_it_sees():
    """A client reaching port 8000 cannot choose the address login lockouts count: the
    proxy drops the X-Forwarded-For it receives and sets it from the address it sees (the
    TLS proxy's header is read only when it connects from TLS_PROXY_ADDRESSES, nobody by
    default), and web takes the PROXY protocol and forwarded headers from the proxy's
    network only."""
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    config = compose["configs"]["haproxy"]["content"]
    frontend = config[config.index("frontend chronique") : config.index("backend web")]
    rules = [line.strip() for line in frontend.splitlines() if line.strip().startswith("http")]
    delete = rules.index("http-request del-header X-Forwarded-For")
    assert rules[delete + 1] == "http-request set-header X-Forwarded-For %[src]"
    assert all(
        rule.startswith("http-request set-src") and " if from_tls_proxy " in rule
        for rule in rules[:delete]
    )
    assert "acl from_tls_proxy src ${TLS_PROXY_ADDRESSES:-127.0.0.1}" in frontend
    for appending in ("option forwardfor", "add-header x-forwarded-for"):
        assert appending not in config.lower()
    assert "x-forwarded-for" not in config[config.index("backend web") :].lower()
    services, subnet = compose["services"], "${EDGE_SUBNET:-10.217.80.0/28}"
    assert compose["networks"]["edge"]["ipam"]["config"] == [{"subnet": subnet}]
    assert services["proxy"]["networks"] == ["edge"]
    assert services["web"]["networks"] == services["ws"]["networks"] == ["default", "edge"]
    web = _text(services["web"]["command"])
    assert "'*'" not in web
    assert f"--proxy-allow-from {subnet}" in web
    assert f"--forwarded-allow-ips 127.0.0.1,::1,{subnet}" in web


def test_it_runs_the_celery_worker_and_beat():
    """Background tasks are consumed by a worker, and scheduled ones sent by beat."""
    services = _services()
    assert "celery -A config worker" in _text(services["worker"]["command"])
    assert "celery -A config beat" in _text(services["beat"]["command"])


def test_it_configures_the_app_services_for_production():
    """Every app container talks to the db and redis services, needs a key and hides debug."""
    services = _services()
    for name in APP_SERVICES:
        environment = _environment(services[name])
        assert "@db:5432/" in environment["DATABASE_URL"], name
        assert environment["DATABASE_URL"].startswith("postgres"), name
        assert environment["CELERY_BROKER_URL"].startswith("redis://redis:6379"), name
        assert environment.get("SECRET_KEY"), name
        assert str(environment["DEBUG"]).lower() in {"false", "0", "no", "off"}, name


def test_it_probes_the_health_endpoint_of_the_web_and_ws_services():
    """Compose reports the site unhealthy when /healthz stops answering, on either server."""
    for name, port in (("web", 8000), ("ws", 8001)):
        test = _text(_services()[name]["healthcheck"]["test"])
        assert "urllib" in test
        assert f"127.0.0.1:{port}/healthz" in test


def test_it_builds_a_python_3_11_image_that_does_not_run_as_root():
    """The image matches the project's Python and a break-in does not get root."""
    assert DOCKERFILE.is_file()
    dockerfile = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^FROM\s+python:3\.11", dockerfile, re.MULTILINE)
    users = re.findall(r"^USER\s+(\S+)", dockerfile, re.MULTILINE)
    assert users
    assert users[-1].split(":")[0] not in {"root", "0"}


def test_it_documents_every_setting_in_the_env_example():
    """An operator finds every variable settings.py reads explained in .env.example."""
    variables = _settings_variables()
    assert {"SECRET_KEY", "DATABASE_URL", "STATICFILES_STORAGE"} <= variables
    documented = set(
        re.findall(r"^#?\s*([A-Z_]+)=", ENV_EXAMPLE.read_text(encoding="utf-8"), re.MULTILINE)
    )
    assert sorted(variables - documented) == []


def test_its_proxy_sends_only_websocket_upgrades_to_daphne_and_caps_bodies():
    """A `POST /ws/x/` of a gigabyte never reaches daphne: the proxy answers anything but an
    upgrade on /ws/ itself, refuses a body longer than REQUEST_BODY_MAX or of unknown length,
    and the ws service serves no page (config/asgi_gate.py)."""
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    config = compose["configs"]["haproxy"]["content"]
    frontend = config[config.index("frontend chronique") : config.index("backend web")]
    assert "acl websocket_upgrade req.hdr(upgrade) -i websocket" in frontend
    assert "use_backend ws if { path_beg /ws/ } websocket_upgrade" in frontend
    assert re.search(
        r"http-request return status 426 .* if \{ path_beg /ws/ \} !websocket_upgrade", frontend
    )
    assert re.search(
        r"deny_status 413 if \{ req.hdr_val\(content-length\) gt "
        r"\$\{REQUEST_BODY_MAX:-16777216\} \}",
        frontend,
    )
    assert re.search(
        r"return status 411 .* if \{ req.hdr_cnt\(transfer-encoding\) gt 0 \}", frontend
    )
    ws = _environment(_services()["ws"])
    assert ws["ASGI_SERVES_PAGES"] == "false"
    assert "ASGI_SERVES_PAGES" not in _environment(_services()["web"])

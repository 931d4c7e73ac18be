"""Project-wide pages: the home page and the health check."""

import logging

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.celery import app
from rules.engine.systems import SYSTEMS

logger = logging.getLogger(__name__)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The presentation of Chronique; a signed-in player's home is their dashboard."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    return render(request, "home.html", {"systems": SYSTEMS})


THEMES = ("auto", "light", "dark")
THEME_COOKIE_AGE = 365 * 24 * 3600


@require_POST
def set_theme(request: HttpRequest) -> HttpResponse:
    """The header's theme switch: the device's setting, light or dark, kept in a cookie that
    base.html reads into <body data-theme> (no script needed, none inline)."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = redirect(target)
    theme = request.POST.get("theme", "auto")
    if theme in THEMES and theme != "auto":
        response.set_cookie(
            "theme", theme, max_age=THEME_COOKIE_AGE, samesite="Lax", secure=request.is_secure()
        )
    else:
        response.delete_cookie("theme", samesite="Lax")
    return response


def _database_ok() -> bool:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        logger.warning("healthz: the database does not answer", exc_info=True)
        return False


def _broker_ok() -> bool:
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True
    except Exception:
        logger.warning("healthz: the broker does not answer", exc_info=True)
        return False


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every configured dependency answers, 503 otherwise."""
    checks = {"database": _database_ok()}
    if settings.CELERY_BROKER_URL:
        checks["broker"] = _broker_ok()
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )

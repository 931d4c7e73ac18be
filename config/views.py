"""Project-wide pages: the home page, the health check, and the error answers (JSON with a
sentence under /api/, a page otherwise)."""

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.api import too_large_sentence
from config.celery import app
from rules.engine.systems import SYSTEMS

logger = logging.getLogger(__name__)


# What each game system offers today, as links from the home page; a system that offers
# nothing yet is not shown (its name alone would promise what does not work).
OFFERS = {
    "kolaps": (
        ("kolaps-test", {}, _("Calculators")),
        ("kolaps-list", {}, _("Units")),
        ("catalogue", {"system": "kolaps"}, _("Catalogue")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "of-the-dead": (
        ("profile-mine", {}, _("My profile")),
        ("of-the-dead-calculator", {"resolver": "brawl"}, _("Calculators")),
        ("catalogue", {"system": "of-the-dead"}, _("Catalogue")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "rapid40k": (
        ("rapid40k-calculator", {"resolver": "cost"}, _("Calculators")),
        ("rapid40k-list", {}, _("Army lists")),
        ("catalogue", {"system": "rapid40k"}, _("Catalogue")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "corporates": (
        ("dice-calculators", {"system": "corporates"}, _("Calculators")),
        ("corporates-list", {}, _("Characters")),
        ("corporates-turn", {}, _("Turn tracker")),
        ("catalogue", {"system": "corporates"}, _("Catalogue")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "modern-rpg": (
        ("dice-calculators", {"system": "modern-rpg"}, _("Calculators")),
        ("modern-list", {}, _("Characters")),
        ("modern-chase", {}, _("Chase tracker")),
        ("catalogue", {"system": "modern-rpg"}, _("Catalogue")),
        ("campaign-list", {}, _("Campaigns")),
    ),
}


def _working_systems() -> list[dict]:
    return [
        {
            "system": system,
            "links": [(reverse(name, kwargs=kwargs), label) for name, kwargs, label in offers],
        }
        for system in SYSTEMS
        if (offers := OFFERS.get(system.slug))
    ]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The presentation of Chronique; a signed-in player's home is their dashboard."""
    if request.user.is_authenticated:
        return redirect("dashboard")
    return render(request, "home.html", {"systems": _working_systems()})


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


# --- Error answers (config/urls.py's handler400/403/404/500) --------------------------------


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django could not take: a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413), too
    many form fields, or another malformed request (400); each said in a sentence."""
    if isinstance(exception, RequestDataTooBig):
        status = 413
        message = too_large_sentence()
    elif isinstance(exception, TooManyFieldsSent):
        status, message = 400, _("This form sends too many fields.")
    else:
        status, message = 400, _("This request could not be read.")
    if _is_api(request):
        return JsonResponse({"detail": message}, status=status)
    return render(request, "refusal.html", {"message": message}, status=status)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"detail": _("You do not have permission to perform this action.")}, status=403
        )
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": _("A server error occurred.")}, status=500)
    return defaults.server_error(request)

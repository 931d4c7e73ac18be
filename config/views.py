"""Project-wide pages: the home page and the health check."""

import logging

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app
from rules.engine.systems import SYSTEMS

logger = logging.getLogger(__name__)


# What each game system offers today, as links from the home page; a system that offers
# nothing yet is not shown (its name alone would promise what does not work).
OFFERS = {
    "kolaps": (
        ("kolaps-test", {}, _("Calculators")),
        ("kolaps-list", {}, _("Units")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "of-the-dead": (
        ("profile-mine", {}, _("My profile")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "corporates": (
        ("dice-calculators", {"system": "corporates"}, _("Calculators")),
        ("corporates-turn", {}, _("Turn tracker")),
        ("campaign-list", {}, _("Campaigns")),
    ),
    "modern-rpg": (
        ("dice-calculators", {"system": "modern-rpg"}, _("Calculators")),
        ("modern-list", {}, _("Characters")),
        ("modern-chase", {}, _("Chase tracker")),
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
    return render(request, "home.html", {"systems": _working_systems()})


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

"""The KOLAPS unit page with 30 characters against the minimal page (target: >= 0.3x),
and its print view and the character builder beside it (no target).

Same method as test_pages_bench.py: requests per second on one process and database,
as a ratio to the minimal page measured in the same run.
"""

import pytest
from django.test import Client
from django.urls import reverse

from characters.kolaps import services
from tests.benchmarks.test_pages_bench import _rate
from tests.benchmarks.units import unit_of_30
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_bench_unit_page_with_30_characters(settings):
    settings.CELERY_BROKER_URL = ""
    owner = PlayerFactory()
    unit = unit_of_30(owner)
    first = unit.members.order_by("position").first()
    services.unit_set_avatar(actor=owner, unit=unit, version=unit.version, character=first)
    client = Client()
    client.force_login(owner)
    minimal = _rate(client, reverse("password_reset_done"))
    results = {
        "KOLAPS unit page, 30 characters": _rate(client, reverse("kolaps-unit", args=[unit.pk])),
        "KOLAPS unit print, 30 sheets": _rate(client, reverse("kolaps-unit-print", args=[unit.pk])),
        "KOLAPS character builder": _rate(client, reverse("kolaps-character", args=[first.pk])),
    }
    print(f"\nminimal page: {minimal:.0f} req/s in this run (the reference)")
    for name, rate in results.items():
        target = " (target >= 0.3x)" if name.startswith("KOLAPS unit page") else ""
        print(f"{name}: {rate / minimal:.2f}x the minimal page's rate{target}")
    assert all(rate > 0 for rate in results.values())

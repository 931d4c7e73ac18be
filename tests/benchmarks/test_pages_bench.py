"""Page cost, as ratios measured in one run (never absolute times).

`make bench` prints how many requests per second each page serves relative to a minimal
page on the same process and database: a static sentence in the site layout (the
"check your e-mail" page), through the whole middleware stack with a logged-in session.
Ratio 1.0 means as cheap as the minimal page.
"""

import time

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.services import campaign_add_participant, campaign_create
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ROUNDS = 200


def _rate(client: Client, url: str) -> float:
    for _ in range(10):  # warm-up: templates compiled, connections open
        assert client.get(url).status_code == 200
    start = time.perf_counter()
    for _ in range(ROUNDS):
        client.get(url)
    return ROUNDS / (time.perf_counter() - start)


def test_bench_pages_against_a_minimal_page(settings):
    settings.CELERY_BROKER_URL = ""  # /healthz then costs one `SELECT 1`, no broker round trip
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Bench", system="of-the-dead")
    for _ in range(30):
        campaign_add_participant(actor=organiser, campaign=campaign, player=PlayerFactory())
    client = Client()
    client.force_login(organiser)
    minimal = _rate(client, reverse("password_reset_done"))
    results = {
        "/healthz (one SELECT 1)": _rate(client, "/healthz"),
        "dashboard": _rate(client, reverse("dashboard")),
        "campaign page, 30 participants": _rate(
            client, reverse("campaign-detail", args=[campaign.pk])
        ),
        "campaign list": _rate(client, reverse("campaign-list")),
    }
    print(f"\nminimal page: {minimal:.0f} req/s in this run (the reference)")
    for name, rate in results.items():
        print(f"{name}: {rate / minimal:.2f}x the minimal page's rate")
    assert all(rate > 0 for rate in results.values())

"""Page speed, as ratios measured in one run on one process and database.

Targets: the minimal page in the site layout ("check your e-mail") at least 0.4x a bare
response through the whole middleware stack (a logged-in session, nothing rendered); the
KOLAPS unit page with 30 characters at least 0.3x the minimal page; the print sheet of those
30 characters at least 0.1x the minimal page. The print sheet is also measured cold (the
sheet cache off: a unit printed once) beside warm (printed again: each character's sheet
from the cache until something it shows changes). And the owner's first view of the unit
page and of the print after a change to a member (renamed, untimed): rendered for that
request, the print with every other sheet from the cache (no target: the ratio to the
minimal page is what the owner waits for after a change).

`PROFILE=1 make bench PYTEST_ARGS=-k page_speed` writes a cProfile of each page to
`test-output/profile-<page>.txt` (where the time goes).
"""

import cProfile
import io
import os
import pstats
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from characters.kolaps import services
from tests.benchmarks.units import unit_of_30
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
ROUNDS = 200
SHEET_SECONDS = 3600
OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output"
TARGETS = {"minimal page": ("bare", 0.4), "unit page": ("minimal page", 0.3)}
TARGETS |= {"print sheet": ("minimal page", 0.1), "print sheet, cold": ("minimal page", 0.1)}
# Printed as a ratio, without a target.
RATIOS = dict.fromkeys(("unit page, after a change", "print sheet, after a change"), "minimal page")
WARM, COLD, CHANGED = "warm", "cold", "after a change"


def _member_renamed(owner, unit) -> Callable[[], None]:
    """A change to the unit: one member renamed, in turn to one of two names."""
    character = unit.members.order_by("position").first()

    def rename() -> None:
        character.refresh_from_db()
        name = "Ornella" if character.name != "Ornella" else "Agent 0"
        services.character_change(
            actor=owner, character=character, op="rename", version=character.version, name=name
        )

    return rename


def _rates(
    client: Client, pages: dict[str, tuple[str, str]], change: Callable[[], None]
) -> dict[str, float]:
    """Requests per second of each page, from the median time of one request. The pages
    take turns, request by request, so that the load of the machine (other processes)
    weighs on each alike; `COLD` pages are asked with the sheet cache off, `CHANGED` ones
    right after `change()` (not timed), and the warm pages are then asked again (not timed)
    so that they stay warm."""
    for url, _how in pages.values():  # warm-up: templates compiled, connections open
        for _ in range(10):
            assert client.get(url).status_code == 200
    times: dict[str, list[float]] = {name: [] for name in pages}
    for n in range(ROUNDS):
        for name, (url, how) in pages.items():
            if how != WARM and n % 4:
                continue  # a quarter of the rounds: a page rendered is slow
            if how == CHANGED:
                change()
            with override_settings(KOLAPS_SHEET_CACHE_SECONDS=0 if how == COLD else SHEET_SECONDS):
                start = time.perf_counter()
                client.get(url)
                times[name].append(time.perf_counter() - start)
            if how == CHANGED:
                _keep_warm(client, pages)
    return {name: 1 / statistics.median(spent) for name, spent in times.items()}


def _keep_warm(client: Client, pages: dict[str, tuple[str, str]]) -> None:
    for url, how in pages.values():
        if how == WARM:
            client.get(url)


def _profile(client: Client, url: str, name: str, rounds: int) -> None:
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(rounds):
        client.get(url)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(60)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"profile-{name}.txt").write_text(out.getvalue())


def test_bench_page_speed_targets(settings):
    settings.CELERY_BROKER_URL = ""
    settings.ROOT_URLCONF = "tests.benchmarks.bare_urls"
    owner = PlayerFactory()
    unit = unit_of_30(owner)
    client = Client()
    client.force_login(owner)
    urls = {
        "bare": "/bench/bare/",
        "minimal page": reverse("password_reset_done"),
        "unit page": reverse("kolaps-unit", args=[unit.pk]),
        "print sheet": reverse("kolaps-unit-print", args=[unit.pk]),
    }
    pages = {name: (url, WARM) for name, url in urls.items()}
    pages["print sheet, cold"] = (urls["print sheet"], COLD)
    pages["unit page, after a change"] = (urls["unit page"], CHANGED)
    pages["print sheet, after a change"] = (urls["print sheet"], CHANGED)
    rates = _rates(client, pages, _member_renamed(owner, unit))
    print()
    for name, rate in rates.items():
        line = f"{name}: {rate:.0f} req/s"
        if name in TARGETS:
            reference, target = TARGETS[name]
            ratio = rate / rates[reference]
            verdict = "met" if ratio >= target else "MISSED"
            line += f", {ratio:.2f}x the {reference} (target >= {target}x: {verdict})"
        elif name in RATIOS:
            line += f", {rate / rates[RATIOS[name]]:.2f}x the {RATIOS[name]}"
        print(line)
    if os.environ.get("PROFILE"):
        for name, url in urls.items():
            _profile(client, url, name.replace(" ", "-"), 20 if "print" in name else 200)
    assert all(rate > 0 for rate in rates.values())

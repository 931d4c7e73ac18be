"""Rapid 40000 in `make bench`: pricing 1,000 army lists of 10 squads in rules/, and the
army page as a ratio of the minimal page (as tests/benchmarks/test_pages_bench.py
measures pages). Printed, not asserted beyond sanity: figures depend on the machine.

The lists mix every annex profile and custom ones (random Quality, Combat, weapon and
rules), so the profile cache sees realistic variety rather than one profile repeated.
"""

import random
import time

import pytest
from django.test import Client
from django.urls import reverse

from characters.rapid40k import services
from rules.engine.systems.rapid40k.catalogue import Profile, load_catalogue
from rules.engine.systems.rapid40k.costing import ArmyList, Squad, list_price, profile_cost
from tests.benchmarks.test_pages_bench import _rate
from tests.factories import PlayerFactory

LISTS = 1000
SQUADS = 10
SLOTS = ("command", "troops", "troops", "elite", "support", "fast_attack")


def _lists(rng: random.Random) -> list[ArmyList]:
    cat = load_catalogue()
    printed = [row.profile for army in cat.armies.values() for row in army.profiles.values()]
    weapons, rules = sorted(cat.weapons), sorted(cat.special_rules)

    def profile() -> Profile:
        if rng.random() < 0.7:
            return rng.choice(printed)
        return Profile(
            rng.randint(2, 6),
            rng.randint(1, 5),
            rng.choice(weapons),
            tuple(rng.sample(rules, rng.randint(0, 3))),
        )

    return [
        ArmyList(
            f"List {n}",
            tuple(
                Squad(
                    f"S{i}",
                    SLOTS[i % len(SLOTS)],
                    profile(),
                    tuple(profile() for _ in range(rng.randint(3, 7))),
                )
                for i in range(SQUADS)
            ),
            points_limit=5000,
        )
        for n in range(LISTS)
    ]


def test_bench_pricing_1000_lists_of_10_squads():
    lists = _lists(random.Random(40000))
    profile_cost.cache_clear()
    start = time.perf_counter()
    cold = [list_price(army) for army in lists]
    cold_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    warm = [list_price(army) for army in lists]
    warm_ms = (time.perf_counter() - start) * 1000
    figures = sum(s.figures for price in cold for s in price.squads)
    print(
        f"\nRapid 40000: {LISTS} lists of {SQUADS} squads ({figures} figures) priced in "
        f"{cold_ms:.0f} ms cold, {warm_ms:.0f} ms with the profile cache warm"
    )
    assert [p.total for p in cold] == [p.total for p in warm]


@pytest.mark.django_db
def test_bench_army_page_against_the_minimal_page(settings):
    settings.CELERY_BROKER_URL = ""
    owner = PlayerFactory()
    cat = load_catalogue()
    squads = [
        {"name": f"Escouade {i}", "slot": "troops" if i else "command",
         "leader": "space_marines:sergent" if i else "space_marines:capitaine",
         "fighters": [{"quality": 3, "combat": 3, "weapon": "bolter", "special_rules": [],
                       "count": 5}]}
        for i in range(30)
    ]  # fmt: skip
    army = services.army_import(
        owner=owner,
        payload={"format": services.FILE_FORMAT, "format_version": 1, "name": "Bench",
                 "catalogue_version": cat.version, "squads": squads},
    )  # fmt: skip
    client = Client()
    client.force_login(owner)
    minimal = _rate(client, reverse("password_reset_done"))
    results = {
        "army builder page, 30 squads": _rate(client, reverse("rapid40k-army", args=[army.pk])),
        "army print page, 30 squads": _rate(client, reverse("rapid40k-army-print", args=[army.pk])),
        "my armies list": _rate(client, reverse("rapid40k-list")),
    }
    print(f"\nminimal page: {minimal:.0f} req/s in this run (the reference)")
    for name, rate in results.items():
        print(f"{name}: {rate / minimal:.2f}x the minimal page's rate")
    assert all(rate > 0 for rate in results.values())

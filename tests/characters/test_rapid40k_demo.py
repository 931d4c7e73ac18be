"""The demo shows Rapid 40000: two valid, balanced army lists and a campaign with both
entered in its first chapter; loading twice changes nothing."""

import io

import pytest

from campaigns.models import ChapterArmyEntry
from characters.rapid40k import services
from characters.rapid40k.models import Rapid40kArmy
from config.demo import load_demo
from config.demo.rapid40k import DEMO_MARINES, DEMO_ORKS
from rules.engine.systems.rapid40k.costing import balance

pytestmark = pytest.mark.django_db


def test_the_demo_has_two_balanced_armies_entered_in_a_rapid40k_chapter():
    load_demo(io.StringIO())
    marines = Rapid40kArmy.objects.get(name=DEMO_MARINES, owner__username="alice")
    orks = Rapid40kArmy.objects.get(name=DEMO_ORKS, owner__username="bruno")
    assert marines.is_valid and orks.is_valid
    assert (marines.points, orks.points) == (1135, 1152)
    prices = [services.price(services.army_state(a), a.catalogue_version) for a in (marines, orks)]
    assert balance(*prices).balanced
    entries = ChapterArmyEntry.objects.filter(chapter__campaign__system="rapid40k")
    # Entered in the chapter being planned and in the settled one (system_settlements.py).
    assert sorted({e.army.name for e in entries}) == sorted([DEMO_MARINES, DEMO_ORKS])
    load_demo(io.StringIO())
    assert Rapid40kArmy.objects.count() == 2
    assert entries.count() == 4  # twice is once: still two chapters of two armies

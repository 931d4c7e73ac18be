"""Seed 002, « Equilibre des forces en présence »: « En début de partie, les joueurs
s'accordent sur un coût d'armée. » A Rapid 40000 campaign may set that cost once (an open
setting, reading C1, default 0: each game agrees on its own): an army list above it does
not enter the campaign's chapters, with the sentence saying by how much."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

from campaigns.chapters.entries import chapter_army_enter
from campaigns.chapters.services import chapter_plan
from campaigns.models import Campaign
from campaigns.rules_settings.services import campaign_rules_settings_set
from characters.models import Player
from characters.permissions import Refusal
from characters.rapid40k.models import Rapid40kArmy
from config.demo.rapid40k import DEMO_RAPID40K_CAMPAIGN
from rules.engine.systems.open_settings import settings_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("demo_load", stdout=StringIO())
    orga, alice = Player.objects.get(username="orga"), Player.objects.get(username="alice")
    campaign = Campaign.objects.get(name=DEMO_RAPID40K_CAMPAIGN)
    army = Rapid40kArmy.objects.get(owner=alice)
    chapter = chapter_plan(actor=orga, campaign=campaign, title="La brèche")
    return orga, alice, campaign, army, chapter


def test_the_agreed_army_cost_is_a_campaign_setting_with_its_passage():
    setting = settings_of("rapid40k")["army_points"]
    assert setting["default"] == 0 and 1000 in setting["choices"]
    assert "accordent sur un co" in setting["ref"]


def test_an_army_above_the_campaigns_cost_does_not_enter_and_one_within_does(demo):
    orga, alice, campaign, army, chapter = demo
    assert army.points == 1135
    campaign_rules_settings_set(actor=orga, campaign=campaign, settings={"army_points": 1000})
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        chapter_army_enter(actor=alice, chapter=chapter, army=army)
    assert str(refused.value.message) == (
        f"{army.name} compte 1135 points\u00a0; "
        "les armées de cette campagne en comptent 1000 au plus."
    )
    assert not chapter.army_entries.exists()
    campaign_rules_settings_set(actor=orga, campaign=campaign, settings={"army_points": 1250})
    chapter_army_enter(actor=alice, chapter=chapter, army=army)
    assert chapter.army_entries.filter(army=army).exists()

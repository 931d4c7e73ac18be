"""A KOLAPS chapter being played, with its encounter log: alice's recorded server shot
(Kirmann's, RULES-NOTES K11) hits bruno, bruno answers with dice rolled at the table; and
its live encounter in its second turn (config/demo/table.py)."""

from campaigns.chapters.services import chapter_plan, chapter_start, encounter_event_record
from campaigns.models import Campaign
from config.demo.kolaps_campaign import DEMO_KOLAPS_CAMPAIGN
from config.demo.table import enter_table_units, load_table_demo
from rules.rolls.models import RollRecord

DEMO_ENCOUNTER_CHAPTER = "La rue Mercière"


def load_encounter_demo(players) -> None:
    """Idempotent: once the chapter exists, whatever the demo users recorded stays."""
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    campaign = Campaign.objects.filter(name=DEMO_KOLAPS_CAMPAIGN, organiser=orga).first()
    if campaign is None or campaign.chapters.filter(title=DEMO_ENCOUNTER_CHAPTER).exists():
        return
    planned = chapter_plan(
        actor=orga,
        campaign=campaign,
        title=DEMO_ENCOUNTER_CHAPTER,
        objectives="Traverser la rue sous le feu.",
        place="Chez Morgane, Lyon 7e",
    )
    enter_table_units(players, planned)
    chapter = chapter_start(actor=orga, chapter=planned)
    shot = RollRecord.objects.filter(player=alice, resolver="ranged").first()
    test = RollRecord.objects.filter(player=alice, resolver="test").first()
    encounter_event_record(
        actor=alice, chapter=chapter, player=alice, target=bruno, damage=2, roll=shot
    )
    encounter_event_record(actor=bruno, chapter=chapter, player=bruno, target=alice, damage=1)
    encounter_event_record(actor=alice, chapter=chapter, player=alice, roll=test)
    load_table_demo(players, chapter)

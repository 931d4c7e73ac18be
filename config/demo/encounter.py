"""A KOLAPS chapter being played, with its encounter log: alice's recorded server shot
(Kirmann's, RULES-NOTES K11) hits bruno, bruno answers with dice rolled at the table; and
its live encounter in its second turn (config/demo/table.py)."""

from campaigns.chapters.services import chapter_plan, chapter_start, encounter_event_record
from campaigns.models import Campaign, Chapter
from config.demo.keys import once, recall
from config.demo.table import enter_table_units, load_table_demo, recruit_after_the_start
from rules.rolls.models import RollRecord

DEMO_ENCOUNTER_CHAPTER = "La rue Mercière"


def load_encounter_demo(players) -> None:
    """Made once: whatever the demo users recorded since stays."""
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    campaign = recall("kolaps/campaign", Campaign)
    if campaign is None:
        return

    def make() -> Chapter:
        planned = chapter_plan(
            actor=orga,
            campaign=campaign,
            title=DEMO_ENCOUNTER_CHAPTER,
            objectives="Traverser la rue sous le feu.",
            place="Chez Morgane, Lyon 7e",
        )
        enter_table_units(players, planned)
        chapter = chapter_start(actor=orga, chapter=planned)
        shot = recall("rolls/ranged", RollRecord)
        test = recall("rolls/test", RollRecord)
        encounter_event_record(
            actor=alice, chapter=chapter, player=alice, target=bruno, damage=2, roll=shot
        )
        encounter_event_record(actor=bruno, chapter=chapter, player=bruno, target=alice, damage=1)
        encounter_event_record(actor=alice, chapter=chapter, player=alice, roll=test)
        load_table_demo(players, chapter)
        recruit_after_the_start(players)
        return chapter

    once(
        "kolaps/chapter/played",
        Chapter,
        make,
        adopt={"campaign": campaign, "title": DEMO_ENCOUNTER_CHAPTER},
    )

"""A KOLAPS campaign serving units: alice's valid unit entered, bruno's draft refused."""

from campaigns.chapters.entries import chapter_unit_enter
from campaigns.models import Chapter
from characters.kolaps.models import KolapsUnit
from characters.permissions import Refusal
from config.demo.campaigns import demo_campaign, demo_chapter
from config.demo.keys import recall

DEMO_KOLAPS_CAMPAIGN = "Ground Zero : la presqu'île"
DEMO_KOLAPS_CHAPTER = "Le pont Bonaparte"


def load_kolaps_campaign_demo(players, out) -> None:
    """A KOLAPS campaign of orga with alice and bruno, a planned chapter, alice's valid unit
    entered in it; bruno tries his draft and is refused (the sentence is printed), so only
    alice's unit is entered. Each made once: what the demo users did since stays."""
    alice, bruno = players["alice"], players["bruno"]

    campaign = demo_campaign(
        "kolaps/campaign",
        players,
        name=DEMO_KOLAPS_CAMPAIGN,
        system="kolaps",
        description="Les unités tiennent les ponts de la presqu'île, chapitre après chapitre.",
    )
    if campaign is None:
        return

    def enter(chapter: Chapter) -> None:
        valid = recall("kolaps/unit/valid", KolapsUnit)
        if valid is not None and valid.is_valid:
            chapter_unit_enter(actor=alice, chapter=chapter, unit=valid, side="Police")
        draft = recall("kolaps/unit/draft", KolapsUnit)
        if draft is not None:
            try:
                chapter_unit_enter(actor=bruno, chapter=chapter, unit=draft)
            except Refusal as refusal:  # the draft stays out, as the rules want
                out.write(f"KOLAPS demo: {draft.name} refused: {refusal.message}")

    demo_chapter(
        "kolaps/chapter/planned",
        players,
        campaign,
        title=DEMO_KOLAPS_CHAPTER,
        objectives="Tenir le pont jusqu'à l'aube.",
        enter=enter,
        adopt={"campaign": campaign, "title": DEMO_KOLAPS_CHAPTER},
    )

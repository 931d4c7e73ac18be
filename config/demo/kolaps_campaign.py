"""A KOLAPS campaign serving units: alice's valid unit entered, bruno's draft refused."""

from campaigns.chapters.kolaps import chapter_unit_enter
from campaigns.chapters.services import chapter_plan
from campaigns.models import Campaign
from campaigns.services import campaign_add_participant, campaign_create
from characters.kolaps.models import KolapsUnit
from characters.permissions import Refusal
from config.demo.kolaps_units import DEMO_KOLAPS_DRAFT, DEMO_KOLAPS_VALID

DEMO_KOLAPS_CAMPAIGN = "Ground Zero : la presqu'île"


def load_kolaps_campaign_demo(players, out) -> None:
    """A KOLAPS campaign of orga with alice and bruno, a planned chapter, alice's valid unit
    entered in it; bruno tries his draft and is refused (the sentence is printed), so only
    alice's unit is entered. Idempotent: once the campaign has its chapter, nothing is
    redone."""
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    campaign = Campaign.objects.filter(name=DEMO_KOLAPS_CAMPAIGN, organiser=orga).first()
    if campaign is None:
        campaign = campaign_create(
            organiser=orga,
            name=DEMO_KOLAPS_CAMPAIGN,
            system="kolaps",
            description="Les unités tiennent les ponts de la presqu'île, chapitre après chapitre.",
        )
        for player in (alice, bruno):
            campaign_add_participant(actor=orga, campaign=campaign, player=player)
    if campaign.chapters.exists():
        return  # loaded before: whatever the demo users did since stays as they left it
    chapter = chapter_plan(
        actor=orga,
        campaign=campaign,
        title="Le pont Bonaparte",
        objectives="Tenir le pont jusqu'à l'aube.",
        place="Chez Morgane, Lyon 7e",
    )
    valid = KolapsUnit.objects.filter(owner=alice, name=DEMO_KOLAPS_VALID).first()
    if valid is not None and valid.is_valid:
        chapter_unit_enter(actor=alice, chapter=chapter, unit=valid, side="Police")
    draft = KolapsUnit.objects.filter(owner=bruno, name=DEMO_KOLAPS_DRAFT).first()
    if draft is not None:
        try:
            chapter_unit_enter(actor=bruno, chapter=chapter, unit=draft)
        except Refusal as refusal:  # the draft stays out, as the rules want
            out.write(f"KOLAPS demo: {draft.name} refused: {refusal.message}")

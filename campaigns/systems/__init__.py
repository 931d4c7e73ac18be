"""The campaign app's half of the game-system seam: one `CampaignSystem` per system,
registered in `REGISTRY`, each wrapping the pure declaration of `rules.engine.systems`
(`GameSystem`: roster, close fields, settlement, standings, words).

What lives here is what needs Django: the rosters a chapter's close lists (`close_entries`),
the checked rows a close writes for them (`entry_rows`), and what the settlement does to
them beyond the ledger (`departures`, `depart`, `restore`: KOLAPS characters dead leave
their unit). The close form (`campaigns.chapters.forms.CloseForm`), the close service
(`campaigns.chapters.services.chapter_close`), the settlement (`campaigns.settlement`) and
the standings ask `campaign_system(campaign.system)`; none of them tests a system's name.

A system whose players bring nothing but themselves (Of the Dead) needs no hook: the
defaults are its behaviour.
"""

from campaigns.systems import kolaps, rapid40k, sheets
from campaigns.systems.base import CampaignSystem
from rules.engine.systems import SYSTEMS, UnknownSystem

# One line per system with hooks of its own; every other system takes the defaults.
_HOOKED = {
    system.slug: system
    for system in (kolaps.SYSTEM, rapid40k.SYSTEM, sheets.CORPORATES, sheets.MODERN)
}
REGISTRY: dict[str, CampaignSystem] = {
    game.slug: _HOOKED.get(game.slug) or CampaignSystem(game=game) for game in SYSTEMS
}


def campaign_system(slug: str) -> CampaignSystem:
    """The system a campaign plays (`campaign.system`)."""
    try:
        return REGISTRY[slug]
    except KeyError:
        raise UnknownSystem(slug) from None

"""The demo data `make run` shows, one module per area, loaded in this order by
`manage.py demo_load`: the accounts and their Of the Dead campaign, its profiles and
chapters, alice's server rolls, the KOLAPS units, the settled chapter, the KOLAPS campaign
and its chapter being played with an encounter log; the Corporates and modern RPG campaigns
with their worked examples.

Idempotent: loading again changes nothing and keeps whatever the demo users did.
Everything is written through the services, as a user would.
"""

from config.demo.accounts import DEMO_USERS, load_campaign, load_players
from config.demo.corporates import load_corporates
from config.demo.encounter import load_encounter_demo
from config.demo.kolaps_campaign import load_kolaps_campaign_demo
from config.demo.kolaps_units import load_kolaps_units
from config.demo.modern import load_modern
from config.demo.of_the_dead import load_of_the_dead
from config.demo.rolls import load_server_rolls
from config.demo.settlement import load_settled_chapter

__all__ = ["DEMO_USERS", "load_demo"]


def load_demo(out) -> None:
    """Load every area in order (the caller holds the transaction); `out` gets the notes."""
    players = load_players()
    campaign = load_campaign(players)
    load_of_the_dead(players, campaign)
    load_server_rolls(players)
    load_kolaps_units(players)
    # The post-chapter settlement: the closed chapter settled, with its effects.
    load_settled_chapter(campaign=campaign)
    load_kolaps_campaign_demo(players, out)
    # A KOLAPS chapter being played, with its encounter log.
    load_encounter_demo(players)
    # Corporates and the modern RPG: a campaign each and a worked example rolled on the server.
    load_corporates(players)
    load_modern(players)

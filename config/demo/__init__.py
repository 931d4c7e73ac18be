"""The demo data `make run` shows, one module per area, loaded in this order by
`manage.py demo_load`: the accounts and their Of the Dead campaign, its profiles and
chapters, alice's server rolls, the KOLAPS units, the settled chapter, the KOLAPS campaign
and its chapter being played with an encounter log, an Of the Dead chapter being played
with its live encounter, the Rapid 40000 armies and campaign, and
the Corporates and modern RPG campaigns with their worked examples, and a settled chapter
with its standings in the KOLAPS, Rapid 40000 and modern RPG campaigns.

Idempotent: loading again changes nothing and keeps whatever the demo users did. The demo
finds what it made by stable keys (`config.demo.keys`), never by names users can change.
Everything is written through the services, as a user would. An area that cannot be
completed (its objects deleted, a refusal) is reported in one line and skipped: the demo
never keeps the server from starting.
"""

import logging

from django.db import transaction

from config.demo.accounts import DEMO_USERS, load_campaign, load_players
from config.demo.corporates import load_corporates
from config.demo.encounter import load_encounter_demo
from config.demo.kolaps_campaign import load_kolaps_campaign_demo
from config.demo.kolaps_units import load_kolaps_units
from config.demo.modern import load_modern
from config.demo.of_the_dead import load_of_the_dead
from config.demo.of_the_dead_rolls import load_of_the_dead_rolls
from config.demo.player_view import load_player_view
from config.demo.rapid40k import load_rapid40k_demo
from config.demo.rolls import load_server_rolls
from config.demo.settlement import load_settled_chapter
from config.demo.system_settlements import load_system_settlements
from config.demo.table_corporates_modern import load_table_corporates_modern
from config.demo.table_of_the_dead import load_of_the_dead_table_demo
from config.demo.table_rapid40k import load_table_rapid40k

__all__ = ["DEMO_USERS", "load_demo"]

logger = logging.getLogger(__name__)


def _area(out, name: str, load, *args):
    """Run one area in its own savepoint; a failure is a line in `out`, not a crash."""
    try:
        with transaction.atomic():
            return load(*args)
    except Exception as error:
        logger.warning("demo: %s skipped", name, exc_info=True)
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        out.write(f"Demo: {name} skipped ({reason}).")
        return None


def load_demo(out) -> None:
    """Load every area in order (the caller holds the transaction); `out` gets the notes."""
    players = _area(out, "accounts", load_players) or {}
    missing = [username for username, *_rest in DEMO_USERS if username not in players]
    if missing:
        out.write(f"Demo: players {', '.join(missing)} are gone; the rest is not loaded.")
        return
    campaign = _area(out, "Of the Dead campaign", load_campaign, players)
    if campaign is not None:
        _area(out, "Of the Dead chapters", load_of_the_dead, players, campaign)
    _area(out, "server rolls", load_server_rolls, players)
    _area(out, "KOLAPS units", load_kolaps_units, players)
    # The post-chapter settlement: the closed chapter settled, with its effects.
    _area(out, "settled chapter", load_settled_chapter)
    _area(out, "KOLAPS campaign", load_kolaps_campaign_demo, players, out)
    # A KOLAPS chapter being played, with its encounter log.
    _area(out, "encounter", load_encounter_demo, players)
    # What a player sees: an invitation link to share, alice's unit shared by link.
    if campaign is not None:
        _area(out, "player view", load_player_view, players, campaign)
    # Of the Dead brawl, shot and Molotov rolled on the server (the calculators' records).
    _area(out, "Of the Dead rolls", load_of_the_dead_rolls, players)
    # An Of the Dead chapter being played, its live encounter in its second turn.
    _area(out, "Of the Dead table", load_of_the_dead_table_demo, players)
    # Rapid 40000: two army lists and a campaign with both entered in a chapter.
    _area(out, "Rapid 40000", load_rapid40k_demo, players)
    # Corporates and the modern RPG: a campaign each and a worked example rolled on the server.
    _area(out, "Corporates", load_corporates, players)
    _area(out, "modern RPG", load_modern, players)
    # Their live encounters: a pick-up game of each, a few actions played.
    _area(out, "Corporates and modern RPG tables", load_table_corporates_modern, players)
    # Rapid 40000 at the table: alice's Ultramarines against bruno's Waaagh, a few actions.
    _area(out, "Rapid 40000 table", load_table_rapid40k, players)
    # A settled chapter and filled standings in the KOLAPS, Rapid 40000 and modern campaigns.
    _area(out, "settled chapters of the other systems", load_system_settlements, players)

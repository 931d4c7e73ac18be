"""How each system's demo starts: orga's campaign with alice and bruno in it, and a chapter
she plans at her place, into which the players bring what they built."""

from collections.abc import Callable

from campaigns.chapters.services import chapter_plan
from campaigns.models import Campaign, Chapter
from campaigns.services import campaign_add_participant, campaign_create
from config.demo.keys import once


def demo_campaign(
    key: str,
    players,
    *,
    name: str,
    system: str,
    description: str,
    then: Callable[[Campaign], Campaign] | None = None,
) -> Campaign | None:
    """The campaign made once under `key` (`then` finishes it: settings chosen…); None when
    the demo users deleted it."""
    orga = players["orga"]

    def make() -> Campaign:
        campaign = campaign_create(
            organiser=orga, name=name, system=system, description=description
        )
        for username in ("alice", "bruno"):
            campaign_add_participant(actor=orga, campaign=campaign, player=players[username])
        return then(campaign) if then is not None else campaign

    return once(key, Campaign, make, adopt={"name": name, "organiser": orga, "system": system})


def demo_chapter(
    key: str,
    players,
    campaign: Campaign,
    *,
    title: str,
    objectives: str,
    enter: Callable[[Chapter], None],
    adopt: dict,
) -> Chapter | None:
    """A chapter orga planned, made once under `key`; `enter` brings the players' rosters in."""

    def make() -> Chapter:
        chapter = chapter_plan(
            actor=players["orga"],
            campaign=campaign,
            title=title,
            objectives=objectives,
            place="Chez Morgane, Lyon 7e",
        )
        enter(chapter)
        return chapter

    return once(key, Chapter, make, adopt=adopt)

"""Orga's campaign of one system, with alice and bruno in it: how each system's demo starts."""

from collections.abc import Callable

from campaigns.models import Campaign
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

"""The demo accounts (an organiser, two players) and their Of the Dead campaign."""

from campaigns.models import Campaign
from characters.accounts.services import player_signup
from characters.models import Player
from config.demo.campaigns import demo_campaign
from config.demo.keys import once

DEMO_USERS = [
    # username, display name, password, role
    ("orga", "Morgane (organisatrice)", "demo-orga-2026", "organiser"),
    ("alice", "Alice", "demo-alice-2026", "player"),
    ("bruno", "Bruno", "demo-bruno-2026", "player"),
]
DEMO_CAMPAIGN = "La Chute de Lyon"


def load_players() -> dict:
    """The demo players by their demo username (whatever they renamed themselves to since),
    signed up once; a demo player deleted since is missing from the answer."""
    players = {}
    for username, display_name, password, _role in DEMO_USERS:
        player = once(
            f"player/{username}",
            Player,
            lambda username=username, display_name=display_name, password=password: player_signup(
                username=username,
                email=f"{username}@demo.chronique.local",
                password=password,
                display_name=display_name,
            ),
            adopt={"username": username},
        )
        if player is not None:
            players[username] = player
    return players


def load_campaign(players) -> Campaign | None:
    """Orga's Of the Dead campaign with alice and bruno, created once."""

    return demo_campaign(
        "of-the-dead/campaign",
        players,
        name=DEMO_CAMPAIGN,
        system="of-the-dead",
        description=(
            "Lyon, trois jours après l'effondrement. Les survivants cherchent une "
            "sortie par les quais du Rhône."
        ),
    )

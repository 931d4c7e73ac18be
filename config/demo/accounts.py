"""The demo accounts (an organiser, two players) and their Of the Dead campaign."""

from campaigns.models import Campaign
from campaigns.services import campaign_add_participant, campaign_create
from characters.accounts.services import player_signup
from characters.models import Player

DEMO_USERS = [
    # username, display name, password, role
    ("orga", "Morgane (organisatrice)", "demo-orga-2026", "organiser"),
    ("alice", "Alice", "demo-alice-2026", "player"),
    ("bruno", "Bruno", "demo-bruno-2026", "player"),
]
DEMO_CAMPAIGN = "La Chute de Lyon"


def load_players() -> dict:
    """The demo players by username, signed up once."""
    players = {}
    for username, display_name, password, _role in DEMO_USERS:
        player = Player.objects.filter(username=username).first()
        if player is None:
            player = player_signup(
                username=username,
                email=f"{username}@demo.chronique.local",
                password=password,
                display_name=display_name,
            )
        players[username] = player
    return players


def load_campaign(players) -> Campaign:
    """Orga's Of the Dead campaign with alice and bruno, created once."""
    campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN, organiser=players["orga"]).first()
    if campaign is None:
        campaign = campaign_create(
            organiser=players["orga"],
            name=DEMO_CAMPAIGN,
            system="of-the-dead",
            description=(
                "Lyon, trois jours après l'effondrement. Les survivants cherchent une "
                "sortie par les quais du Rhône."
            ),
        )
        for username in ("alice", "bruno"):
            campaign_add_participant(
                actor=players["orga"], campaign=campaign, player=players[username]
            )
    return campaign

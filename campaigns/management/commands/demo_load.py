"""Load the demo data `make run` shows: an organiser, two players and their campaign.

Idempotent: running it again changes nothing and keeps whatever the demo users did.
Everything is written through the services, as a user would.
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, RollRecord
from campaigns.rolls import roll_on_server
from campaigns.services import campaign_add_participant, campaign_create
from characters.models import Player
from characters.services import player_signup

DEMO_USERS = [
    # username, display name, password, role
    ("orga", "Morgane (organisatrice)", "demo-orga-2026", "organiser"),
    ("alice", "Alice", "demo-alice-2026", "player"),
    ("bruno", "Bruno", "demo-bruno-2026", "player"),
]
DEMO_CAMPAIGN = "La Chute de Lyon"


class Command(BaseCommand):
    help = "Load the demo organiser, players and campaign (idempotent)."

    def handle(self, *args, **options):
        with transaction.atomic():
            self.load()
        # After the commit, so the welcome e-mails printed by the console backend come first.
        self.stdout.write("Demo accounts (username / password):")
        for username, display_name, password, role in DEMO_USERS:
            self.stdout.write(f"  {role:<9} {username:<6} / {password}   ({display_name})")

    def load(self) -> None:
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
        if not RollRecord.objects.filter(player=players["alice"]).exists():
            # A recorded server roll, so "My server rolls" and its replay check show something.
            roll_on_server(
                player=players["alice"],
                system="kolaps",
                name="test",
                data={"db": 3, "rank": "veteran", "sante": 6},
            )
        # The post-chapter settlement (issue 6): a settled chapter with its effects.
        from campaigns.settlement_demo import load_settled_chapter

        load_settled_chapter(
            organiser=players["orga"],
            alice=players["alice"],
            bruno=players["bruno"],
            campaign=campaign,
        )

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
        load_of_the_dead(players, campaign)
        if not RollRecord.objects.filter(player=players["alice"]).exists():
            # A recorded server roll, so "My server rolls" and its replay check show something.
            roll_on_server(
                player=players["alice"],
                system="kolaps",
                name="test",
                data={"db": 3, "rank": "veteran", "sante": 6},
            )
        if not RollRecord.objects.filter(player=players["alice"], resolver="ranged").exists():
            # Kirmann's shot (RULES-NOTES K11's worked example), rolled on the server.
            roll_on_server(
                player=players["alice"],
                system="kolaps",
                name="ranged",
                data={
                    "attacker": {
                        "rank": "veteran",
                        "affiliation": "apc",
                        "talents": {"fusil": 2},
                        "armour": "tenue-legere-sti-europa",
                    },
                    "weapon": "fa-f4",
                    "mode": "semi-auto",
                    "distance_cm": 45,
                    "target": {"order": "movement", "cover": 3, "extra_protection": 3},
                },
            )
        load_kolaps_demo(players)
        # The post-chapter settlement (issue 6): the closed chapter settled, with its effects.
        from campaigns.settlement_demo import load_settled_chapter

        load_settled_chapter(campaign=campaign)
        load_kolaps_campaign_demo(players, self.stdout)


# --- KOLAPS units (units branch): alice's valid unit, bruno's draft with problems ---
from characters.kolaps import KolapsUnit  # noqa: E402

DEMO_KOLAPS_VALID = "Section 4 du quai Saint-Antoine"
DEMO_KOLAPS_DRAFT = "Patrouille de nuit (brouillon)"


def load_kolaps_demo(players) -> None:
    """Idempotent by unit name: an existing demo unit is left as its owner changed it."""
    from characters import kolaps_services as kolaps

    alice, bruno = players["alice"], players["bruno"]
    if not KolapsUnit.objects.filter(owner=alice, name=DEMO_KOLAPS_VALID).exists():
        unit = kolaps.unit_create(owner=alice, name=DEMO_KOLAPS_VALID)
        chief = kolaps.character_create(
            owner=alice, name="Capitaine Vasseur", archetype="sous-officier", rank="expert",
            unit=unit,
        )  # fmt: skip
        for talent, times in (("discipline", 2), ("ralliement", 1), ("pistolet", 2)):
            for _ in range(times):
                chief.refresh_from_db()
                kolaps.character_raise(
                    actor=alice, character=chief, version=chief.version, talent=talent
                )
        dupont = kolaps.character_create(
            owner=alice, name="Brigadier Dupont", archetype="agent-de-police", rank="veteran",
            unit=unit,
        )  # fmt: skip
        for talent in ("fusil", "fusil", *["tir-instinctif"] * 3):  # level 3 costs 1 PU
            dupont.refresh_from_db()
            kolaps.character_raise(
                actor=alice, character=dupont, version=dupont.version, talent=talent
            )
        kolaps.character_create(
            owner=alice, name="Agent Lemoine", archetype="agent-anti-emeute", rank="aguerri",
            unit=unit,
        )  # fmt: skip
        kolaps.character_create(
            owner=alice, name="Agent Roux", archetype="agent-de-police", rank="novice", unit=unit
        )
        unit.refresh_from_db()
        kolaps.unit_set_avatar(actor=alice, unit=unit, version=unit.version, character=chief)
    if not KolapsUnit.objects.filter(owner=bruno, name=DEMO_KOLAPS_DRAFT).exists():
        unit = kolaps.unit_create(owner=bruno, name=DEMO_KOLAPS_DRAFT)
        hunter = kolaps.character_create(
            owner=bruno, name="Nosfer", archetype="chasseur", rank="novice", unit=unit
        )
        for talent in ("corps-a-corps", "corps-a-corps", "corps-a-corps", "marche", "marche"):
            hunter.refresh_from_db()
            kolaps.character_raise(
                actor=bruno, character=hunter, version=hunter.version, talent=talent
            )
        hunter.refresh_from_db()
        kolaps.character_raise(actor=bruno, character=hunter, version=hunter.version, talent="saut")
        for _ in range(2):
            hunter.refresh_from_db()
            kolaps.character_raise(
                actor=bruno, character=hunter, version=hunter.version, talent="sonar"
            )
        hunter.refresh_from_db()
        # Over the Novice's 7 PP, then lowering Marche leaves Saut without its prerequisite.
        kolaps.character_raise(
            actor=bruno, character=hunter, version=hunter.version, talent="esquive"
        )
        hunter.refresh_from_db()
        kolaps.character_lower(
            actor=bruno, character=hunter, version=hunter.version, talent="marche"
        )
        kolaps.character_create(
            owner=bruno, name="Nosfer", archetype="chasseur", rank="aguerri", unit=unit
        )  # two of one name, and no Avatar: a draft


# --- Of the Dead: profiles, chapters, a vote and a closed chapter (issue 5) ------------------
def load_of_the_dead(players, campaign) -> None:
    """Alice's and Bruno's profiles; three chapters of "La Chute de Lyon": one closed and
    awaiting its settlement, two planned with an open vote between them. Idempotent."""
    from datetime import timedelta

    from django.utils import timezone

    from campaigns.chapters import OutcomeInput, chapter_close, chapter_plan, vote_open
    from campaigns.models import VoteKind, VoteStatus
    from characters.models import Profile
    from characters.profiles import profile_create, profile_update, trauma_add

    sheets = {
        "alice": {
            "physique": 2,
            "psychique": 3,
            "reflexes": 3,
            "combat": 1,
            "cards": ["Clé du hangar"],
            "equipment": ["Pied-de-biche", "Lampe torche"],
            "description": "Infirmière, calme sous la pression.",
        },
        "bruno": {
            "physique": 4,
            "psychique": 1,
            "reflexes": 1,
            "combat": 3,
            "equipment": ["Batte cloutée"],
            "description": "Ancien déménageur, fonce d'abord.",
        },
    }
    for username, sheet in sheets.items():
        player = players[username]
        if not Profile.objects.filter(player=player).exists():
            profile = profile_create(actor=player, player=player, **sheet)
            profile_update(actor=player, profile=profile, is_public=True)
    if campaign.chapters.exists():
        return
    orga = players["orga"]
    soon = timezone.now().replace(hour=18, minute=0, second=0, microsecond=0)
    first = chapter_plan(
        actor=orga,
        campaign=campaign,
        title="Les quais du Rhône",
        scenario="Atteindre le pont Lafayette avant la nuit.",
        objectives="Traverser le pont.",
        weather="Pluie fine",
        time_of_day="Crépuscule",
        place="Chez Morgane, Lyon 7e",
        starts_at=soon - timedelta(days=14),
        announced_events=["Parachutage de vivres"],
    )
    chapter_close(
        actor=orga,
        chapter=first,
        epilogue="Le pont tient; les survivants passent, Bruno y laisse un bras.",
        outcomes=[
            OutcomeInput(players["alice"].pk, "victory", kills={"zonard": 4, "braillard": 1}),
            OutcomeInput(players["bruno"].pk, "victory", kills={"mastard": 1}),
        ],
        notable_events=["Un chien suit le groupe"],
    )
    trauma_add(
        actor=players["bruno"],
        profile=players["bruno"].otd_profile,
        name="Bras en écharpe",
        kind="physical",
        chapter=first,
        effect={"combat": -1},
    )
    second = chapter_plan(
        actor=orga,
        campaign=campaign,
        title="Le hangar de Gerland",
        players_min=2,
        required_cards=["Clé du hangar"],
        objectives="Récupérer le groupe électrogène.",
        weather="Brouillard",
        time_of_day="Nuit",
        place="Chez Morgane, Lyon 7e",
        starts_at=soon + timedelta(days=7),
    )
    third = chapter_plan(
        actor=orga,
        campaign=campaign,
        title="Le métro Saxe-Gambetta",
        min_survival_points=2,
        required_items=["Lampe torche"],
        objectives="Trouver la sortie nord.",
        announced_events=["Apparition d'un colporteur"],
        place="Chez Morgane, Lyon 7e",
        starts_at=soon + timedelta(days=21),
    )
    if not campaign.votes.filter(kind=VoteKind.NEXT_CHAPTER, status=VoteStatus.OPEN).exists():
        vote_open(
            actor=orga, campaign=campaign, kind=VoteKind.NEXT_CHAPTER, candidates=[second, third]
        )


# --- A KOLAPS campaign serving units (kchap) ------------------------------------------------
DEMO_KOLAPS_CAMPAIGN = "Ground Zero : la presqu'île"


def load_kolaps_campaign_demo(players, out) -> None:
    """A KOLAPS campaign of orga with alice and bruno, a planned chapter, alice's valid unit
    entered in it; bruno tries his draft and is refused (the sentence is printed), so only
    alice's unit is entered. Idempotent: once the campaign has its chapter, nothing is
    redone."""
    from campaigns.chapters import chapter_plan
    from campaigns.kolaps_chapters import chapter_unit_enter
    from config.permissions import Refusal

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

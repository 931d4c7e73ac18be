"""Of the Dead: profiles, chapters, a vote and a closed chapter."""

from datetime import timedelta

from django.utils import timezone

from campaigns.chapters.services import OutcomeInput, chapter_close, chapter_plan
from campaigns.models import Chapter, VoteKind, VoteStatus
from campaigns.votes.services import vote_open
from characters.models import Profile
from characters.profiles.services import profile_create, profile_update, trauma_add
from config.demo.keys import once

DEMO_FIRST_CHAPTER = "Les quais du Rhône"


def load_of_the_dead(players, campaign) -> None:
    """Alice's and Bruno's profiles; three chapters of "La Chute de Lyon": one closed and
    awaiting its settlement, two planned with an open vote between them. Idempotent."""
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
    once(
        "of-the-dead/chapter/first",
        Chapter,
        lambda: _chapters(players, campaign),
        adopt={"campaign": campaign, "title": DEMO_FIRST_CHAPTER},
    )


def _chapters(players, campaign) -> Chapter:
    """The three chapters and the vote; answers the first (closed) one."""
    orga = players["orga"]
    soon = timezone.now().replace(hour=18, minute=0, second=0, microsecond=0)
    first = chapter_plan(
        actor=orga,
        campaign=campaign,
        title=DEMO_FIRST_CHAPTER,
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
        # It closes itself in five days; its players are reminded the day before.
        vote_open(
            actor=orga,
            campaign=campaign,
            kind=VoteKind.NEXT_CHAPTER,
            candidates=[second, third],
            closes_at=soon + timedelta(days=5),
        )
    return first

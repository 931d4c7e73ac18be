"""The demo's settled chapter (called by demo_load): survival points, a healed trauma, a
trauma made permanent and a leaderboard to look at. Idempotent; through the services."""

from campaigns.chapters import OutcomeInput, chapter_close, chapter_plan
from campaigns.models import Chapter
from campaigns.settlement import settlement_apply
from characters.models import Profile
from characters.profiles import profile_create, profile_update, trauma_add

DEMO_CHAPTER = "Les quais du Rhône"


def _profile(player, **attributes) -> Profile:
    profile = Profile.objects.filter(player=player).first()
    if profile is None:
        profile = profile_create(actor=player, player=player, **attributes)
    return profile


def load_settled_chapter(*, organiser, alice, bruno, campaign) -> None:
    if Chapter.objects.filter(campaign=campaign, title=DEMO_CHAPTER).exists():
        return
    alice_profile = _profile(alice, physique=3, psychique=2, reflexes=2, combat=2)
    bruno_profile = _profile(bruno, physique=2, psychique=2, reflexes=2, combat=3)
    profile_update(actor=alice, profile=alice_profile, is_public=True)
    chapter = chapter_plan(
        actor=organiser,
        campaign=campaign,
        title=DEMO_CHAPTER,
        objectives="Traverser le pont Lafayette avant la nuit.",
    )
    trauma_add(
        actor=alice,
        profile=alice_profile,
        name="Cheville foulée",
        kind="physical",
        chapter=chapter,
        effect={"reflexes": -1},
    )
    trauma_add(
        actor=bruno,
        profile=bruno_profile,
        name="Cauchemars",
        kind="psychic",
        chapter=chapter,
        effect={"psychique": -1},
    )
    chapter = chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="Alice passe le pont ; Bruno reste coincé sur la berge, mais vivant.",
        outcomes=[
            OutcomeInput(alice.pk, "victory", kills={"zonard": 3, "braillard": 1}),
            OutcomeInput(bruno.pk, "defeat", kills={"zonard": 1}),
        ],
        notable_events=["Parachutage de matériel sur la place Bellecour"],
    )
    settlement_apply(chapter_id=chapter.pk)

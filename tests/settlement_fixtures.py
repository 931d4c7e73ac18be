"""Test data for the post-chapter settlement: a table of Of the Dead players and a closed
chapter, built through the services the way users build it."""

from campaigns.chapters.services import OutcomeInput, chapter_close, chapter_plan
from campaigns.services import campaign_add_participant, campaign_create
from characters.profiles.services import profile_create, trauma_add
from tests.factories import PlayerFactory


def of_the_dead_table(*, players: int = 3, name: str = "Lyon", prefix: str = "p"):
    """An organiser and `players` players with a profile each (Physique 3, Psychique 2,
    Réflexes 2, Combat 2) in an Of the Dead campaign."""
    organiser = PlayerFactory(username=f"{prefix}-orga")
    campaign = campaign_create(organiser=organiser, name=name, system="of-the-dead")
    members = []
    for index in range(players):
        player = PlayerFactory(username=f"{prefix}-{index}")
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
        profile_create(actor=player, player=player, physique=3, psychique=2, reflexes=2, combat=2)
        members.append(player)
    return organiser, campaign, members


def closed_chapter(organiser, campaign, players, *, title="Le pont", results=None, traumas=True):
    """A chapter where player 0 wins with a temporary trauma (Physique -1), player 1 loses
    with a temporary trauma, player 2 (and any further) dies in a victory; kills vary."""
    chapter = chapter_plan(actor=organiser, campaign=campaign, title=title)
    if traumas:
        for index, player in enumerate(players[:2]):
            trauma_add(
                actor=player,
                profile=player.otd_profile,
                name=f"Bras cassé {index}",
                kind="physical",
                chapter=chapter,
                effect={"physique": -1},
            )
    outcomes = []
    for index, player in enumerate(players):
        result = (results or {}).get(index) or ("defeat" if index == 1 else "victory")
        outcomes.append(
            OutcomeInput(
                player.pk,
                result,
                died=index >= 2,
                kills={"zonard": index + 1, "mastard": 1 if index == 0 else 0},
            )
        )
    return chapter_close(
        actor=organiser, chapter=chapter, epilogue="Ils passent.", outcomes=outcomes
    )


def settlement_roles(*, organiser, participant, campaign) -> dict:
    """For the authorization matrix: a chapter settled (the participant died in it; they
    have no profile, so no choice waits for them) and a closed chapter awaiting its
    settlement. The owner's public profile (tests/otd_fixtures) is alive."""
    from campaigns.settlement.apply import settlement_apply

    settled = chapter_plan(actor=organiser, campaign=campaign, title="Settled")
    chapter_close(
        actor=organiser,
        chapter=settled,
        epilogue="The end.",
        outcomes=[OutcomeInput(participant.pk, "defeat", died=True, kills={"zonard": 1})],
    )
    settlement_apply(chapter_id=settled.pk)
    awaiting = chapter_plan(actor=organiser, campaign=campaign, title="Awaiting")
    chapter_close(
        actor=organiser,
        chapter=awaiting,
        epilogue="The end.",
        outcomes=[OutcomeInput(participant.pk, "victory")],
    )
    # A chapter being played, for the encounter log.
    from campaigns.chapters.services import chapter_start

    playing = chapter_start(
        actor=organiser, chapter=chapter_plan(actor=organiser, campaign=campaign, title="Playing")
    )
    return {"settled_chapter": settled, "awaiting_chapter": awaiting, "playing_chapter": playing}

"""An Of the Dead chapter being played, for the live table's tests: two players' characters
(anna: Réflexes 3, Combat 2, Physique 2, Psychique 2; boris: Réflexes 1, Combat 3, Physique
3, Psychique 2) and the organiser."""

from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.services import campaign_add_participant, campaign_create
from characters.profiles.services import profile_create
from rules.table import of_the_dead
from rules.table.models import Combatant
from rules.table.services import (
    ActionInput,
    NewCombatants,
    encounter_act,
    encounter_add_combatants,
    encounter_create_for_chapter,
)
from tests.factories import PlayerFactory


def otd_chapter():
    organiser = PlayerFactory(username="orga")
    anna, boris = PlayerFactory(username="anna"), PlayerFactory(username="boris")
    campaign = campaign_create(organiser=organiser, name="La Chute", system="of-the-dead")
    for player in (anna, boris):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    profile_create(actor=anna, player=anna, physique=2, psychique=2, reflexes=3, combat=2)
    profile_create(actor=boris, player=boris, physique=3, psychique=2, reflexes=1, combat=3)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    chapter = chapter_start(actor=organiser, chapter=chapter)
    return chapter, organiser, anna, boris


def add_zombies(organiser, encounter, zombie_type="zonard", count=2, **stats):
    values = {"reflexes": 1, "combat": 2, "physique": 1, "life": 2, "moral": 0, **stats}
    return encounter_add_combatants(
        actor=organiser,
        encounter=encounter,
        version=None,
        spec=NewCombatants(kind="zombie", zombie_type=zombie_type, count=count, **values),
    )


def playing_now(encounter):
    """The names of the figures whose turn it is (O5), as the page shows them."""
    encounter.refresh_from_db()
    everyone = list(Combatant.objects.filter(encounter=encounter).order_by("position", "pk"))
    return [
        r["name"]
        for r in of_the_dead.ADAPTER.order(everyone, encounter.phase, encounter.turn)
        if r["now"]
    ]


def pass_until(organiser, encounter, name):
    """The figures before `name` in the phase's order pass (the organiser acting for them),
    until it is `name`'s turn (O5)."""
    while name not in (now := playing_now(encounter)):
        figure = Combatant.objects.get(encounter=encounter, name=now[0])
        action = ActionInput(kind="pass", actor=figure.pk, target=figure.pk)
        encounter_act(actor=organiser, encounter=encounter, version=None, action=action)
    encounter.refresh_from_db()


def otd_table():
    """The chapter's live encounter with two zonards: (encounter, organiser, anna, boris)."""
    chapter, organiser, anna, boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    add_zombies(organiser, encounter, "zonard", 2)
    encounter.refresh_from_db()
    return encounter, organiser, anna, boris


def named(encounter, name):
    return Combatant.objects.get(encounter=encounter, name=name)

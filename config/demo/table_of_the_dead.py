"""The live encounter of the Of the Dead chapter being played ("La gare Part-Dieu"): alice's
and bruno's characters, a dog who follows them and four zombies, in its second turn. Turn 1
was played through the services as at the table: the moves (alice runs), a brawl and a
dog's bite typed in by hand, bruno's shot and a zombie's bite rolled by the server, then
the wrap-up.

Made once (`config.demo.keys`): a chapter that has its encounter keeps whatever the demo
users did since.
"""

from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import Campaign, Chapter
from config.demo.keys import once, recall
from rules.table.models import Combatant, Encounter
from rules.table.services import (
    ActionInput,
    NewCombatants,
    encounter_act,
    encounter_add_combatants,
    encounter_advance,
    encounter_create_for_chapter,
)

DEMO_OTD_TABLE_CHAPTER = "La gare Part-Dieu"


def load_of_the_dead_table_demo(players) -> None:
    campaign = recall("of-the-dead/campaign", Campaign)
    if campaign is None:
        return
    orga = players["orga"]

    def make() -> Chapter:
        planned = chapter_plan(
            actor=orga,
            campaign=campaign,
            title=DEMO_OTD_TABLE_CHAPTER,
            objectives="Rejoindre le quai 4 avant la horde.",
            weather="Pluie",
            time_of_day="Nuit",
            place="Chez Morgane, Lyon 7e",
        )
        chapter = chapter_start(actor=orga, chapter=planned)
        _play_first_turn(players, chapter)
        return chapter

    once(
        "of-the-dead/chapter/played",
        Chapter,
        make,
        adopt={"campaign": campaign, "title": DEMO_OTD_TABLE_CHAPTER},
    )


def _add(orga, encounter: Encounter, spec: NewCombatants) -> None:
    encounter_add_combatants(actor=orga, encounter=encounter, version=None, spec=spec)


def _act(player, encounter: Encounter, kind: str, actor: int, target: int, **extra) -> None:
    action = ActionInput(kind=kind, actor=actor, target=target, **extra)
    encounter_act(actor=player, encounter=encounter, version=None, action=action)


def _play_first_turn(players, chapter: Chapter) -> None:
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    encounter = encounter_create_for_chapter(actor=orga, chapter=chapter)
    # The zombies of the scenario (their cards' numbers) and a dog who follows the group.
    zonards = NewCombatants(
        kind="zombie", zombie_type="zonard", count=3, reflexes=1, combat=2, physique=1, life=2
    )
    braillard = NewCombatants(
        kind="zombie", zombie_type="braillard", reflexes=2, combat=1, physique=1, life=3
    )
    dog = NewCombatants(
        kind="npc", name="Le chien", side="survivors", reflexes=3, combat=1, life=2, moral=2
    )
    for spec in (zonards, braillard, dog):
        _add(orga, encounter, spec)
    ids = dict(Combatant.objects.filter(encounter=encounter).values_list("name", "pk"))
    alice_id, him = ids[_name(alice)], ids[_name(bruno)]
    # Movement: alice runs to the stairs (2 noise, 1 zeal, O5), bruno walks.
    _act(alice, encounter, "move", alice_id, alice_id, distance_cm=18, options={"move": "run"})
    _act(bruno, encounter, "move", him, him, distance_cm=10, options={"move": "normal"})
    encounter_advance(actor=orga, encounter=encounter, version=None)
    # Action, in initiative order: alice's brawl with the first zonard, dice typed in by
    # hand (her 6 against a blank and a fiasco: 1 damage); the dog finishes it (5 against
    # 3 and 2); bruno shoots the braillard and the second zonard bites bruno, both rolled
    # by the server (recorded, replayable).
    _act(alice, encounter, "brawl", alice_id, ids["Zonard 1"],
         dice={"attacker_dice": [6], "defender_dice": [2, 1]})  # fmt: skip
    _act(orga, encounter, "brawl", ids["Le chien"], ids["Zonard 1"],
         dice={"attacker_dice": [5], "defender_dice": [3, 2]})  # fmt: skip
    _act(bruno, encounter, "shot", him, ids["Braillard"], options={"range": "useful"})
    _act(orga, encounter, "brawl", ids["Zonard 2"], him)
    encounter_advance(actor=orga, encounter=encounter, version=None)
    # The wrap-up: alice's noise pile loses a marker; the second turn begins.
    encounter_advance(actor=orga, encounter=encounter, version=None)


def _name(player) -> str:
    return player.display_name or player.username

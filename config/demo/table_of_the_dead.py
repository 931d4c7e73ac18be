"""The live encounter of the Of the Dead chapter being played ("La gare Part-Dieu"): alice's
and bruno's characters, a dog who follows them and four zombies, in its second turn. Turn 1
was played through the services as at the table, each figure in its initiative turn (O5):
the moves (alice runs), a brawl and a dog's bite typed in by hand, bruno's shot and a
zombie's bite rolled by the server, the others passing, then the wrap-up; turn 2's
movement has reached alice's turn.

Made once (`config.demo.keys`): a chapter that has its encounter keeps whatever the demo
users did since.
"""

from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import Campaign, Chapter
from config.demo.keys import once, recall
from rules.table import of_the_dead
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


def _playing_now(encounter: Encounter) -> list[Combatant]:
    """The figures whose turn it is (O5), as the table shows them."""
    encounter.refresh_from_db()
    everyone = list(Combatant.objects.filter(encounter=encounter).order_by("position", "pk"))
    by_pk = {c.pk: c for c in everyone}
    rows = of_the_dead.ADAPTER.order(everyone, encounter.phase, encounter.turn)
    return [by_pk[row["id"]] for row in rows if row["now"]]


def _play_phase(players, encounter: Encounter, script, until: str = "") -> None:
    """Play the phase in initiative order (O5), each figure in its turn: what `script` says
    it does (by its name), or it passes; stop at `until`'s turn (it is left to play)."""
    orga = players["orga"]
    while now := _playing_now(encounter):
        if until in {c.name for c in now}:
            return
        figure = now[0]
        player = next((p for p in players.values() if p.pk == figure.player_id), orga)
        kind, target, extra = script.get(figure.name, ("pass", None, {}))
        ids = dict(Combatant.objects.filter(encounter=encounter).values_list("name", "pk"))
        _act(player, encounter, kind, figure.pk, ids.get(target, figure.pk), **extra)


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
    her, him = _name(alice), _name(bruno)
    walk = {"distance_cm": 12, "options": {"move": "normal"}}
    # Movement, the lowest initiative first (O5): the zombies shamble on, the dog follows,
    # bruno walks, alice runs to the stairs (2 noise, 1 zeal).
    _play_phase(players, encounter, {
        "Zonard 1": ("move", None, walk),
        "Zonard 2": ("move", None, walk),
        "Braillard": ("move", None, walk),
        "Le chien": ("move", None, walk),
        him: ("move", None, {"distance_cm": 10, "options": {"move": "normal"}}),
        her: ("move", None, {"distance_cm": 18, "options": {"move": "run"}}),
    })  # fmt: skip
    encounter_advance(actor=orga, encounter=encounter, version=None)
    # Action, the highest initiative first: alice's brawl with the first zonard, dice typed
    # in by hand (her 6 against a blank and a fiasco: 1 damage); bruno shoots the braillard
    # (rolled by the server, recorded, replayable); the dog finishes the zonard (5 against
    # 3 and 2); the second zonard bites bruno (rolled by the server); the others pass.
    _play_phase(players, encounter, {
        her: ("brawl", "Zonard 1", {"dice": {"attacker_dice": [6], "defender_dice": [2, 1]}}),
        him: ("shot", "Braillard", {"options": {"range": "useful"}}),
        "Le chien": ("brawl", "Zonard 1",
                     {"dice": {"attacker_dice": [5], "defender_dice": [3, 2]}}),
        "Zonard 2": ("brawl", him, {}),
    })  # fmt: skip
    encounter_advance(actor=orga, encounter=encounter, version=None)
    # The wrap-up: alice's noise pile loses a marker; the second turn begins, and its
    # movement has reached alice's turn: her phone says "à toi".
    encounter_advance(actor=orga, encounter=encounter, version=None)
    _play_phase(players, encounter, {
        "Zonard 2": ("move", None, walk),
        "Zonard 3": ("move", None, walk),
        "Braillard": ("move", None, walk),
        "Le chien": ("move", None, walk),
        him: ("move", None, {"distance_cm": 6, "options": {"move": "careful"}}),
    }, until=her)  # fmt: skip


def _name(player) -> str:
    return player.display_name or player.username

"""The live encounter of the KOLAPS chapter being played ("La rue Mercière"): alice's police
section against bruno's pack of hunters, in its second turn. Turn 1 was played through the
services as at the table: orders given and revealed, a shot into a melee whose stray shot
hits one of the target's allies (chosen by bruno), a server shot, a claw in melee, a wound
the organiser applied, then the end phase (K14) and the next attacker (K15). The first
spectator link went to the wrong group chat: the organiser replaced it before the game began
(the old one answers 404; the log says so).

`enter_table_units` runs while the chapter is still planned (the units must be entered
before it starts); `load_table_demo` once it is being played, and `recruit_after_the_start`
after it: bruno's pack grows, the chapter keeps the pack it froze at the start.
Idempotent: a chapter that has its encounter keeps whatever the demo users did since.
"""

from dataclasses import replace

from campaigns.chapters.entries import chapter_unit_enter
from campaigns.models import Chapter
from characters.kolaps import services as kolaps
from characters.kolaps.models import KolapsUnit
from config.demo.keys import once, recall
from rules.table.models import Combatant, Encounter
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_choose_stray,
    encounter_create_for_chapter,
    encounter_odds,
    encounter_reveal,
    encounter_rotate_spectator_link,
    encounter_set_directive,
)

DEMO_TABLE_PACK = "La meute du Rhône"


def _pack(bruno) -> KolapsUnit | None:
    """bruno's valid unit of hunters (his other one is a draft), built once."""
    return once(
        "kolaps/unit/pack",
        KolapsUnit,
        lambda: _make_pack(bruno),
        adopt={"owner": bruno, "name": DEMO_TABLE_PACK},
    )


# Worth what alice's section is worth (11 VU): with fewer, K12 would send her lowest ranks
# to bruno's side at the table.
PACK = (
    ("Sabre", "veteran"),
    ("Griffe", "aguerri"),
    ("Croc", "aguerri"),
    ("Mâchoire", "aguerri"),
    ("Louve", "aguerri"),
)
# The hunter bruno recruits once the chapter has started: his pack is worth more now, the
# chapter being played still shows and plays it as it was entered (its frozen entry).
LATE_RECRUIT = "Louveteau"


def _make_pack(bruno) -> KolapsUnit:
    unit = kolaps.unit_create(owner=bruno, name=DEMO_TABLE_PACK)
    leader = None
    for name, rank in PACK:
        character = kolaps.character_create(
            owner=bruno, name=name, archetype="chasseur", rank=rank, unit=unit
        )
        leader = leader or character
    unit.refresh_from_db()
    return kolaps.unit_set_avatar(actor=bruno, unit=unit, version=unit.version, character=leader)


def enter_table_units(players, chapter: Chapter) -> None:
    """alice's section and bruno's pack enter the chapter before it starts."""
    alice, bruno = players["alice"], players["bruno"]
    police = recall("kolaps/unit/valid", KolapsUnit)
    pack = _pack(bruno)
    if police is None or pack is None or not police.is_valid or not pack.is_valid:
        return
    chapter_unit_enter(actor=alice, chapter=chapter, unit=police, side="Police")
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=pack, side="Meute")


def recruit_after_the_start(players) -> None:
    """bruno adds a hunter to his pack after the chapter started: the pack's page says 13
    VU, the chapter being played keeps the 11 it was entered with."""
    bruno = players["bruno"]
    pack = recall("kolaps/unit/pack", KolapsUnit)
    if pack is None or pack.members.filter(name=LATE_RECRUIT).exists():
        return
    kolaps.character_create(
        owner=bruno, name=LATE_RECRUIT, archetype="chasseur", rank="aguerri", unit=pack
    )


def _named(encounter: Encounter, name: str) -> int:
    return Combatant.objects.get(encounter=encounter, name=name).pk


def _stray_shot(players, encounter: Encounter) -> None:
    """Vasseur opens the action phase with a pistol shot into the melee where Dupont and
    Sabre are locked, dice typed by hand: a miss, and the stray die's 3 reaches Sabre's side
    (Tir dans une mêlée 2-3). bruno chooses Croc, who takes the light wound and survives its
    death roll (a 5)."""
    alice, bruno = players["alice"], players["bruno"]
    vasseur, dupont = _named(encounter, "Capitaine Vasseur"), _named(encounter, "Brigadier Dupont")
    sabre, croc = _named(encounter, "Sabre"), _named(encounter, "Croc")
    shot = ActionInput(
        kind="ranged",
        actor=vasseur,
        target=sabre,
        distance_cm=15,
        options={"melee_figures": 2, "stray_ally": dupont},
    )
    # Every die a 1: under the threshold of Vasseur, a veteran (no critical failure at his
    # rank), a plain failure: the miss the stray die follows.
    count = encounter_odds(encounter=encounter, action=shot)["dice_count"]
    dice = {"dice": [1] * count, "stray_die": [3]}
    encounter_act(actor=alice, encounter=encounter, version=None, action=replace(shot, dice=dice))
    encounter_choose_stray(
        actor=bruno, encounter=encounter, version=None, ally=croc, dice={"death_die": [5]}
    )


def load_table_demo(players, chapter: Chapter) -> None:
    """Open the chapter's live encounter and play its first turn."""
    orga, alice, bruno = players["orga"], players["alice"], players["bruno"]
    if chapter.table_record.get("encounter") or chapter.unit_entries.count() < 2:
        return
    encounter = encounter_create_for_chapter(actor=orga, chapter=chapter)
    # The first spectator link went to the wrong group chat: replaced before the game began.
    encounter_rotate_spectator_link(actor=orga, encounter=encounter)
    dupont, vasseur = _named(encounter, "Brigadier Dupont"), _named(encounter, "Capitaine Vasseur")
    sabre, griffe = _named(encounter, "Sabre"), _named(encounter, "Griffe")
    for actor, combatant, order in (
        (alice, dupont, "offensive"),
        (alice, vasseur, "support"),
        (bruno, sabre, "offensive"),
        (bruno, griffe, "movement"),
    ):
        encounter_set_directive(
            actor=actor, encounter=encounter, version=None, combatant=combatant, directive=order
        )
    for actor, combatant in ((alice, dupont), (bruno, sabre)):
        encounter_reveal(actor=actor, encounter=encounter, version=None, combatant=combatant)
    encounter_advance(actor=orga, encounter=encounter, version=None)
    _stray_shot(players, encounter)
    # Dupont fires his assault rifle at Griffe, 40 cm away behind light cover; Sabre
    # answers Dupont in melee; both rolled by the server (recorded, replayable).
    encounter_act(
        actor=alice,
        encounter=encounter,
        version=None,
        action=ActionInput(
            kind="ranged",
            actor=dupont,
            target=griffe,
            weapon="fa-f4",
            distance_cm=40,
            cover=1,
            dice=None,
        ),
    )
    encounter_act(
        actor=bruno,
        encounter=encounter,
        version=None,
        action=ActionInput(kind="melee", actor=sabre, target=dupont, dice=None),
    )
    encounter_act(
        actor=orga,
        encounter=encounter,
        version=None,
        action=ActionInput(
            kind="wound", target=vasseur, wound="superficial", dice={"death_die": []}
        ),  # a fall on the quay, decided at the table: no dice
    )
    encounter_advance(actor=orga, encounter=encounter, version=None)

"""The Corporates demo: orga's campaign with alice and bruno, and a worked example of a
shot rolled on the server, then its damage (the text's burst example: a three-round burst
against difficulty 12); bruno's ramming charge on a guard and his trip by strength. alice's
and bruno's character sheets: Vex (a session's wounds carried, then a change) and Brick."""

from campaigns.models import Campaign
from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import (
    corporates_character_carry,
    corporates_character_create,
    corporates_character_update,
)
from config.demo.campaigns import demo_campaign
from config.demo.keys import once
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server

CAMPAIGN = "Arcologie 7"
SHOT = {
    "pool": 4,
    "bonus": 8,
    "range": "medium",
    "declared": 2,
    "burst": "three_round",
    "burst_bonus": 3,
    "movement": "still",
    "size": "standing",
}
DAMAGE = {"weapon": "bullet", "damage_dice": 3, "damage_bonus": 2, "soak_dice": 3, "soak_bonus": 4}
RAMMING = {
    "pool": 4,
    "bonus": 6,
    "combat_skill": 6,
    "dodge_skill": 4,
    "charge": "foot",
    "damage_dice": 2,
    "soak_dice": 2,
    "soak_bonus": 2,
}
TAKEDOWN = {"kind": "trip_strength", "attacker_pool": 3, "attacker_bonus": 3, "defender_pool": 3}
VEX = {"combat_pool": 4, "combat_bonus": 6, "shot_pool": 4, "shot_bonus": 8, "firearm_level": 3,
       "dodge_skill": 4, "wired_reflexes": 2, "soak_dice": 3, "soak_bonus": 4}  # fmt: skip
BRICK = {"combat_pool": 5, "combat_bonus": 6, "combat_skill": 6, "damage_dice": 3,
         "damage_bonus": 4, "soak_dice": 4, "soak_bonus": 6, "weapon_defence": 2}  # fmt: skip


def _vex(alice) -> CorporatesCharacter:
    vex = corporates_character_create(
        owner=alice,
        name="Vex",
        description="Extractrice free-lance, bras gauche cybernétique.",
        equipment="Pistolet-mitrailleur, lame monomoléculaire, veste pare-balles.",
        numbers=VEX,
        weapon="cutting",
    )
    # The first session left her with 1 fatigue and 2 wound levels; she then trained.
    vex = corporates_character_carry(
        actor=alice, character=vex, fatigue=1, wounds=2, source="Arcologie 7 — prologue"
    )
    return corporates_character_update(
        actor=alice, character=vex, version=vex.version, numbers={"shot_bonus": 9}
    )


def _brick(bruno) -> CorporatesCharacter:
    return corporates_character_create(
        owner=bruno,
        name="Brick",
        description="Garde du corps reconverti, tout en épaules.",
        numbers=BRICK,
        weapon="hard_blunt",
    )


def load_corporates(players) -> Campaign | None:
    """The campaign, created once, and alice's shot and damage, each rolled once."""

    campaign = demo_campaign(
        "corporates/campaign",
        players,
        name=CAMPAIGN,
        system="corporates",
        description=(
            "Niveau -12 de l'arcologie Kessler\u00a0: une extraction qui tourne mal, "
            "tours de cinq secondes et rafales de trois."
        ),
    )
    alice = players["alice"]
    for name, data in (("shot", SHOT), ("damage", DAMAGE)):
        if not RollRecord.objects.filter(player=alice, system="corporates", resolver=name).exists():
            roll_on_server(player=alice, system="corporates", name=name, data=data)
    once("corporates/character/alice", CorporatesCharacter, lambda: _vex(alice))
    bruno = players["bruno"]
    once("corporates/character/bruno", CorporatesCharacter, lambda: _brick(bruno))
    for name, data in (("ramming", RAMMING), ("takedown", TAKEDOWN)):
        if not RollRecord.objects.filter(player=bruno, system="corporates", resolver=name).exists():
            roll_on_server(player=bruno, system="corporates", name=name, data=data)
    return campaign

"""KOLAPS end phase ("phase de bilan") for a set of characters (RULES-NOTES K14).

"End phase, in order: melees, healing, breath recovery, the unconscious of the previous
turn get up, the frightened recover for 1 Moral, Moral adjustments. Breath: +1 when none
was spent and not engaged, unless Santé <= 3; a declared Recovery gives breath equal to
Santé; Santé + Souffle <= 6 means unconscious next turn. Gauges stay within 1..6."

Melees are resolved before, one by one (`melee`); this resolver takes each character's
gauges and what happened to it this turn and applies steps 2 to 6. Input:

    {"characters": [{"name": "Kirmann", "rank": "veteran", "avatar": false,
                     "sante": 4, "souffle": 2, "moral": 5,
                     "healing": 0, "breath_spent": false, "engaged": false,
                     "recovery": false, "unconscious": false, "frightened": false,
                     "sante_lost": 2, "moral_changes": 0}]}

`sante_lost` is the Santé the character lost this turn (for the wound's Moral loss),
`moral_changes` the other adjustments of the turn (kills, orders it could not follow...).
No dice: the three verbs give the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue, FollowUps
from rules.engine.systems.kolaps.steps import certain
from rules.engine.systems.kolaps.talent_test import rank_slugs

# The Moral a wound costs by rank ("Un personnage blessé ce tour perd du moral ..."), the
# threshold of unconsciousness ("Dès que cette somme passe à 6 ou moins ... inconscient")
# and of breath recovery ("si la Santé est à 3 ou moins cette récupération est interdite"),
# the bounds of the gauges, the breath a rest gives and the Moral fright costs are the
# catalogue's `tables.follow_ups`.


def clamp(value: int, follow: FollowUps) -> int:
    """K14: "Gauges stay within 1..6"."""
    return max(follow.gauge_min, min(follow.gauge_max, value))


def wound_moral_loss(
    rank: str, sante_lost: int, sante: int, catalogue: Catalogue | None = None
) -> int:
    """The Moral a character wounded this turn loses, by rank (the text's Moral section:
    the catalogue's `tables.follow_ups.wound_moral`)."""
    if sante_lost <= 0:
        return 0
    rows = (catalogue or load_catalogue()).tables.follow_ups.wound_moral[rank]
    by_loss = max(
        (lost for at_least, lost in rows["loss_at_least"] if sante_lost >= at_least), default=0
    )
    by_left = max((lost for at_most, lost in rows["sante_at_most"] if sante <= at_most), default=0)
    return max(by_loss, by_left)


def end_of_turn(
    character: Mapping[str, Any], index: int, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    """K14 steps 2-6 for one character, in the text's order."""
    catalogue = catalogue or load_catalogue()
    path = f"characters.{index}."
    rank = inputs.choice(character, "rank", rank_slugs(catalogue), path=path)
    avatar = inputs.flag(character, "avatar", path=path)
    sante = inputs.integer(character, "sante", 1, 6, path=path)
    souffle = inputs.integer(character, "souffle", 1, 6, path=path)
    moral = inputs.integer(character, "moral", 1, 6, path=path)
    healing = inputs.integer(character, "healing", 0, 6, 0, path=path)
    sante_lost = inputs.integer(character, "sante_lost", 0, 6, 0, path=path)
    moral_changes = inputs.integer(character, "moral_changes", -10, 10, 0, path=path)
    spent = inputs.flag(character, "breath_spent", path=path)
    engaged = inputs.flag(character, "engaged", path=path)
    recovery = inputs.flag(character, "recovery", path=path)
    unconscious = inputs.flag(character, "unconscious", path=path)
    frightened = inputs.flag(character, "frightened", path=path)
    name = character.get("name", f"#{index + 1}")
    steps: list[str] = []
    follow = catalogue.tables.follow_ups
    wound_loss = wound_moral_loss(rank, sante_lost, sante, catalogue)
    # 2. Healing.
    if healing:
        sante = clamp(sante + healing, follow)
        steps.append("healing")
    # 3. Breath: a declared Recovery gives Santé; otherwise +1 if rested and Santé > 3.
    if recovery:
        souffle = clamp(souffle + sante, follow)
        steps.append("recovery")
    elif not spent and not engaged and sante >= follow.breath_recovery_min_sante:
        souffle = clamp(souffle + follow.rested_breath_gain, follow)
        steps.append("breath")
    # 4. "Les personnages tombés inconscients le tour d'avant se relèvent."
    gets_up = unconscious
    # 5. "Un personnage effrayé se reprend au prix de la perte d'1 point de moral."
    # 6. Moral adjustments. The Avatar's Moral "ne peut pas être modifié".
    if not avatar:
        if frightened:
            moral = clamp(moral - follow.frightened_moral_loss, follow)
            steps.append("frightened")
        change = moral_changes - wound_loss
        if change:
            moral = clamp(moral + change, follow)
            steps.append("moral")
    return {
        "name": name,
        "sante": sante,
        "souffle": souffle,
        "moral": moral,
        "gets_up": gets_up,
        "frightened": False,
        "wound_moral_loss": 0 if avatar else wound_loss,
        "unconscious_next_turn": sante + souffle <= follow.unconscious_at_most,
        "steps": steps,
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    characters = data.get("characters")
    if not isinstance(characters, list) or not 1 <= len(characters) <= 50:
        raise RuleInputError("characters", "characters is a list of 1 to 50", kind="list")
    out = []
    for index, character in enumerate(characters):
        if not isinstance(character, Mapping):
            raise RuleInputError(f"characters.{index}", "a character is an object", kind="object")
        out.append(end_of_turn(character, index, catalogue))
    return {"characters": out, "dice": []}


# No dice: the end phase is certain.
odds, roll = certain(evaluate)

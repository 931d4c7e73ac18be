"""What every Corporates resolver reads the same way: the campaign's settings, the action
pool after its malus dice, and the comparison of a result with a difficulty."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.systems import setting
from rules.engine.systems.corporates.catalogue import Catalogue
from rules.engine.systems.corporates.pool import MAX_POOL
from rules.engine.systems.kolaps import inputs


def chosen_settings(data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """The campaign's open settings in the body, read against this catalogue's."""
    return setting.chosen_settings(data, catalogue.settings)


@dataclass(frozen=True)
class Pool:
    """The dice an action rolls once its malus dice are taken off, and their flat bonus."""

    dice: int
    bonus: int
    base: int
    malus: int


def action_pool(data: Mapping[str, Any], catalogue: Catalogue, *, extra_malus: int = 0) -> Pool:
    """Les actions déclarées / non déclarées: "un malus d'1d par action supplémentaire pour
    toutes les actions déclarées ou non déclarées du tour"; each undeclared action before
    this one "un malus supplémentaire d'1d"; a double action "la perte d'1d supplémentaire";
    and "Un personnage garde toujours un minimum de 1d + 1d par point de confiance"."""
    actions = catalogue.actions
    base = inputs.integer(data, "pool", 1, MAX_POOL)
    bonus = inputs.integer(data, "bonus", -50, 50, default=0)
    survival = inputs.flag(data, "survival")
    declared = (
        actions["survival_declared"]
        if survival
        else inputs.integer(data, "declared", 1, actions["segments"], default=1)
    )
    undeclared = inputs.integer(data, "undeclared_before", 0, 10, default=0)
    double = inputs.flag(data, "double_action")
    confidence = inputs.integer(data, "confidence", 0, 5, default=0)
    malus = (
        catalogue.malus_dice[declared]
        + undeclared * actions["undeclared_malus_dice"]
        + (actions["double_action_malus_dice"] if double else 0)
        + extra_malus
    )
    floor = actions["minimum_dice"] + confidence
    return Pool(dice=max(floor, base - malus), bonus=bonus, base=base, malus=malus)


def succeeds(result: int, difficulty: int, tie_succeeds: bool) -> bool:
    return result >= difficulty if tie_succeeds else result > difficulty


def needed(difficulty: int, bonus: int, tie_succeeds: bool) -> int:
    """The dice total a roll needs to succeed."""
    return difficulty - bonus + (0 if tie_succeeds else 1)

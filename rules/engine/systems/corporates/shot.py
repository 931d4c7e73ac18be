"""A shot (Les tirs): its difficulty from every modifier of the text, then the roll, the
damage dice its margin adds, a burst's hits, and where a miss goes.

The difficulty, in the text's order: base by range band ("courte 5, moyenne 15, longue 20,
extrême 25"); a snap shot adds the weapon's "malus de tir au jugé" and the failure margin of
a reflex roll; target size by
visible surface ("Modificateurs de taille", cover included: "évaluer la surface visible");
movement ("Modificateurs de mouvement", "dans l'axe du tir ... d'1") and combat movement
("augmenter de son niveau en feinte de corps"); a falling target ("Vitesse de chute");
"Cible engagée ... 3 x nombre de participants"; crowd ("5 à 10 selon la densité");
"Arme non épaulée": ranges at most 5/10/20/30 m and a snap shot; reduced visibility
("3 + Distance / (k x Pe)"); a burst lowers it by the weapon's burst bonus, never below 5.

Two bonuses go to the roll, not to the difficulty, as the text says: point blank ("à une
distante de moins de 3m ... le tireur dispose d'un bonus de +5") and an aimed shot's
acquisition ("un jet de tir standard auquel il ajoute les bonus lié à l'acquisition": "+1
s'il est debout, +2 s'il est en appui ou +3 s'il est couché" per aiming action, capped by
the weapon score or the sight's aiming bonus). A single shot hits the same either way; a
burst does not: its hits are "Résultat du tir / Difficulté" with the difficulty's floor of 5,
so a bonus on the result counts for every bullet.

Input (all optional but `pool` and `range`): see the registry's schema. Evaluate takes
`"dice"`, the pool after its malus dice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.actions import judge
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import Pool, action_pool, chosen_settings
from rules.engine.systems.kolaps import inputs

SHOT_TYPES = ("standard", "snap", "aimed")
STANCES = ("standing", "braced", "prone")
BURSTS = ("none", "three_round", "free")
REFLEX = ("none", "front", "side_or_behind")
REFLEX_PLACES = ("usual", "improbable_place", "aimed_place")
DRAWS = ("none", "sling", "belt", "holster", "pocket")


@dataclass(frozen=True)
class Shot:
    pool: Pool
    difficulty: int
    modifiers: tuple[tuple[str, int], ...]
    roll_bonuses: tuple[tuple[str, int], ...]
    burst: str
    bullets: int
    reflex_roll_difficulty: int | None
    engaged: int
    cover_protection: int | None
    settings: Mapping[str, Any]


def _band_for_distance(distance: float, ranges: list[int]) -> str:
    for band, limit in zip(("short", "medium", "long", "extreme"), ranges, strict=True):
        if distance <= limit:
            return band
    raise RuleInputError("distance_m", "beyond the weapon's range", kind="range")


def roll_bonuses(data: Mapping[str, Any], catalogue: Catalogue) -> list[tuple[str, int]]:
    """What the shooter adds to the roll (Le tir visé, Le tir à bout portant)."""
    shot = catalogue.shot
    bonuses: list[tuple[str, int]] = []
    snap = inputs.flag(data, "unshouldered") or data.get("draw", "none") != "none"
    kind = "snap" if snap else inputs.choice(data, "shot_type", SHOT_TYPES, default="standard")
    if kind == "aimed":
        stance = inputs.choice(data, "stance", STANCES, default="standing")
        aims = inputs.integer(data, "aim_actions", 0, 10, default=0)
        cap = inputs.integer(data, "aim_cap", 0, 30, default=30)
        bonuses.append(("aim_acquisition", min(cap, aims * shot["aim_bonus_per_action"][stance])))
    if inputs.number(data, "distance_m", 0, 5000, default=10) < shot["point_blank_metres"]:
        bonuses.append(("point_blank", shot["point_blank_bonus"]))
    return bonuses


def difficulty_modifiers(
    data: Mapping[str, Any], catalogue: Catalogue, settings: Mapping[str, Any]
) -> list[tuple[str, int]]:
    """Each modifier of the difficulty by name, in the text's order (the bonuses to the roll
    are `roll_bonuses`)."""
    shot = catalogue.shot
    distance = inputs.number(data, "distance_m", 0, 5000, default=10)
    unshouldered = inputs.flag(data, "unshouldered")
    band = inputs.choice(data, "range", tuple(shot["range_base"]))
    if unshouldered:
        band = max(
            band,
            _band_for_distance(distance, shot["unshouldered_ranges_m"]),
            key=list(shot["range_base"]).index,
        )
    draw = inputs.choice(data, "draw", DRAWS, default="none")
    snap = unshouldered or draw != "none"
    kind = "snap" if snap else inputs.choice(data, "shot_type", SHOT_TYPES, default="standard")
    mods: list[tuple[str, int]] = [(f"range_{band}", shot["range_base"][band])]
    if draw != "none":
        # Dégainer/Utiliser: "Le tir est toujours un tir au jugé avec un malus supplémentaire".
        mods.append((f"draw_{draw}", shot["draw_and_use_malus"][draw]))
    if kind == "snap":
        mods.append(("snap_shot", inputs.integer(data, "snap_malus", 0, 30, default=0)))
        reflex = inputs.choice(data, "reflex", REFLEX, default="none")
        if reflex != "none":
            mods.append(
                ("reflex_failure", inputs.integer(data, "reflex_failure_margin", 0, 60, default=0))
            )
    size = inputs.choice(data, "size", tuple(shot["size"]), default="standing")
    mods.append((f"size_{size}", shot["size"][size]))
    movement = inputs.choice(data, "movement", tuple(shot["movement"]), default="still")
    mods.append((f"movement_{movement}", shot["movement"][movement]))
    feint = inputs.integer(data, "combat_movement_feint", 0, 20, default=0)
    if feint:
        mods.append(("combat_movement", feint))
    fall = inputs.integer(data, "fall_segment", 0, 60, default=0)
    if fall:
        table = shot["fall_by_segment"]
        mods.append(("falling", table[min(fall, len(table)) - 1]))
    engaged = inputs.integer(data, "engaged_participants", 0, 20, default=0)
    if engaged:
        mods.append(("engaged_target", engaged * shot["engaged_per_participant"]))
    crowd = inputs.choice(data, "crowd", tuple(shot["crowd"]), default="none")
    if crowd != "none":
        mods.append((f"crowd_{crowd}", shot["crowd"][crowd]))
    visibility = inputs.choice(
        data, "visibility", tuple(shot["visibility_divisor"]), default="normal"
    )
    if visibility != "normal":
        perception = inputs.integer(data, "perception", 1, 20, default=3)
        sight = inputs.choice(data, "night_sight", tuple(shot["night_sight_dice"]), default="none")
        seen = shot["visibility_divisor"][visibility] * (
            perception + shot["night_sight_dice"][sight]
        )
        share = distance / seen
        malus = shot["visibility_base"] + (
            int(share) if settings["visibility_rounding"] == "down" else round(share)
        )
        mods.append((f"visibility_{visibility}", malus))
    mods.append(("other", inputs.integer(data, "other_modifier", -30, 30, default=0)))
    return mods


def reflex_difficulty(data: Mapping[str, Any], catalogue: Catalogue) -> int | None:
    """The reaction roll a target appearing this segment may call for ("Modificateur lors
    d'un tir réflexe"): 15 in front, 20 beside or behind, +5 in an improbable place, -5
    where the shooter aims, or less the shooter's vigilance when on guard (not with -5)."""
    reflex = inputs.choice(data, "reflex", REFLEX, default="none")
    if reflex == "none":
        return None
    shot = catalogue.shot
    difficulty: int = shot["reflex_difficulty"][reflex]
    place = inputs.choice(data, "reflex_place", REFLEX_PLACES, default="usual")
    if place != "usual":
        difficulty += shot["reflex_modifiers"][place]
    if place != "aimed_place":
        difficulty -= inputs.integer(data, "on_guard_vigilance", 0, 20, default=0)
    return difficulty


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> Shot:
    settings = chosen_settings(data, catalogue)
    mods = difficulty_modifiers(data, catalogue, settings)
    burst = inputs.choice(data, "burst", BURSTS, default="none")
    difficulty = sum(v for _, v in mods)
    if burst != "none":
        mods.append(("burst_bonus", -inputs.integer(data, "burst_bonus", 0, 20, default=0)))
        difficulty = max(catalogue.burst["minimum_difficulty"], difficulty + mods[-1][1])
    cover = data.get("cover")
    cover_protection = None
    if cover is not None:
        cover_protection = catalogue.shot["protection"][
            inputs.choice(data, "cover", tuple(catalogue.shot["protection"]))
        ] + inputs.integer(data, "cover_armour", 0, 30, default=0)
    # "Dégainer/Utiliser ... est une double action déclarée qui entraîne perte d'1d
    # supplémentaire" (once, even if the double action is also ticked).
    draw_and_use = data.get("draw", "none") != "none" and not data.get("double_action")
    extra = catalogue.actions["double_action_malus_dice"] if draw_and_use else 0
    return Shot(
        pool=action_pool(data, catalogue, extra_malus=extra),
        difficulty=max(0, difficulty),
        modifiers=tuple(mods),
        roll_bonuses=tuple(roll_bonuses(data, catalogue)),
        burst=burst,
        bullets=catalogue.burst["bullets"].get(burst, 1),
        reflex_roll_difficulty=reflex_difficulty(data, catalogue),
        engaged=inputs.integer(data, "engaged_participants", 0, 20, default=0),
        cover_protection=cover_protection,
        settings=settings,
    )


def burst_hits(result: int, shot: Shot) -> list[int]:
    """Le tir en rafale: hits = "Résultat du tir / Difficulté", each bullet's margin "à
    partir du score nécessaire pour toucher" (27 against 12: margins 15 and 3)."""
    if shot.burst == "none" or shot.difficulty == 0:
        return []
    hits = result // shot.difficulty
    if shot.settings["burst_hits_capped_by_bullets"]:
        hits = min(hits, shot.bullets)
    return [result - k * shot.difficulty for k in range(1, hits + 1)]


def outcome(roll: int, shot: Shot, catalogue: Catalogue) -> dict[str, Any]:
    """`roll` is the dice and the pool's bonus; the shot's own bonuses join it here."""
    result = roll + sum(v for _, v in shot.roll_bonuses)
    answer = judge(result, shot.difficulty, shot.settings["tie_succeeds"], catalogue)
    hit = answer["success"]
    answer["bullet_margins"] = burst_hits(result, shot) if hit else []
    miss_by = answer["failure_margin"]
    # Se protéger: "Si un tir ... rate de 5 ou moins, ... la balle a tapé dans l'obstacle".
    answer["hits_cover"] = (
        not hit
        and shot.cover_protection is not None
        and miss_by <= catalogue.shot["cover_miss_margin"]
    )
    answer["cover_protection"] = shot.cover_protection if answer["hits_cover"] else None
    # Cible engagée: "si la marge est inférieure à ce nombre l'un des autres
    # protagonistes est touché".
    answer["bystander_hit"] = not hit and shot.engaged > 0 and miss_by < shot.engaged
    return answer


def _header(shot: Shot) -> dict[str, Any]:
    return {
        "difficulty": shot.difficulty,
        "modifiers": [{"name": k, "value": v} for k, v in shot.modifiers],
        "roll_bonuses": [{"name": k, "value": v} for k, v in shot.roll_bonuses],
        "dice_count": shot.pool.dice,
        "malus_dice": shot.pool.malus,
        "bonus": shot.pool.bonus,
        "reflex_roll_difficulty": shot.reflex_roll_difficulty,
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    shot = setup(data, catalogue)
    rows, denominator = p.plain_sum(shot.pool.dice)
    counts: dict[str, Fraction] = {"hit": Fraction(0), "miss": Fraction(0)}
    hits: dict[str, Fraction] = {}
    extra: dict[str, Fraction] = {}
    for total, ways in rows:
        chance = Fraction(ways, denominator)
        answer = outcome(total + shot.pool.bonus, shot, catalogue)
        if answer["success"]:
            counts["hit"] += chance
            key = str(answer["extra_damage_dice"])
            extra[key] = extra.get(key, Fraction(0)) + chance
            if shot.burst != "none":
                n = str(len(answer["bullet_margins"]))
                hits[n] = hits.get(n, Fraction(0)) + chance
        else:
            label = (
                "hits_cover"
                if answer["hits_cover"]
                else "bystander_hit"
                if answer["bystander_hit"]
                else "miss"
            )
            counts[label] = counts.get(label, Fraction(0)) + chance
    return {
        **_header(shot),
        **p.outcome_answer(counts),
        "extra_damage_dice": {
            k: float(v) for k, v in sorted(extra.items(), key=lambda kv: int(kv[0]))
        },
        "burst_hits": {k: float(v) for k, v in sorted(hits.items(), key=lambda kv: int(kv[0]))},
    }


def _answer(shot: Shot, dice: tuple[int, ...], catalogue: Catalogue) -> dict[str, Any]:
    return {
        **_header(shot),
        **outcome(sum(dice) + shot.pool.bonus, shot, catalogue),
        "dice": list(dice),
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    shot = setup(data, catalogue)
    return _answer(shot, p.check_pool(data.get("dice"), shot.pool.dice), catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    shot = setup(data, catalogue)
    return _answer(shot, p.roll_pool(shot.pool.dice, rng), catalogue)

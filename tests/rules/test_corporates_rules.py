"""Corporates (003_fde41e4e6014fd0d.txt, RULES-NOTES C1): every resolver against the text it
quotes, and every odds answer against brute-force enumeration of the dice."""

import itertools
import random
from fractions import Fraction

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates import (
    actions,
    covering_fire,
    critical,
    cyber,
    damage,
    melee,
    pool,
    reaction,
    schedule,
    shot,
)
from rules.engine.systems.corporates.catalogue import (
    CatalogueError,
    load_catalogue,
    parse_catalogue,
)

FACES = range(1, 7)


def brute(n):
    return itertools.product(FACES, repeat=n)


def frac(text):
    numerator, denominator = text.split("/")
    return Fraction(int(numerator), int(denominator))


# --- The catalogue -----------------------------------------------------------------------


def test_it_refuses_a_catalogue_whose_schedule_does_not_match_its_counts():
    import json

    from rules.engine.systems.corporates.catalogue import CATALOGUES_DIR

    data = json.loads((CATALOGUES_DIR / "2026.11.1.json").read_text())
    data["actions"]["schedule"]["2"] = [2]
    with pytest.raises(CatalogueError, match=r"actions\.schedule\.2"):
        parse_catalogue(data)


def test_it_refuses_a_setting_whose_default_is_not_a_choice():
    import json

    from rules.engine.systems.corporates.catalogue import CATALOGUES_DIR

    data = json.loads((CATALOGUES_DIR / "2026.11.1.json").read_text())
    data["settings"]["immobile_defence"]["default"] = 7
    with pytest.raises(CatalogueError, match="immobile_defence"):
        parse_catalogue(data)


# --- Action rolls --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declared", "segments", "malus"),
    [
        # "Actions 1 2 3 4 5 Malus / 1 - - X - - 0d / 2 - X - X - -1d / 3 X - X - X -2d /
        #  4 X X - X X -3d / 5 X X X X X -4d"
        (1, (3,), 0),
        (2, (2, 4), 1),
        (3, (1, 3, 5), 2),
        (4, (1, 2, 4, 5), 3),
        (5, (1, 2, 3, 4, 5), 4),
    ],
)
def test_it_spreads_declared_actions_over_the_segments_as_the_table(declared, segments, malus):
    assert schedule.declared_segments(declared) == (segments, 0)
    assert actions.odds({"pool": 6, "difficulty": 10, "declared": declared})["malus_dice"] == malus


def test_it_never_drops_a_pool_below_one_die_plus_confidence():
    # "Un personnage garde toujours un minimum de 1d + 1d par point de confiance utilisé"
    assert actions.odds({"pool": 3, "difficulty": 5, "declared": 5})["dice"] == 1
    assert actions.odds({"pool": 3, "difficulty": 5, "declared": 5, "confidence": 1})["dice"] == 2


def test_it_takes_a_die_per_undeclared_action_already_made():
    # "il aura un malus supplémentaire d'1d à tous les actions ... qu'il entreprendra par la suite"
    assert actions.odds({"pool": 5, "difficulty": 5, "undeclared_before": 2})["dice"] == 3


def test_survival_mode_counts_as_five_declared_actions():
    # "on considère qu'il avait annoncé 5 actions déclarées ... son malus ... passe à -4d"
    assert actions.odds({"pool": 6, "difficulty": 5, "survival": True})["dice"] == 2


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("difficulty", [4, 9, 12])
@pytest.mark.parametrize("tie", [True, False])
def test_action_odds_equal_brute_force(n, difficulty, tie):
    odds = actions.odds(
        {"pool": n, "bonus": 1, "difficulty": difficulty, "settings": {"tie_succeeds": tie}}
    )
    wins = sum(
        1
        for dice in brute(n)
        if actions.evaluate(
            {
                "pool": n,
                "bonus": 1,
                "difficulty": difficulty,
                "dice": list(dice),
                "settings": {"tie_succeeds": tie},
            }
        )["success"]
    )
    assert frac(odds["outcomes_exact"]["success"]) == Fraction(wins, 6**n)


def test_a_reaction_failed_by_ten_loses_the_segment():
    # "une marge d'échec de 10 ou plus pouvant signifier l'absence de réaction sur le segment"
    answer = actions.evaluate({"pool": 2, "difficulty": 14, "dice": [1, 3]})
    assert answer["failure_margin"] == 10
    assert answer["reaction_lost"] is True
    assert actions.evaluate({"pool": 2, "difficulty": 13, "dice": [1, 3]})["reaction_lost"] is False


def test_it_refuses_dice_that_are_not_the_pool_after_its_malus():
    with pytest.raises(RuleInputError) as refused:
        actions.evaluate({"pool": 3, "declared": 2, "difficulty": 10, "dice": [1, 2, 3]})
    assert refused.value.params == {"kind": "dice", "count": 2}


def test_it_refuses_an_unknown_setting_value():
    with pytest.raises(RuleInputError) as refused:
        actions.odds({"pool": 3, "difficulty": 10, "settings": {"tie_succeeds": "maybe"}})
    assert refused.value.field == "settings.tie_succeeds"


# --- Reaction rolls and the turn tracker ---------------------------------------------------


def test_reaction_odds_equal_brute_force():
    # "Si l'un des personnages surpasse de 5 ou plus son adversaire, il prend l'initiative"
    body = {"a_pool": 2, "a_bonus": 3, "b_pool": 2}
    odds = reaction.odds(body)
    counts = {"a": 0, "b": 0, "simultaneous": 0}
    for a, b in itertools.product(brute(2), brute(2)):
        answer = reaction.evaluate({**body, "a_dice": list(a), "b_dice": list(b)})
        counts[answer["initiative"]] += 1
    for key, count in counts.items():
        assert frac(odds["outcomes_exact"][key]) == Fraction(count, 6**4)


def test_a_margin_of_five_takes_the_initiative_and_four_does_not():
    body = {"a_pool": 1, "b_pool": 1}
    assert reaction.evaluate({**body, "a_dice": [6], "b_dice": [1]})["initiative"] == "a"
    assert reaction.evaluate({**body, "a_dice": [5], "b_dice": [1]})["initiative"] == "simultaneous"
    higher = {**body, "settings": {"initiative_within_margin": "higher_result"}}
    assert reaction.evaluate({**higher, "a_dice": [5], "b_dice": [1]})["initiative"] == "a"


def test_a_delayed_action_pushes_the_rest_and_loses_what_passes_segment_five():
    # "cela décale d'autant toutes les actions déclarées restantes ; celles décalées au delà
    #  du segment 5 sont perdues"
    assert schedule.declared_segments(3, {1: 1}) == ((2, 4), 1)
    assert schedule.declared_segments(2, {2: 1}) == ((2, 5), 0)


def test_the_turn_tracker_shows_who_acts_in_each_segment_and_at_what_malus():
    plan = schedule.turn_plan(
        [
            {"name": "Kay", "declared": 2, "undeclared": [1]},
            {"name": "Rook", "declared": 1, "survival_from": 4},
        ]
    )
    by_segment = {row["segment"]: row["acting"] for row in plan["segments"]}
    assert [a["name"] for a in by_segment[1]] == ["Kay"]
    assert by_segment[1][0]["acts"] == ["undeclared"]
    # Kay: 2 declared actions (-1d) and one undeclared action in segment 1 (-1d after it).
    assert by_segment[2] == [{"name": "Kay", "acts": ["declared"], "malus_dice": 2}]
    # Rook: one action in segment 3 at 0d, then survival mode from 4: every segment at -4d.
    assert by_segment[3] == [{"name": "Rook", "acts": ["declared"], "malus_dice": 0}]
    assert {"name": "Rook", "acts": ["declared"], "malus_dice": 4} in by_segment[5]


# --- Shots -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("band", "base"), [("short", 5), ("medium", 15), ("long", 20), ("extreme", 25)]
)
def test_the_base_difficulty_is_the_range_table(band, base):
    # "courte 5 / moyenne 15 / longue 20 / extrême 25"
    assert shot.odds({"pool": 3, "range": band})["difficulty"] == base


def test_the_texts_crowd_example_adds_thirteen():
    # "Le tireur aura pour malus (+13) : la taille de la cible ... (+7), son déplacement (+1)
    #  et malus de la foule (+5)."
    base = shot.odds({"pool": 3, "range": "medium"})["difficulty"]
    answer = shot.odds(
        {"pool": 3, "range": "medium", "size": "arm", "movement": "axis", "crowd": "light"}
    )
    assert answer["difficulty"] - base == 13


def test_point_blank_and_aiming_add_to_the_roll():
    # "à une distante de moins de 3m ... le tireur dispose d'un bonus de +5": the roll gets it
    point_blank = shot.evaluate({"pool": 3, "range": "short", "distance_m": 2, "dice": [1, 1, 1]})
    assert (point_blank["difficulty"], point_blank["result"]) == (5, 3 + 5)
    assert point_blank["roll_bonuses"] == [{"name": "point_blank", "value": 5}]
    # "un jet de tir standard auquel il ajoute les bonus lié à l'acquisition": "+1 s'il est
    # debout, +2 s'il est en appui ou +3 s'il est couché", capped by the weapon
    aimed = {"pool": 3, "range": "long", "shot_type": "aimed", "stance": "prone", "aim_actions": 3}
    answer = shot.evaluate({**aimed, "dice": [2, 2, 2]})
    assert (answer["difficulty"], answer["result"]) == (20, 6 + 9)
    assert shot.evaluate({**aimed, "aim_cap": 4, "dice": [2, 2, 2]})["result"] == 6 + 4
    # "la difficulté pour toucher est augmentée du malus de 'tir au jugé' de son arme" and
    # "en cas d'échec la marge d'échec est ajoutée à la difficulté du tir"
    snap = {"pool": 3, "range": "medium", "shot_type": "snap", "snap_malus": 4}
    assert shot.odds(snap)["difficulty"] == 19
    assert shot.odds({**snap, "reflex": "front", "reflex_failure_margin": 3})["difficulty"] == 22


def test_unshouldered_weapon_ranges_and_snap():
    # "les portées de celle-ci deviennent au maximum 5/10/20/30 et le tir est considéré comme
    #  au jugé"
    answer = shot.odds(
        {"pool": 3, "range": "short", "distance_m": 12, "unshouldered": True, "snap_malus": 2}
    )
    assert answer["difficulty"] == 20 + 2
    with pytest.raises(RuleInputError):
        shot.odds({"pool": 3, "range": "short", "distance_m": 31, "unshouldered": True})


def test_reduced_visibility_malus():
    # "Visibilité faible ... 3 + Distance / (2 x Pe)"; infra-red adds 1d to Pe
    body = {"pool": 3, "range": "medium", "distance_m": 40, "visibility": "poor", "perception": 3}
    assert shot.odds(body)["difficulty"] == 15 + 3 + 6
    assert shot.odds({**body, "night_sight": "infrared"})["difficulty"] == 15 + 3 + 5


def test_the_texts_burst_example():
    # "La difficulté est de 12, le résultat du jet est 27. Il y a 2 balles qui touchent
    #  (27/12=2,xxx), la première avec une marge de 27-1x12=15, la seconde avec ... 3"
    body = {"pool": 3, "bonus": 12, "range": "medium", "burst": "three_round", "burst_bonus": 3}
    answer = shot.evaluate({**body, "dice": [5, 5, 5]})
    assert answer["difficulty"] == 12
    assert answer["bullet_margins"] == [15, 3]


def test_a_point_blank_burst_adds_its_bonus_to_the_result_divided_by_the_difficulty():
    # "il diminue la difficulté pour toucher du bonus de rafale" (15 - 3 = 12), "le tireur
    # dispose d'un bonus de +5" on the roll, "Résultat du tir / Difficulté": 22 + 5 = 27
    # against 12 is the text's example, two bullets with margins 15 and 3.
    body = {"pool": 3, "bonus": 7, "range": "medium", "distance_m": 2, "burst": "three_round"}
    answer = shot.evaluate({**body, "burst_bonus": 3, "dice": [5, 5, 5]})
    assert (answer["difficulty"], answer["result"]) == (12, 27)
    assert answer["bullet_margins"] == [15, 3]


@pytest.mark.parametrize(
    "extra",
    [
        {"distance_m": 2},
        {"shot_type": "aimed", "stance": "braced", "aim_actions": 2},
        {"distance_m": 1, "shot_type": "aimed", "stance": "prone", "aim_actions": 1},
    ],
)
def test_burst_hits_with_roll_bonuses_equal_brute_force(extra):
    # Each ordered roll of the three dice, judged from the text alone: result = dice + bonus
    # + the shot's roll bonuses; difficulty = medium 15 - burst bonus 5 = 10 (floor 5);
    # hits = result // difficulty, at most the burst's 5 bullets.
    body = {"pool": 3, "bonus": 2, "range": "medium", "burst": "free", "burst_bonus": 5, **extra}
    roll_bonus = (5 if extra.get("distance_m", 10) < 3 else 0) + {
        "braced": 2 * 2,
        "prone": 3 * 1,
    }.get(extra.get("stance"), 0)
    hits = {}
    for dice in brute(3):
        result = sum(dice) + 2 + roll_bonus
        if result >= 10:
            n = str(min(5, result // 10))
            hits[n] = hits.get(n, 0) + 1
    odds = shot.odds(body)
    assert odds["difficulty"] == 10
    assert frac(odds["outcomes_exact"]["hit"]) == Fraction(sum(hits.values()), 216)
    assert odds["burst_hits"] == {k: pytest.approx(v / 216) for k, v in sorted(hits.items())}


def test_a_burst_difficulty_never_falls_below_five():
    # "Si la difficulté est inférieure à 5 on considère qu'elle est de 5."
    answer = shot.odds({"pool": 3, "range": "short", "burst": "free", "burst_bonus": 4})
    assert answer["difficulty"] == 5


def test_a_near_miss_behind_cover_hits_the_obstacle():
    # "Si un tir effectué dans de telles conditions rate de 5 ou moins, ... la balle a tapé
    #  dans l'obstacle"; "Mur en bois +10"
    body = {"pool": 2, "range": "medium", "cover": "wooden_wall"}
    assert shot.evaluate({**body, "dice": [5, 5]})["hits_cover"] is True
    assert shot.evaluate({**body, "dice": [5, 5]})["cover_protection"] == 10
    assert shot.evaluate({**body, "dice": [6, 5]})["hits_cover"] is True
    assert shot.evaluate({**body, "dice": [4, 5]})["hits_cover"] is False


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"burst": "three_round", "burst_bonus": 5},
        {"cover": "sandbag"},
        {"engaged_participants": 2},
    ],
)
def test_shot_odds_equal_brute_force(extra):
    body = {"pool": 3, "bonus": 4, "range": "medium", **extra}
    odds = shot.odds(body)
    counts = {}
    hits = {}
    for dice in brute(3):
        answer = shot.evaluate({**body, "dice": list(dice)})
        if answer["success"]:
            key = "hit"
            if "burst" in extra:
                n = str(len(answer["bullet_margins"]))
                hits[n] = hits.get(n, 0) + 1
        elif answer["hits_cover"]:
            key = "hits_cover"
        elif answer["bystander_hit"]:
            key = "bystander_hit"
        else:
            key = "miss"
        counts[key] = counts.get(key, 0) + 1
    for key, count in counts.items():
        assert frac(odds["outcomes_exact"][key]) == Fraction(count, 216)
    for key, count in hits.items():
        assert odds["burst_hits"][key] == pytest.approx(count / 216)


# --- Damage ----------------------------------------------------------------------------------


def test_exploding_damage_is_truncated_below_one_in_a_billion_and_checked():
    # "on rejette et ajoute chaque dé dont le résultat est un 6"
    for n in (1, 4, 12):
        rows, denominator, dropped = pool.exploding_sum(n)
        assert 0 < dropped < Fraction(1, 10**9)
        assert Fraction(sum(w for _, w in rows), denominator) + dropped == 1
    # One die: 6 then 3 totals 9 with probability 1/36, exactly as the rule builds it.
    rows, denominator, _ = pool.exploding_sum(1)
    assert Fraction(dict(rows)[9], denominator) == Fraction(1, 36)
    answer = damage.odds({"damage_dice": 3, "soak_dice": 2})
    assert 0 < answer["truncated"] < 1e-9
    assert sum(answer["levels"].values()) == pytest.approx(1 - answer["truncated"], abs=1e-12)


def test_damage_odds_equal_brute_force_with_explosions_enumerated():
    # Two exploding dice against 1d6 + 3, each chain enumerated to 4 sixes: what is left out
    # is below (1/6)^5 per die, and the resolver's truncation is far smaller.
    body = {"damage_dice": 2, "soak_dice": 1, "soak_bonus": 3, "weapon": "blunt"}
    odds = damage.odds(body)

    def chains(depth=4):
        for sixes in range(depth + 1):
            for last in range(1, 6):
                yield [6] * sixes + [last], Fraction(1, 6 ** (sixes + 1))

    levels = {}
    for (a, pa), (b, pb) in itertools.product(chains(), chains()):
        for soak in FACES:
            answer = damage.evaluate({**body, "damage_rolled": a + b, "soak_rolled": [soak]})
            levels[answer["levels"]] = levels.get(answer["levels"], 0) + pa * pb / 6
    for level, chance in levels.items():
        if level <= 3:
            assert odds["levels"][str(level)] == pytest.approx(float(chance), abs=1e-6)


@pytest.mark.parametrize(
    ("margin", "per_level", "levels"),
    [(0, 5, 0), (1, 5, 1), (5, 5, 1), (6, 5, 2), (11, 5, 3), (3, 1, 3), (10, 10, 1)],
)
def test_levels_per_margin_follow_the_setting(margin, per_level, levels):
    # "il perd 1 niveau de dommages par niveau de marge du jet de dégâts"
    assert damage.levels_for(margin, per_level) == levels


@pytest.mark.parametrize(
    ("weapon", "levels", "fatigue", "wound"),
    [
        ("punch_or_kick", 3, 3, 0),  # "Coup de poing / coup de Pied 100% Fatigue"
        ("bullet", 3, 0, 3),  # "Balle 100% Blessure"
        ("blunt", 3, 2, 1),  # "Arme contondante ... 50% Fatigue, 50% Blessure"
        ("hard_blunt", 3, 1, 2),  # "Arme contondante dure ... 50% Blessure,50% Fatigue"
        ("blunt", 4, 2, 2),
    ],
)
def test_it_splits_levels_by_weapon_type(weapon, levels, fatigue, wound):
    settings = {"odd_level_goes_to": "first_named"}
    assert damage.split(levels, weapon, settings, load_catalogue()) == {
        "fatigue": fatigue,
        "wound": wound,
    }


def test_margin_adds_a_damage_die_per_ten_points():
    # "Ce jet est augmenté d'1d pour chaque tranche de 10 points de marge du score d'attaque."
    assert damage.odds({"damage_dice": 2, "attack_margin": 25})["damage_dice"] == 4


def test_it_refuses_exploding_dice_that_do_not_follow_their_sixes():
    with pytest.raises(RuleInputError) as refused:
        damage.evaluate({"damage_dice": 1, "damage_rolled": [6], "soak_rolled": []})
    assert refused.value.params["kind"] == "exploding"


# --- Covering fire -------------------------------------------------------------------------


def test_fire_power_ammunition_and_forced_dodge():
    # "Puissance de feu = niveau en arme à feu + bonus de rafale - 1 par mètre visé";
    # "+3 pour chaque arme utilisée en rafale libre"; "5 balles par seconde en rafale libre"
    answer = covering_fire.odds(
        {"firearm_level": 4, "weapons": ["free"], "metres": 2, "seconds": 3, "target_feint": 4}
    )
    assert answer["fire_power"] == 5
    assert answer["ammunition"] == 15
    assert answer["forced_dodge"] is True
    # "sous le feu ... voit sa puissance de feu divisée par 2"
    halved = covering_fire.odds({"firearm_level": 4, "weapons": ["free"], "under_fire": True})
    assert halved["fire_power"] == 3
    # Two weapons: bonuses summed, the level counted once.
    two = covering_fire.odds({"firearm_level": 4, "weapons": ["single", "shotgun"]})
    assert two["fire_power"] == 7


def test_bullets_that_hit_a_mover_equal_brute_force():
    # "si le résultat est 1 on considère qu'une seconde balle l'a touché et on rejette le dé
    #  ... jusqu'à ce qu'on atteigne le nombre de balles effectivement tirées"
    body = {"firearm_level": 2, "weapons": ["three_round"]}
    odds = covering_fire.odds(body)
    counts = {}
    for a, b in itertools.product(FACES, FACES):
        chain = [a] if a != 1 else [a, b]
        answer = covering_fire.evaluate({**body, "dice": chain})
        counts[answer["bullets_hit"]] = counts.get(answer["bullets_hit"], 0) + 1
    for hits, count in counts.items():
        assert frac(odds["outcomes_exact"][str(hits)]) == Fraction(count, 36)


# --- Melee, criticals, cybernetics -----------------------------------------------------------


def test_melee_odds_equal_brute_force():
    body = {
        "pool": 2,
        "bonus": 3,
        "combat_skill": 4,
        "dodge_skill": 2,
        "dodge_pool": 2,
        "defender_back": True,
    }
    odds = melee.odds(body)
    hits = sum(
        melee.evaluate({**body, "dice": list(a), "dodge_dice": list(d)})["hit"]
        for a, d in itertools.product(brute(2), brute(2))
    )
    assert frac(odds["outcomes_exact"]["hit"]) == Fraction(hits, 6**4)


def test_the_dodge_replaces_the_defence_only_when_higher():
    # "Si celui-ci est supérieur au score de défense du personnage ... il s'y substitue."
    body = {"pool": 1, "bonus": 10, "combat_skill": 8, "dodge_pool": 1, "dodge_bonus": 6}
    assert melee.evaluate({**body, "dice": [1], "dodge_dice": [1]})["against"] == 8
    assert melee.evaluate({**body, "dice": [1], "dodge_dice": [1]})["hit"] is True
    assert melee.evaluate({**body, "dice": [1], "dodge_dice": [6]})["against"] == 12
    assert melee.evaluate({**body, "dice": [1], "dodge_dice": [6]})["hit"] is False


def test_special_blows_and_charges():
    # "Le jet pour toucher est diminué d'1d mais si le coup passe les dommages sont augmentés
    #  du niveau de la compétence utilisée"; "augmentés de 3 pour une charge à pied"
    answer = melee.odds(
        {"pool": 4, "special": "forceful", "skill_level": 3, "charge": "foot", "defence": "fleeing"}
    )
    assert answer["dice_count"] == 3
    assert answer["damage_bonus"] == 6
    # "Défenseur immobile ... 10" (setting immobile_defence) and running "+3"
    still = melee.odds({"pool": 1, "defence": "immobile", "running": True})
    assert still["defence"] == 13


@pytest.mark.parametrize(
    ("dice", "levels", "key"),
    [
        ((1, 1), 3, "nothing"),  # "≤5 Rien"
        ((2, 1), 3, "off_balance"),  # "6 Le personnage est déséquilibré par le coup"
        # 12 + 3 = 15: "Blessure à la main, seul un jet de soins difficulté 25 évitera
        # l'amputation"
        ((6, 6), 3, "hand_amputation"),
        ((6, 6), 7, "death"),  # "19+ ... Le personnage meurt sur le coup"
    ],
)
def test_critical_wounds_read_the_table(dice, levels, key):
    assert critical.evaluate({"damage_levels": levels, "dice": list(dice)})["key"] == key


def test_the_critical_roll_adds_wound_levels_by_default():
    # Setting critical_adds: a blunt blow of 4 levels deals 2 wound levels.
    body = {"damage_levels": 4, "wound_levels": 2, "dice": [3, 3]}
    assert critical.evaluate(body)["total"] == 8
    damage_levels = {**body, "settings": {"critical_adds": "damage_levels_of_the_blow"}}
    assert critical.evaluate(damage_levels)["total"] == 10


def test_no_critical_roll_below_three_levels():
    # "Lorsqu'un personnage reçoit 3 niveaux de dommages ou plus d'un seul coup"
    assert critical.evaluate({"damage_levels": 2})["applies"] is False


def test_critical_odds_equal_brute_force():
    odds = critical.odds({"damage_levels": 4, "wound_levels": 4})
    counts = {}
    for dice in brute(2):
        key = critical.evaluate({"damage_levels": 4, "dice": list(dice)})["key"]
        counts[key] = counts.get(key, 0) + 1
    for key, count in counts.items():
        assert frac(odds["outcomes_exact"][key]) == Fraction(count, 36)


@pytest.mark.parametrize(
    ("location_die", "die", "levels", "location", "effect", "repair"),
    [
        (40, 6, 4, "nothing", None, None),  # "01-40 rien"
        (57, 1, 2, "arm", "cosmetic", 10),  # "54-59 Bras"; "2-3 Dégâts esthétiques"
        (77, 3, 2, "connection", "light_malfunction", 14),  # "10 + 2 x Niv Blessures"
        (100, 6, 4, "other", "destroyed", 20),  # "10+ Équipement détruit ... diff. 20"
    ],
)
def test_cybernetic_damage_reads_both_tables(location_die, die, levels, location, effect, repair):
    answer = cyber.evaluate({"wound_levels": levels, "location_die": location_die, "dice": [die]})
    assert answer["location"] == location
    assert answer.get("effect") == effect
    assert answer.get("repair_difficulty") == repair


def test_cyber_locations_cover_the_hundred_faces():
    odds = cyber.odds({"wound_levels": 1})
    assert sum(odds["locations"].values()) == pytest.approx(1)
    assert odds["locations"]["general_modification"] == pytest.approx(0.10)  # "78-87"


def test_rolls_replay_with_the_same_seed():
    body = {"damage_dice": 3, "soak_dice": 2}
    assert damage.roll(body, random.Random(7)) == damage.roll(body, random.Random(7))


@pytest.mark.parametrize(
    ("reflex", "place", "vigilance", "difficulty"),
    [
        ("front", "usual", 0, 15),  # "La cible apparaît devant le tireur 15"
        ("side_or_behind", "usual", 0, 20),  # "sur le coté ou derrière le tireur 20"
        ("front", "improbable_place", 0, 20),  # "à un endroit improbable ... +5"
        ("front", "aimed_place", 3, 10),  # "à l'endroit visé ... -5" (not with vigilance)
        ("side_or_behind", "usual", 4, 16),  # "sur ses gardes -niveau de vigilance"
    ],
)
def test_the_reflex_shot_reaction_difficulty(reflex, place, vigilance, difficulty):
    answer = shot.odds(
        {
            "pool": 3,
            "range": "short",
            "shot_type": "snap",
            "reflex": reflex,
            "reflex_place": place,
            "on_guard_vigilance": vigilance,
        }
    )
    assert answer["reflex_roll_difficulty"] == difficulty


def test_draw_and_shoot_is_a_snap_shot_with_its_malus_and_a_die_less():
    # "Dégainer/Utiliser ... une double action déclarée qui entraîne perte d'1d
    #  supplémentaire. Le tir est toujours un tir au jugé avec un malus supplémentaire";
    # "Arme à la Ceinture ou à la hanche -3"
    answer = shot.odds({"pool": 4, "range": "short", "draw": "belt", "snap_malus": 2})
    assert answer["difficulty"] == 5 + 3 + 2
    assert answer["dice_count"] == 3

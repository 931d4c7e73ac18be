"""Of the Dead opposed rolls (RULES-NOTES O2-O4): brawls, shots, throws and checks, their
exact odds against every roll walked one by one, and a seeded roll replayed by evaluate."""

import json
import random
from fractions import Fraction

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.of_the_dead import checks, combat, explosives
from rules.engine.systems.of_the_dead import opposed as o
from rules.engine.systems.of_the_dead.catalogue import (
    CATALOGUES_DIR,
    CatalogueError,
    load_catalogue,
    read_catalogue,
)
from tests.rules.kolaps_brute import every_roll

CATALOGUE = load_catalogue()


def brawl(attacker, defender, **dice):
    return combat.brawl_evaluate({"attacker": attacker, "defender": defender, **dice})


# --- O2: the faces are data -----------------------------------------------------------------


def test_it_reads_the_faces_of_o2_from_the_catalogue():
    """O2: "a d6 where 1 is a fiasco, 4 and 5 are successes, 6 is a critical success (also a
    success)"."""
    assert [CATALOGUE.kind(face) for face in range(1, 7)] == [
        "fiasco", "blank", "blank", "success", "success", "critical",
    ]  # fmt: skip


def test_a_campaign_may_read_the_faces_otherwise():
    """O2: "kept as data that a campaign may change": with 3 a success too, a lone 3 hits."""
    data = json.loads((CATALOGUES_DIR / f"{CATALOGUE.version}.json").read_text())
    data["faces"]["3"] = "success"
    generous = read_catalogue(data)
    body = {"attacker": {"combat": 1}, "defender": {"combat": 0}, "attacker_dice": [3]}
    assert combat.brawl_evaluate(body)["damage"] == 0
    assert combat.brawl_evaluate(body, generous)["damage"] == 1
    assert combat.brawl_odds(body, generous)["hit"] == pytest.approx(4 / 6)
    data["faces"]["3"] = "maybe"
    with pytest.raises(CatalogueError, match=r"faces\.3"):
        read_catalogue(data)


# --- O3: cancelling, criticals first --------------------------------------------------------


def test_each_defender_success_cancels_an_attacker_success_criticals_first():
    """O3: "Each defender success cancels one attacker success, critical ones first.
    Remaining attacker successes are the damage (life markers); remaining criticals draw a
    critical-damage card of that total"."""
    answer = brawl({"combat": 3}, {"combat": 1}, attacker_dice=[6, 6, 4], defender_dice=[5])
    assert answer["damage"] == 2
    assert answer["critical_card"] == 2  # one critical is left: a card of total 2
    answer = brawl({"combat": 3}, {"combat": 2}, attacker_dice=[6, 4, 4], defender_dice=[5, 2])
    assert (answer["damage"], answer["critical_card"]) == (2, None)  # the critical went first
    assert answer["effects"] == [{"who": "defender", "life": -2}]


def test_a_caution_marker_turns_the_worst_die_into_a_success_and_is_spent():
    """O3: "A caution marker may be discarded to turn one die into a success"."""
    answer = brawl({"combat": 2, "caution": True}, {"combat": 0}, attacker_dice=[1, 4])
    assert answer["attacker"]["kinds"] == ["success", "success"]
    assert answer["damage"] == 2
    assert {"who": "attacker", "markers": {"caution": -1}} in answer["effects"]


def test_a_zeal_marker_rerolls_the_worst_die_on_both_sides_of_a_brawl_only_the_target_shot():
    """O3: "a zeal marker rerolls one die (both sides in a brawl, only the target when
    shot)"."""
    asked = brawl({"combat": 2, "zeal": True}, {"combat": 1}, attacker_dice=[2, 5])
    assert asked["pending"] == {"field": "attacker_reroll", "dice": "D6"}
    answer = brawl(
        {"combat": 2, "zeal": True},
        {"combat": 1, "zeal": True},
        attacker_dice=[2, 5],
        attacker_reroll=[6],
        defender_dice=[1],
        defender_reroll=[3],
    )
    assert answer["attacker"]["dice"] == [6, 5]
    assert answer["damage"] == 2
    shot = combat.shot_evaluate(
        {
            "attacker": {"combat": 1, "zeal": True},
            "defender": {"reflexes": 0},
            "range": "effective",
            "attacker_dice": [1],
            "defender_dice": [3],
        }
    )
    assert "pending" not in shot and shot["damage"] == 0


def test_range_and_cover_add_dice_and_the_hidden_cannot_be_shot():
    """O3: "Useful range: +1 attack die; effective range: +1 defence die; partial cover +1
    defence die, cover (more than half hidden) +2, hidden: cannot be attacked"."""

    def shot(band, cover):
        return combat.shot_odds(
            {"attacker": {"combat": 2}, "defender": {"reflexes": 1, "cover": cover}, "range": band}
        )

    assert (shot("useful", "none")["attack_dice"], shot("useful", "none")["defence_dice"]) == (3, 1)
    assert shot("effective", "partial")["defence_dice"] == 3
    assert shot("effective", "cover")["defence_dice"] == 4
    hidden = shot("useful", "hidden")
    assert hidden["possible"] is False and hidden["blocked"] == ["defender_hidden"]


def test_the_surrounded_lose_dice_and_cannot_shoot_or_throw():
    """Rule text, Bagarre: "Le personnage cerné perd un dé à chaque duel et un dé de défense
    par assaillant si il se fait tirer dessus"; Tir: "cerné par au moins 4 adversaires, il ne
    pourra plus tirer"; Explosifs: "cerné par au moins 3 adversaires, il ne pourra plus
    lancer"."""
    duel = combat.brawl_odds(
        {"attacker": {"combat": 3}, "defender": {"combat": 3, "surrounded_by": 3}}
    )
    assert duel["defence_dice"] == 2
    shot = combat.shot_odds(
        {"attacker": {"combat": 3}, "defender": {"reflexes": 4, "surrounded_by": 3}}
    )
    assert shot["defence_dice"] == 1
    assert combat.shot_odds(
        {"attacker": {"combat": 3, "surrounded_by": 4}, "defender": {"reflexes": 1}}
    )["blocked"] == ["shooter_surrounded"]
    thrown = explosives.throw_odds(
        {
            "thrower": {"combat": 3, "physique": 4, "surrounded_by": 3},
            "size": "slight",
            "distance_cm": 6,
        }
    )
    assert thrown["blocked"] == ["thrower_surrounded"]
    assert combat.brawl_odds(
        {"attacker": {"combat": 1}, "defender": {"combat": 1, "surrounded_by": 4}}
    )["on_the_ground"]


def test_stealth_gives_an_attack_die_and_a_stealthy_target_cannot_be_attacked():
    """Furtivité: "il disposera automatiquement d'un dé d'attaque supplémentaire et retirera
    le jeton Furtivité"; "il sera invisible momentanément, et ne se fera pas attaquer"."""
    answer = brawl({"combat": 1, "stealth": True}, {"combat": 0}, attacker_dice=[4, 4])
    assert answer["attack_dice"] == 2 and answer["damage"] == 2
    assert {"who": "attacker", "markers": {"stealth": -1}} in answer["effects"]
    assert brawl({"combat": 1}, {"combat": 1, "stealth": True})["possible"] is False


def test_the_panicked_the_stunned_and_the_burning_cannot_attack():
    """Panique: "ne pourra pas agir dans la phase d'action"; Feu: "il ne pourra plus
    attaquer"."""
    for state, reason in (("panic", "attacker_panicked"), ("stunned", "attacker_stunned"),
                          ("burning", "attacker_burning")):  # fmt: skip
        value = 1 if state == "panic" else True
        answer = combat.brawl_odds(
            {"attacker": {"combat": 2, state: value}, "defender": {"combat": 1}}
        )
        assert answer["blocked"] == [reason]


# --- O4 -------------------------------------------------------------------------------------


def test_a_lucky_break_and_a_backfire_move_the_whole_teams_moral():
    """O4: "Lucky break: 3 or more criticals in one roll, the roller and their team gain 1
    Moral. Backfire: more than 3 fiascos (4 or more), the roller and their team lose 1
    Moral"."""
    answer = brawl(
        {"combat": 3}, {"combat": 4}, attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1, 1]
    )
    assert {"who": "attacker", "team_moral": 1} in answer["effects"]
    assert {"who": "defender", "team_moral": -1} in answer["effects"]
    three = brawl({"combat": 3}, {"combat": 3}, attacker_dice=[4, 4, 4], defender_dice=[1, 1, 1])
    assert not any("team_moral" in e for e in three["effects"])


def test_a_backfire_into_a_melee_hits_the_ally_who_defends_with_reflexes():
    """Tir: "sur un revers de médaille, c'est l'allié qui subira les dommages (les fiascos
    deviennent alors des réussites, l'allié se défend avec un jet de RÉFLEXES"."""
    answer = combat.shot_evaluate(
        {
            "attacker": {"combat": 4},
            "defender": {"reflexes": 0},
            "range": "effective",
            "into_melee": True,
            "ally": {"reflexes": 1, "life": 3},
            "attacker_dice": [1, 1, 1, 1],
            "defender_dice": [2],
            "ally_dice": [4],
        }
    )
    assert answer["damage"] == 0
    assert answer["ally"]["damage"] == 3 and answer["ally"]["killed"]
    assert {"who": "ally", "life": -3} in answer["effects"]


# --- Exact odds against brute force --------------------------------------------------------

ZEALOUS = {"zeal": True, "caution": True}
BODIES = [
    ("brawl", {"attacker": {"combat": 2}, "defender": {"combat": 2, "life": 2}}),
    ("brawl", {"attacker": {"combat": 2, **ZEALOUS}, "defender": {"combat": 1, "zeal": True}}),
    ("brawl", {"attacker": {"combat": 3}, "defender": {"combat": 1, "caution": True}}),
    (
        "shot",
        {
            "attacker": {"combat": 1},
            "defender": {"reflexes": 0, "cover": "partial", "zeal": True, "life": 2},
            "range": "useful",
        },
    ),
    (
        "shot",
        {
            "attacker": {"combat": 4},
            "defender": {"reflexes": 0},
            "range": "effective",
            "into_melee": True,
            "ally": {"reflexes": 1},
        },
    ),
]


def _brute(kind, body):
    attack = combat.setup(kind, body, CATALOGUE)
    damage: dict[int, Fraction] = {}
    card = dies = ally_hit = Fraction(0)
    lucky = {"attacker": Fraction(0), "defender": Fraction(0)}
    for p, answer in every_roll(lambda source: combat._walked(attack, source, CATALOGUE)):
        damage[answer["damage"]] = damage.get(answer["damage"], Fraction(0)) + p
        card += p if answer["critical_card"] else 0
        dies += p if answer["target_killed"] else 0
        ally_hit += p if answer.get("ally", {}).get("damage") else 0
        for side in lucky:
            lucky[side] += p if answer[side]["lucky_break"] else 0
    return damage, card, dies, lucky, ally_hit


@pytest.mark.parametrize(("kind", "body"), BODIES)
def test_its_odds_equal_every_roll_walked_one_by_one(kind, body):
    """O3-O4 for small pools: the exact odds equal the sum over every face of every die."""
    odds = (combat.brawl_odds if kind == "brawl" else combat.shot_odds)(body)
    damage, card, dies, lucky, ally_hit = _brute(kind, body)
    assert odds["damage_exact"] == {str(k): o.exact(v) for k, v in sorted(damage.items())}
    assert odds["critical_card"] == pytest.approx(float(card), abs=1e-15)
    if "target_dies" in odds:
        assert odds["target_dies_exact"] == o.exact(dies)
    assert odds["attacker"]["lucky_break"] == pytest.approx(float(lucky["attacker"]), abs=1e-15)
    assert odds["defender"]["lucky_break"] == pytest.approx(float(lucky["defender"]), abs=1e-15)
    if "ally_hit" in odds:
        assert odds["ally_hit"] == pytest.approx(float(ally_hit), abs=1e-15)


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "stumble", "attribute": 2, "obstacle": "moderate"},
        {"kind": "encouragement", "attribute": 2, "difficulty": 2, "caution": True},
    ],
)
def test_a_checks_odds_equal_every_roll_walked_one_by_one(body):
    """Trébuchement: "RÉFLEXES + MODIFICATEURS* contre la structure de l'obstacle [...] Un
    succès est suffisant"; Encouragement: "Chaque succès supprime un marqueur"."""
    check = checks.setup(body, CATALOGUE)
    passed = Fraction(0)
    for p, answer in every_roll(lambda source: checks.walk(check, source, CATALOGUE)):
        passed += p if answer["passed"] else 0
    assert checks.odds(body)["passed_exact"] == o.exact(passed)


def test_a_throws_odds_equal_every_roll_walked_one_by_one():
    """Explosifs: "Une réussite suffit [...] Si le jet échoue [...] 180° [...] Si c'est un
    échec critique [...] 360°"."""
    body = {"thrower": {"combat": 2, "physique": 3}, "size": "moderate", "distance_cm": 5}
    throw = explosives.throw_setup(body, CATALOGUE)
    assert throw.steps == 2 and throw.zone.dice == 2
    hit = wide = Fraction(0)
    for p, answer in every_roll(
        lambda source: explosives._throw_walk(throw, source, CATALOGUE, body, None)
    ):
        hit += p if answer["on_target"] else 0
        wide += p if answer["critical_failure"] else 0
    odds = explosives.throw_odds(body)
    assert odds["on_target_exact"] == o.exact(hit)
    assert odds["scatter"]["360"] == pytest.approx(float(wide), abs=1e-15)


# --- Seeded rolls ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_a_seeded_roll_is_what_evaluate_makes_of_its_dice(seed):
    body = {
        "attacker": {"combat": 3, "zeal": True, "caution": True},
        "defender": {"combat": 2, "zeal": True, "life": 3},
    }
    rolled = combat.brawl_roll(body, random.Random(seed))
    assert rolled == combat.brawl_roll(body, random.Random(seed))
    assert combat.brawl_evaluate({**body, **rolled["rolled"]}) == rolled


def test_it_names_the_field_of_a_bad_input():
    with pytest.raises(RuleInputError) as error:
        combat.brawl_odds({"attacker": {"combat": "three"}, "defender": {"combat": 1}})
    assert error.value.field == "attacker.combat"
    with pytest.raises(RuleInputError) as error:
        combat.brawl_odds({"attacker": {"combat": 12, "modifiers": 12}, "defender": {"combat": 1}})
    assert error.value.field == "attacker.modifiers"

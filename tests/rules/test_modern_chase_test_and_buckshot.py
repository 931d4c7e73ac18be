"""The modern RPG rules left open by the first pass (seed 001): a chase side's test (the
endurance test from round 2, the risk choices' disadvantages, a vehicle's bonuses) and
buckshot. Exact odds are checked against every combination of faces read by `evaluate`."""

import itertools
import random
from fractions import Fraction

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.modern import chase, chase_test, combat


def _pool(answer):
    return [d["sides"] for d in answer["pool"]]


def _brute_force(body):
    """Every face of the endurance test's dice (when it is rolled) and of the pool, read by
    evaluate: the distribution of (winded, successes)."""
    odds = chase_test.odds(body)
    pool = _pool(odds)
    endurance = [d["sides"] for d in odds["endurance_pool"]]
    counts: dict[tuple[bool, int], Fraction] = {}
    endurance_faces = list(itertools.product(*(range(1, s + 1) for s in endurance)))
    for first in endurance_faces:
        for faces in itertools.product(*(range(1, s + 1) for s in pool)):
            weight = Fraction(1, len(endurance_faces))
            for s in pool:
                weight /= s
            answer = chase_test.evaluate(
                {**body, "endurance_dice": list(first), "dice": list(faces)}
            )
            key = (answer["winded"], answer["successes"])
            counts[key] = counts.get(key, Fraction(0)) + weight
    return counts


def _odds_by_key(odds):
    winded = Fraction(odds["outcomes_exact"]["winded"])
    progress = Fraction(odds["outcomes_exact"]["progress"])
    return winded, progress


def test_from_round_2_a_pedestrian_starts_with_an_endurance_test_and_a_failure_stops_him():
    # "Des le 2eme round le piétion débute par un test d'Endurance. Un échec signifie que le
    # piéton est essouflé et ralentit, il ne peut tirer son test de Course et donc obtenir de
    # succès."
    first_round = chase_test.odds({"characteristic": 6, "endurance": 6, "round": 1})
    assert first_round["endurance_test"] is False
    assert first_round["outcomes_exact"]["winded"] == "0/1"
    second = {"characteristic": 6, "endurance": 6, "round": 2}
    assert chase_test.odds(second)["endurance_test"] is True
    winded = chase_test.evaluate({**second, "endurance_dice": [3], "dice": [6]})
    assert winded["winded"] is True and winded["successes"] == 0
    fresh = chase_test.evaluate({**second, "endurance_dice": [6], "dice": [6]})
    assert fresh["winded"] is False and fresh["successes"] == 1


@pytest.mark.parametrize(
    "body",
    [
        {"characteristic": 6, "endurance": 6, "round": 2},
        {"characteristic": 4, "skill": 6, "endurance": 8, "round": 3, "stress": 1},
        {"characteristic": 6, "endurance": 6, "round": 2, "risk": "flat_out", "risk_dice": 1},
        {"characteristic": 8, "endurance": 4, "round": 2, "risk": "careful"},
    ],
)
def test_chase_test_odds_equal_brute_force(body):
    odds = chase_test.odds(body)
    counts = _brute_force(body)
    winded = sum((p for (w, _), p in counts.items() if w), Fraction(0))
    progress = sum((p for (w, s), p in counts.items() if not w and s >= 1), Fraction(0))
    assert _odds_by_key(odds) == (winded, progress)
    for successes, p in odds["successes"].items():
        exact = sum((q for (_, s), q in counts.items() if s == int(successes)), Fraction(0))
        assert p == pytest.approx(float(exact), abs=1e-12)


def test_careful_spares_the_endurance_test_but_puts_the_run_at_a_disadvantage():
    # "Le piéton ne tire pas son test d'endurance mais est en désavantage sur son test de
    # course."
    careful = chase_test.odds({"characteristic": 8, "round": 2, "risk": "careful"})
    normal = chase_test.odds({"characteristic": 8, "round": 2, "risk": "normal", "endurance": 12})
    assert careful["endurance_test"] is False and careful["run_disadvantage"] == 1
    assert careful["pool"][0]["threshold"] == 7
    assert normal["pool"][0]["threshold"] == 6


def test_flat_out_puts_the_endurance_test_at_a_disadvantage_and_risk_dice_are_stress_dice():
    # "A fond ou plein gaz : le pieton est en désavantage sur son test d'endurance. Le
    # conducteur ou le piéton choisit un nombre de dés représentant la prise de risques. Ces
    # dés sont joués comme des dés de Stress"
    body = {"characteristic": 6, "endurance": 10, "round": 2, "risk_dice": 2}
    flat_out = chase_test.odds({**body, "risk": "flat_out"})
    assert flat_out["endurance_disadvantage"] == 1
    assert [d["kind"] for d in flat_out["pool"]] == ["characteristic", "stress", "stress"]
    # A risk die's 1 is a stress point, as a stress die's.
    rolled = chase_test.evaluate(
        {**body, "risk": "flat_out", "endurance_dice": [10], "dice": [6, 1, 1]}
    )
    assert rolled["stress_gained"] == 2
    with pytest.raises(RuleInputError):
        chase_test.odds({**body, "risk": "normal"})


def test_a_vehicle_uses_sportivite_on_fast_stretches_and_maniabilite_in_dense_places():
    # "La sportivité ... Ce bonus/malus peut etre utilisé par le MD dans les portions rapides";
    # "La maniabilité ... Ce bonus/malus peut etre utilisé par le MD en ville ou des lieux
    # denses."
    car = {"mover": "vehicle", "characteristic": 8, "sport": 2, "handling": -1}
    assert chase_test.odds({**car, "stretch": "fast"})["vehicle_bonus"] == 2
    assert chase_test.odds({**car, "stretch": "dense"})["vehicle_bonus"] == -1
    assert chase_test.odds({**car, "stretch": "open"})["vehicle_bonus"] == 0
    # The default reading (`vehicle_bonus`): a point is an advantage, a malus a disadvantage.
    assert chase_test.odds({**car, "stretch": "fast"})["pool"][0]["threshold"] == 4
    assert chase_test.odds({**car, "stretch": "dense"})["pool"][0]["threshold"] == 7
    dice = chase_test.odds({**car, "stretch": "fast", "settings": {"vehicle_bonus": "dice"}})
    assert [d["kind"] for d in dice["pool"]] == ["characteristic", "vehicle", "vehicle"]


def test_events_double_the_bonuses_and_the_alley_gives_two_wheels_a_d12():
    # "Voie rapide ... Le bonus sportivité est doublé."; "Ruelle ... le bonus maniabilité est
    # doublé. un 2 roues par rapport à un 4 roues, rajoute 1D12."; "Travaux ... Les 2 roues
    # multiplient par 2 leur bonus maniabilité."
    car = {"mover": "vehicle", "characteristic": 8, "sport": 1, "handling": 1}
    assert chase_test.odds({**car, "stretch": "expressway"})["vehicle_bonus"] == 2
    assert chase_test.odds({**car, "stretch": "alley"})["vehicle_bonus"] == 2
    assert chase_test.odds({**car, "stretch": "roadworks"})["vehicle_bonus"] == 1
    bike = {**car, "on_two_wheels": True}
    assert chase_test.odds({**bike, "stretch": "roadworks"})["vehicle_bonus"] == 2
    alley = chase_test.odds({**bike, "stretch": "alley"})
    assert {"kind": "vehicle", "sides": 12, "threshold": 6} in alley["pool"]
    against_bike = chase_test.odds({**bike, "stretch": "alley", "opponent_two_wheels": True})
    assert all(d["kind"] != "vehicle" for d in against_bike["pool"])


def test_a_careful_driver_loses_his_bonuses_but_keeps_his_maluses():
    # "Prudent: le conducteur/pilote abaisse sa vitesse (son test de conduite) ne peut
    # utiliser ses bonus de maniabilité ou sportivité"
    car = {"mover": "vehicle", "characteristic": 8, "risk": "careful", "stretch": "fast"}
    assert chase_test.odds({**car, "sport": 2})["vehicle_bonus"] == 0
    assert chase_test.odds({**car, "sport": -2})["vehicle_bonus"] == -2


def test_vehicle_odds_equal_brute_force():
    body = {
        "mover": "vehicle",
        "characteristic": 4,
        "stretch": "alley",
        "handling": 1,
        "on_two_wheels": True,
    }
    odds = chase_test.odds(body)
    counts = _brute_force(body)
    progress = sum((p for (_, s), p in counts.items() if s >= 1), Fraction(0))
    assert Fraction(odds["outcomes_exact"]["progress"]) == progress


def test_a_chase_test_rolled_on_the_server_is_read_as_evaluate_reads_it():
    body = {"characteristic": 6, "endurance": 6, "round": 2}
    rolled = chase_test.roll(body, random.Random(7))
    faces = rolled["dice"]
    again = chase_test.evaluate({**body, "endurance_dice": faces[:1], "dice": faces[1:] or [1]})
    assert again["winded"] == rolled["winded"]
    if not rolled["winded"]:
        assert again["successes"] == rolled["successes"]


def test_the_chase_round_names_what_the_risk_changes():
    assert chase.odds({"round": 1})["risk_effects"] == []
    assert chase.odds({"round": 2})["risk_effects"] == ["endurance_test_first"]
    assert chase.odds({"round": 2, "risk": "careful"})["risk_effects"] == [
        "no_endurance_test",
        "run_disadvantage",
    ]
    assert chase.odds({"round": 3, "risk": "flat_out", "terrain": "road"})["risk_effects"] == [
        "risk_dice_as_stress"
    ]
    assert chase.odds({"risk": "careful", "terrain": "road"})["risk_effects"] == [
        "no_vehicle_bonuses"
    ]


# Buckshot ----------------------------------------------------------------------------------


def test_buckshot_at_short_range_adds_a_die_to_hit_and_to_damage_and_doubles_the_vest():
    # "munition de type chevrotine : portée courte toucher et dégats +1D. portée moyenne :
    # toucher +1D dégats -1D (dispersion) -1D. Protection doublée quelque soit la portée."
    shot = {"characteristic": 6, "ammunition": "buckshot", "vest": "class_iia"}
    short = combat.odds({**shot, "range": "short"})
    assert [d["kind"] for d in short["pool"]] == ["characteristic", "buckshot"]
    assert short["vest_dice"] == 4 and short["damage_die"] == 6
    medium = combat.odds({**shot, "range": "medium", "weapon_range": "medium"})
    assert [d["kind"] for d in medium["pool"]] == ["characteristic", "buckshot"]
    assert medium["damage_die"] == -6
    far = combat.odds({**shot, "range": "long", "weapon_range": "long"})
    assert [d["kind"] for d in far["pool"]] == ["characteristic"]
    assert far["vest_dice"] == 4 and far["damage_die"] == 0
    # Its die size is the campaign setting `buckshot_die` (the text gives none).
    d10 = combat.odds({**shot, "range": "short", "settings": {"buckshot_die": 10}})
    assert d10["pool"][1]["sides"] == 10 and d10["damage_die"] == 10


@pytest.mark.parametrize("band", ["short", "medium"])
def test_buckshot_damage_odds_equal_brute_force(band):
    body = {
        "characteristic": 4,
        "ammunition": "buckshot",
        "range": band,
        "weapon_range": band,
        "vest": "reinforced_clothes",
        "weapon_damage": 1,
        "hp_max": 6,
        "settings": {"buckshot_die": 4},
    }
    odds = combat.odds(body)
    counts: dict[int, Fraction] = {}
    for attack in itertools.product(range(1, 5), range(1, 5)):
        for vest in itertools.product(range(1, 7), range(1, 7)):
            for die in range(1, 5):
                answer = combat.evaluate(
                    {**body, "dice": list(attack), "vest_dice": list(vest), "damage_die": [die]}
                )
                counts[answer["damage"]] = counts.get(answer["damage"], Fraction(0)) + Fraction(
                    1, 16 * 36 * 4
                )
    assert odds["damage"] == {str(k): pytest.approx(float(v), abs=1e-12) for k, v in counts.items()}
    assert Fraction(odds["outcomes_exact"]["wounded"]) == 1 - counts.get(0, Fraction(0))

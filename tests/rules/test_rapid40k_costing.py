"""Rapid 40000 points (RULES-NOTES R1), the catalogue's validation and the army structure.

R1: "Cost = ceil(((5 x C) + special-rule costs + weapon cost) x (7 - Q) / 2), Q being the
number of "3+". The annex's printed costs are the truth."
"""

import json

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.rapid40k.catalogue import (
    CATALOGUES_DIR,
    CatalogueError,
    Profile,
    current_version,
    load_catalogue,
)
from rules.engine.systems.rapid40k.costing import (
    ArmyList,
    Squad,
    balance,
    list_price,
    profile_breakdown,
    profile_cost,
    vehicle_breakdown,
)

CATALOGUE = load_catalogue()

# The annex as printed (Annexe, pages 12-13): army, row, printed cost.
ANNEX = [
    ("space_marines", "capitaine", 123),
    ("space_marines", "sergent", 88),
    ("space_marines", "soldat", 68),
    ("space_marines", "soldat_lance_missile", 112),
    ("space_marines", "soldat_lance_flammes", 112),
    ("orks", "big_boss", 104),
    ("orks", "nob", 71),
    ("orks", "boy", 56),
    ("orks", "boy_lance_missile", 89),
    ("orks", "boy_lance_flammes", 89),
    ("tau", "shas_o", 130),
    ("tau", "shas_ui", 94),
    ("tau", "shas_la", 74),
    ("tau", "shas_la_lance_missile", 118),
    ("tau", "shas_la_lance_flammes", 118),
]


@pytest.mark.parametrize(("army", "row", "printed"), ANNEX)
def test_it_reproduces_every_cost_printed_in_the_annex(army, row, printed):
    entry = CATALOGUE.armies[army].profiles[row]
    assert entry.printed_cost == printed
    assert profile_cost(entry.profile, CATALOGUE) == printed


def test_the_annex_has_fifteen_profile_rows():
    assert sum(len(a.profiles) for a in CATALOGUE.armies.values()) == len(ANNEX) == 15


@pytest.mark.parametrize(("vehicle", "printed"), [("rhino", 186), ("char_assaut", 230)])
def test_it_reproduces_both_vehicles_of_the_annex(vehicle, printed):
    """Rhino: Blindé, 2 mitrailleuses; battle tank: Blindé, a canon and one mitrailleuse (R1)."""
    assert CATALOGUE.vehicles[vehicle].printed_cost == printed
    assert vehicle_breakdown(vehicle, CATALOGUE).points == printed


def test_the_copy_errors_of_the_annex_are_read_as_r1_says():
    """R1: "the Ork Boyz rows at 89 carry a heavy weapon (41) with Charge féroce; the Tau
    Shas'la rows at 118 carry the heavy weapon with Bon tireur"."""
    boy = CATALOGUE.armies["orks"].profiles["boy_lance_missile"]
    assert (boy.profile.weapon, boy.profile.special_rules) == ("lance_missile", ("charge_feroce",))
    assert boy.erratum
    # As printed (a Fling' and Charge féroce) the row would cost the plain Boy's 56.
    as_printed = Profile(4, 3, "fling", ("charge_feroce",))
    assert profile_cost(as_printed, CATALOGUE) == 56 != boy.printed_cost
    shas_la = CATALOGUE.armies["tau"].profiles["shas_la_lance_flammes"]
    assert shas_la.profile.special_rules == ("bon_tireur",)
    assert profile_cost(Profile(3, 3, "lance_flammes"), CATALOGUE) == 112 != 118


def test_the_worked_example_of_the_body_is_an_erratum_the_annex_wins():
    """R1: "The worked example in the body text (Nob 78, Boy 63) is an erratum: the annex
    wins." The body's own sum already uses the annex: "71 + 4x56 = 295"."""
    orks = CATALOGUE.armies["orks"].profiles
    nob, boy = profile_cost(orks["nob"].profile), profile_cost(orks["boy"].profile)
    assert (nob, boy) == (71, 56)
    assert (nob, boy) != (78, 63)
    assert nob + 4 * boy == 295
    marines = CATALOGUE.armies["space_marines"].profiles
    assert (
        profile_cost(marines["sergent"].profile) + 3 * profile_cost(marines["soldat"].profile)
        == 292
    )


def test_the_formula_as_typeset_is_not_the_reading():
    """R1: "(5C + (rules + weapon)(7 - Q)) / 2 ... gives 92.5 for the captain"; ours gives 123."""
    captain = CATALOGUE.armies["space_marines"].profiles["capitaine"].profile
    assert (5 * 3 + (15 + 19) * (7 - 2)) / 2 == 92.5
    assert profile_breakdown(captain).points == 123


def test_it_prices_the_issue_example_the_sergeant():
    cost = profile_breakdown(Profile(3, 3, "fusil_assaut", ("sous_officier",)))
    assert (cost.points, cost.combat_part, cost.rules_part, cost.weapon_part) == (88, 15, 10, 19)


def test_it_refuses_an_unknown_slug_naming_it():
    with pytest.raises(RuleInputError) as error:
        profile_cost(Profile(3, 3, "fusil_assaut", ("sous_officer",)))
    assert (error.value.field, error.value.params["slug"]) == ("special_rules", "sous_officer")


def test_every_special_rule_of_the_text_is_in_the_catalogue_with_its_cost():
    costs = {slug: rule.cost for slug, rule in CATALOGUE.special_rules.items()}
    assert costs == {
        "armure": 5,
        "armure_legere": 2,
        "blinde": 40,
        "attaque_au_passage": 8,
        "bon_tireur": 3,
        "chef": 15,
        "charge_feroce": 3,
        "elite": 4,
        "furtif": 3,
        "fort": 3,
        "hero": 15,
        "mouvement_long": 3,
        "sous_officier": 10,
        "sniper": 3,
        "specialiste_close_combat": 3,
    }


def _broken(tmp_path, change):
    raw = json.loads((CATALOGUES_DIR / f"{current_version()}.json").read_text())
    change(raw)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda raw: raw["weapons"][0].update(cost="six"), "weapons[0].cost"),
        (lambda raw: raw["weapons"][0].update(colour="red"), "unknown field 'colour'"),
        (lambda raw: raw["armies"][0]["profiles"][0].update(weapon="laser"), "laser"),
        (lambda raw: raw["vehicles"][0]["special_rules"].append("volant"), "volant"),
        (lambda raw: raw["special_rules"].append(raw["special_rules"][0]), "appears twice"),
        (lambda raw: raw["combat"].pop("aimed_bonus"), "missing field 'aimed_bonus'"),
    ],
)
def test_it_refuses_a_broken_catalogue_naming_the_entry(tmp_path, change, message):
    with pytest.raises(CatalogueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_catalogue(path=_broken(tmp_path, change))


# --- Army structure (annexe "Armée") -------------------------------------------------------------

SERGENT = CATALOGUE.armies["space_marines"].profiles["sergent"].profile
MARINE = CATALOGUE.armies["space_marines"].profiles["soldat"].profile
CAPITAINE = CATALOGUE.armies["space_marines"].profiles["capitaine"].profile
LANCE_MISSILE = CATALOGUE.armies["space_marines"].profiles["soldat_lance_missile"].profile
LANCE_FLAMMES = CATALOGUE.armies["space_marines"].profiles["soldat_lance_flammes"].profile


def squad(name, slot, fighters=3, leader=SERGENT, extra=()):
    return Squad(name, slot, leader, (MARINE,) * fighters + tuple(extra))


def codes(army):
    return [(p.code, p.params.get("squad")) for p in list_price(army).problems]


def test_a_command_squad_and_two_troop_squads_is_a_valid_army():
    army = ArmyList(
        "Ultramarines",
        (squad("QG", "command", leader=CAPITAINE), squad("A", "troops"), squad("B", "troops")),
    )
    price = list_price(army)
    assert price.valid
    assert price.total == (123 + 3 * 68) + 2 * (88 + 3 * 68)


def test_it_says_what_the_structure_lacks_in_sentences():
    """ "L'armée doit être composée à minima d'une escouade de commandement et de deux
    escouades de combat (troupe)"."""
    price = list_price(ArmyList("Draft", (squad("A", "troops"),)))
    sentences = [p.message % p.params for p in price.problems]
    assert sentences == [
        "The army needs at least 1 Commandement squad(s); it has 0.",
        "The army needs at least 2 Troupe squad(s); it has 1.",
    ]


def test_a_squad_is_a_leader_and_three_to_seven_fighters():
    """The text: "Une escouade sera composée d'un chef d'unité et de 3 à 7 combattants maximum"."""
    army = ArmyList(
        "Draft",
        (
            squad("QG", "command", leader=CAPITAINE),
            squad("Two", "troops", fighters=2),
            squad("Eight", "troops", fighters=8),
            squad("Seven", "elite", fighters=7),
            Squad("Headless", "support", None, (MARINE,) * 3),
        ),
    )
    price = list_price(army)
    assert codes(army) == [("fighters", "Two"), ("fighters", "Eight"), ("no_leader", "Headless")]
    assert price.problems[0].message % price.problems[0].params == (
        "Squad Two has 2 fighters besides its leader: a squad has 3 to 7."
    )


def test_a_squad_carries_one_special_weapon():
    """ "L'escouade ne peut comprendre qu'une arme spéciale (lance missiles/bazooka, lance
    flammes)"."""
    one = squad("One", "troops", fighters=2, extra=(LANCE_MISSILE,))
    two = squad("Two", "troops", fighters=1, extra=(LANCE_MISSILE, LANCE_FLAMMES))
    army = ArmyList("Draft", (squad("QG", "command", leader=CAPITAINE), one, two))
    assert codes(army) == [("special_weapons", "Two")]


def test_a_points_limit_set_by_the_game_refuses_a_list_above_it():
    army = ArmyList(
        "Big",
        (squad("QG", "command", leader=CAPITAINE), squad("A", "troops"), squad("B", "troops")),
        points_limit=800,
    )
    price = list_price(army)
    assert price.total == 911
    assert [p.message % p.params for p in price.problems] == [
        "The list costs 911 points, over the limit of 800."
    ]


def test_a_vehicle_is_a_squad_of_its_own_priced_by_the_formula():
    army = ArmyList(
        "Armoured",
        (
            squad("QG", "command", leader=CAPITAINE),
            squad("A", "troops"),
            squad("B", "troops"),
            Squad("Rhino", "support", vehicle="rhino"),
        ),
    )
    price = list_price(army)
    assert price.valid
    assert price.squads[-1].points == 186


def test_two_lists_are_balanced_when_no_single_figure_brings_them_closer():
    """ "Equilibre des forces": the text's example, a Sergeant and three Space Marines
    (292) against a Nob and four Boyz (295), is balanced."""
    orks = CATALOGUE.armies["orks"].profiles
    marines = list_price(ArmyList("SM", (squad("A", "troops"),)))
    boyz = list_price(
        ArmyList("Orks", (Squad("B", "troops", orks["nob"].profile, (orks["boy"].profile,) * 4),))
    )
    b = balance(marines, boyz)
    assert (b.a_total, b.b_total, b.difference, b.balanced, b.ahead) == (292, 295, 3, True, "b")
    bigger = list_price(ArmyList("SM", (squad("A", "troops", fighters=4),)))
    assert not balance(bigger, boyz).balanced

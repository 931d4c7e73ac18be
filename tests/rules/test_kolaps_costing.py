"""KOLAPS Préparation: budgets, prices, character values, VU, problems and K12.

Plain pytest over the packaged catalogue: no database, no Django.
"""

from __future__ import annotations

import pytest

from rules.engine.systems.kolaps import costing
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Cost
from rules.engine.systems.kolaps.costing import CharacterChoices, compare, cost_character, cost_unit


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue()


def build(
    catalogue,
    name="Dupont",
    *,
    archetype="agent-de-police",
    rank="veteran",
    affiliation=None,
    raise_to=None,
    equipment=None,
    avatar=False,
    key=None,
):
    talents, default_equipment = costing.archetype_defaults(catalogue, archetype)
    talents.update(raise_to or {})
    return CharacterChoices(
        key=key or name,
        name=name,
        affiliation=affiliation or catalogue.archetype(archetype).affiliation,
        archetype=archetype,
        rank=rank,
        talents=talents,
        equipment=default_equipment if equipment is None else equipment,
        avatar=avatar,
    )


def codes(result) -> list[str]:
    return [problem.code for problem in result.problems]


# --- K1: ranks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "pu", "pp"),
    [
        # "Le Novice ... Il a une valeur de 1 PU et dispose de 7 PP."
        ("novice", 1, 7),
        # "L' Aguerri ... Il a une valeur de 2 PU et dispose de 13 PP."
        ("aguerri", 2, 13),
        # "Le Vétéran ... Il a une valeur de 3 PU et dispose de 19 PP."
        ("veteran", 3, 19),
        # "L'Expert ... Il a une valeur de 4 PU et dispose de 25 PP."
        ("expert", 4, 25),
    ],
)
def test_it_gives_each_rank_its_budget_and_value(catalogue, rank, pu, pp):
    archetype = "sous-officier" if rank == "expert" else "agent-de-police"
    result = cost_character(catalogue, build(catalogue, rank=rank, archetype=archetype))
    assert costing.rank_budget(catalogue, rank) == pp
    assert (result.pp_budget, result.pp_spent, result.pp_left) == (pp, 0, pp)
    assert result.value == pu
    assert result.problems == ()


# --- K2: prices ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("talent", "level", "price"),
    [
        # Base talent: "Coût : 1 PP par niveau d'expertise", expertise 0 free.
        ("fusil", 0, Cost()),
        ("fusil", 1, Cost(pp=1)),
        ("fusil", 3, Cost(pp=3)),
        # Tir instinctif 1 and 2 "Coût : 1PP", 3 "Coût : 1PU": levels add up.
        ("tir-instinctif", 1, Cost(pp=1)),
        ("tir-instinctif", 2, Cost(pp=2)),
        ("tir-instinctif", 3, Cost(pp=2, pu=1)),
        # Mouvement défensif: "Coût : 2PP".
        ("mouvement-defensif", 1, Cost(pp=2)),
        # Infiltration: "Coût : 1PU".
        ("infiltration-apc", 1, Cost(pu=1)),
        # Précision 2 and 3: "Coût : 1PU" each.
        ("precision", 3, Cost(pp=1, pu=2)),
        # Options: "Prérequis : option 1PP / Coût : 1PP".
        ("premiers-secours", 1, Cost(pp=1)),
    ],
)
def test_it_prices_talents_specialisations_and_options_as_written(catalogue, talent, level, price):
    assert costing.talent_price(catalogue, talent, level) == price


def test_it_counts_pp_against_the_budget_and_pu_into_the_value(catalogue):
    """K2: "Character value = rank PU + PU costs"; PP only come out of the budget."""
    result = cost_character(
        catalogue,
        build(
            catalogue,
            raise_to={"fusil": 2, "tir-instinctif": 3, "marche": 1, "mouvement-defensif": 1},
        ),
    )
    # Fusil 2 (2 PP) + Tir instinctif 3 (2 PP + 1 PU) + Marche 1 (1 PP) + Mvt défensif (2 PP)
    assert result.pp_spent == 7
    assert result.pp_left == 19 - 7
    assert result.pu_bought == 1
    assert result.value == 3 + 1
    assert result.problems == ()


def test_it_values_a_mixed_unit_as_the_sum_of_its_characters(catalogue):
    """ "on additionne les valeurs des rangs et le cas échéant des équipements. Le Total donne
    la Valeur d'Unité ou VU"."""
    unit = cost_unit(
        catalogue,
        [
            build(catalogue, "Avatar", rank="novice", avatar=True),
            build(catalogue, "Dupont", rank="veteran", raise_to={"fusil": 2, "tir-instinctif": 1}),
            build(
                catalogue,
                "Martin",
                archetype="sous-officier",
                rank="expert",
                raise_to={"se-cacher-apc": 2, "infiltration-apc": 1},
            ),
            build(catalogue, "Durand", archetype="agent-anti-emeute", rank="aguerri"),
        ],
    )
    assert [c.value for c in unit.characters] == [1, 3, 5, 2]
    assert unit.vu == 11
    assert unit.valid


# --- Problems --------------------------------------------------------------------------------


def test_it_reports_a_character_over_budget(catalogue):
    """K2: "PP spent must not exceed the rank's budget" (Novice: 7 PP)."""
    result = cost_character(
        catalogue,
        build(
            catalogue,
            rank="novice",
            raise_to={"fusil": 3, "pistolet": 3, "marche": 2},
        ),
    )
    assert result.pp_spent == 8
    assert result.pp_left == -1
    problem = result.problems[0]
    assert problem.code == costing.OVER_BUDGET
    assert problem.params == {"spent": 8, "budget": 7}


def test_it_reports_a_specialisation_without_its_prerequisite(catalogue):
    """Tir instinctif 1: "Prérequis : Expertise fusil ou pistolet 1"."""
    result = cost_character(catalogue, build(catalogue, raise_to={"tir-instinctif": 1}))
    assert codes(result) == [costing.MISSING_PREREQUISITE]
    assert result.problems[0].params["requires"] == (("fusil", 1), ("pistolet", 1))
    either = cost_character(
        catalogue, build(catalogue, raise_to={"tir-instinctif": 1, "pistolet": 1})
    )
    assert either.problems == ()


def test_it_reports_the_prerequisite_of_every_level_held(catalogue):
    """Levels are taken in order: Ralliement 3 still needs Discipline 2 from level 1."""
    result = cost_character(catalogue, build(catalogue, raise_to={"ralliement": 3}))
    assert codes(result) == [costing.MISSING_PREREQUISITE]
    assert result.problems[0].params["requires"] == (("discipline", 2),)


def test_it_reports_a_rank_the_archetype_does_not_allow(catalogue):
    """Agent Anti Emeute lists "Aguerri, Vétéran" only."""
    result = cost_character(
        catalogue, build(catalogue, archetype="agent-anti-emeute", rank="novice")
    )
    assert codes(result) == [costing.RANK_NOT_ALLOWED]


def test_it_accepts_each_alternative_of_an_equipment_choice_and_nothing_else(catalogue):
    """Agent de Police: "FA F4 ou FPA LG mod.39 ou Bouclier tactique" is one choice."""
    for choice in ("fa-f4", "fpa-lg-mod-39", "bouclier-tactique"):
        equipment = ["pa-police-50", choice, "tenue-legere-sti-europa", "matraque-composite"]
        assert cost_character(catalogue, build(catalogue, equipment=equipment)).problems == ()
    wrong = ["pa-police-50", "griffes", "tenue-legere-sti-europa", "matraque-composite"]
    result = cost_character(catalogue, build(catalogue, equipment=wrong))
    assert codes(result) == [costing.EQUIPMENT_CHOICE_INVALID]
    assert result.problems[0].params["group"] == 2
    short = cost_character(catalogue, build(catalogue, equipment=["pa-police-50"]))
    assert codes(short) == [costing.EQUIPMENT_CHOICE_COUNT]


def test_it_reports_a_talent_choice_group_left_empty_or_taken_twice(catalogue):
    """Sous Officier: "Fusil ou Bouclier" is one choice."""
    character = build(catalogue, archetype="sous-officier")
    assert "fusil" in character.talents and "bouclier" not in character.talents
    both = build(catalogue, archetype="sous-officier", raise_to={"bouclier": 0})
    assert codes(cost_character(catalogue, both)) == [costing.TALENT_CHOICE_DOUBLE]
    talents = {k: v for k, v in character.talents.items() if k != "fusil"}
    none = CharacterChoices(**{**character.__dict__, "talents": talents})
    assert codes(cost_character(catalogue, none)) == [costing.TALENT_CHOICE_MISSING]


def test_it_reports_talents_another_archetype_or_affiliation_owns(catalogue):
    """Options come from the archetype's list, specialisations from the affiliation."""
    result = cost_character(
        catalogue,
        build(catalogue, archetype="chasseur", raise_to={"premiers-secours": 1, "suppression": 1}),
    )
    assert codes(result).count(costing.TALENT_NOT_AVAILABLE) == 2


def test_it_reports_unknown_entries_and_levels_instead_of_failing(catalogue):
    result = cost_character(
        catalogue,
        CharacterChoices(
            key="x",
            name="X",
            affiliation="apc",
            archetype="agent-de-police",
            rank="general",
            talents={"fusil": 9, "laser": 1, "discipline": 0, "pistolet": 0, "bouclier": 0,
                     "corps-a-corps": 0, "marche": 0},
            equipment=["pa-police-50", "canon", "tenue-legere-sti-europa", "matraque-composite"],
        ),
    )  # fmt: skip
    assert set(codes(result)) == {
        costing.UNKNOWN_RANK,
        costing.LEVEL_OUT_OF_RANGE,
        costing.UNKNOWN_TALENT,
        costing.UNKNOWN_EQUIPMENT,
    }


def test_it_reports_an_archetype_of_another_affiliation(catalogue):
    result = cost_character(catalogue, build(catalogue, affiliation="sheol"))
    assert codes(result) == [costing.ARCHETYPE_NOT_OF_AFFILIATION]


def test_it_needs_exactly_one_avatar(catalogue):
    """ "un des personnages sera le représentant du joueur sur le Théâtre et prendra le titre
    d'Avatar"."""
    none = cost_unit(catalogue, [build(catalogue, "A"), build(catalogue, "B")])
    assert codes(none) == [costing.NO_AVATAR]
    assert not none.valid
    two = cost_unit(
        catalogue, [build(catalogue, "A", avatar=True), build(catalogue, "B", avatar=True)]
    )
    assert codes(two) == [costing.SEVERAL_AVATARS]
    assert cost_unit(catalogue, []).problems[0].code == costing.NO_AVATAR


def test_it_refuses_two_characters_of_the_same_name(catalogue):
    """ "il ne peut y avoir deux personnages du même nom ... Il suffit alors d'en renommer
    une." Case and surrounding spaces do not make a name different."""
    unit = cost_unit(
        catalogue,
        [
            build(catalogue, "Dupont", avatar=True, key="1"),
            build(catalogue, "dupont ", key="2"),
            build(catalogue, "Durand", key="3"),
        ],
    )
    assert codes(unit) == [costing.DUPLICATE_NAME]
    assert unit.problems[0].params == {"name": "Dupont", "count": 2}


# --- K12 -------------------------------------------------------------------------------------


def test_it_makes_the_lowest_ranks_of_an_undervalued_unit_change_sides(catalogue):
    """K12: "for each PU of difference, one character changes sides, lowest ranks first"."""
    unit = cost_unit(
        catalogue,
        [
            build(catalogue, "Chef", rank="novice", avatar=True),
            build(catalogue, "Vet", rank="veteran"),
            build(catalogue, "Agu", rank="aguerri"),
            build(catalogue, "Nov", rank="novice"),
        ],
    )
    assert unit.vu == 7
    result = compare(unit, opponent_vu=5)
    assert result.surplus == 2
    assert result.defectors == ("Nov", "Agu")
    assert result.beyond == 0


def test_it_keeps_the_avatar_and_counts_what_nobody_pays(catalogue):
    unit = cost_unit(
        catalogue,
        [build(catalogue, "Chef", rank="novice", avatar=True), build(catalogue, "Vet")],
    )
    result = compare(unit, opponent_vu=0)
    assert result.defectors == ("Vet",)
    assert result.beyond == 3


def test_it_changes_nobody_when_the_unit_is_not_worth_more(catalogue):
    unit = cost_unit(catalogue, [build(catalogue, "Chef", rank="novice", avatar=True)])
    for opponent in (1, 4):
        result = compare(unit, opponent_vu=opponent)
        assert result.defectors == () and result.beyond == 0
    assert compare(unit, opponent_vu=4).surplus == -3


# --- The builder's offers --------------------------------------------------------------------


def test_it_offers_a_specialisation_with_the_reason_it_cannot_be_bought_yet(catalogue):
    steps = {s.slug: s for s in costing.steps(catalogue, build(catalogue))}
    assert steps["tir-instinctif"].missing == (("fusil", 1), ("pistolet", 1))
    assert steps["fusil"].level == 0 and steps["fusil"].next_pp == 1
    assert not steps["fusil"].can_lower
    assert "sonar" not in steps and "terreur" not in steps  # the Shéol's own
    raised = {
        s.slug: s
        for s in costing.steps(
            catalogue, build(catalogue, raise_to={"fusil": 1, "tir-instinctif": 2})
        )
    }
    assert raised["tir-instinctif"].missing == ()
    assert (raised["tir-instinctif"].next_pp, raised["tir-instinctif"].next_pu) == (0, 1)
    assert raised["tir-instinctif"].can_lower


def test_it_lists_what_each_talent_held_costs_for_the_sheet(catalogue):
    lines = costing.cost_lines(
        catalogue, build(catalogue, raise_to={"fusil": 2, "tir-instinctif": 3})
    )
    priced = {line.slug: (line.level, line.pp, line.pu) for line in lines}
    assert priced["fusil"] == (2, 2, 0)
    assert priced["tir-instinctif"] == (3, 2, 1)
    assert priced["marche"] == (0, 0, 0)

"""The KOLAPS catalogue loads, validates, equals the readings, and refuses broken copies.

Plain pytest: no database, no Django (runs with `-p no:django --noconftest`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules.engine.dice import Dice
from rules.engine.systems.kolaps.catalogue import (
    catalogue_path,
    catalogue_versions,
    load_catalogue,
)
from rules.engine.systems.kolaps.catalogue_records import (
    Catalogue,
    CatalogueError,
    Requirement,
    parse_dice,
    parse_power,
)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


def _raw() -> dict[str, Any]:
    return json.loads(catalogue_path().read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _entry(data: dict[str, Any], section: str, slug: str) -> dict[str, Any]:
    return next(entry for entry in data[section] if entry["slug"] == slug)


# --- It loads ------------------------------------------------------------------------------


def test_it_loads_and_validates_the_packaged_catalogue(catalogue):
    assert catalogue.system == "kolaps"
    assert catalogue.source == "000_54d039a2b5ac2f23.txt"
    assert len(catalogue.archetypes) >= 4
    assert len(catalogue.talents) >= 30


def test_it_records_the_version(catalogue):
    assert re.fullmatch(r"\d{4}\.\d+\.\d+", catalogue.version)
    assert catalogue.version == _raw()["version"]


def test_it_reads_the_packaged_catalogue_once(catalogue):
    assert load_catalogue() is catalogue


def test_it_gives_every_entry_a_ref_and_a_real_uncertainty_note():
    data = _raw()
    for section in ("ranks", "affiliations", "archetypes", "talents", "weapons", "armours"):
        for entry in data[section]:
            assert entry["ref"].strip(), f"{section} {entry['slug']} has no ref"
            assert entry.get("uncertain", "x").strip(), f"{section} {entry['slug']}: empty note"


# --- K1 / K4: ranks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "label", "number", "pu", "pp", "threshold"),
    [
        ("novice", "Novice", 1, 1, 7, 4),
        ("aguerri", "Aguerri", 2, 2, 13, 4),
        ("veteran", "Vétéran", 3, 3, 19, 3),
        ("expert", "Expert", 4, 4, 25, 2),
    ],
)
def test_it_gives_each_rank_the_numbers_of_k1(catalogue, slug, label, number, pu, pp, threshold):
    """K1. Ranks. Novice: rank number 1, 1 PU, 7 PP. Aguerri: 2, 2 PU, 13 PP. Vétéran: 3,
    3 PU, 19 PP. Expert: 4, 4 PU, 25 PP.
    K4. Success threshold by effective rank: Novice 4, Aguerri 4, Vétéran 3, Expert 2."""
    rank = catalogue.rank(slug)
    assert (rank.label, rank.number, rank.pu, rank.pp) == (label, number, pu, pp)
    assert rank.success_threshold == threshold


def test_it_orders_the_four_ranks(catalogue):
    assert list(catalogue.ranks) == ["novice", "aguerri", "veteran", "expert"]


# --- Affiliations and archetypes -------------------------------------------------------------


def test_it_gives_apc_and_sheol_archetypes_and_chrisme_none(catalogue):
    assert catalogue.archetypes_of("apc")
    assert catalogue.archetypes_of("sheol")
    assert catalogue.archetypes_of("chrisme") == ()
    chrisme = catalogue.affiliation("chrisme")
    assert chrisme.named_only
    assert chrisme.archetypes == ()
    for slug in ("apc", "sheol"):
        affiliation = catalogue.affiliation(slug)
        assert not affiliation.named_only
        assert affiliation.effect_666
        assert {a.slug for a in catalogue.archetypes_of(slug)} == set(affiliation.archetypes)


def test_it_lists_every_archetype_of_both_annexes(catalogue):
    assert {(a.slug, a.label, a.affiliation) for a in catalogue.archetypes.values()} == {
        ("agent-de-police", "Agent de Police", "apc"),
        ("agent-anti-emeute", "Agent Anti Emeute", "apc"),
        ("sous-officier", "Sous Officier", "apc"),
        ("chasseur", "Chasseur", "sheol"),
    }


def test_it_builds_the_veteran_agent_de_police_of_the_browser_test(catalogue):
    """The browser test builds a Vétéran "Agent de Police" with "Fusil 2" and
    "Tir instinctif 1": the talent Fusil at expertise 2, the specialisation Tir instinctif
    at level 1 (its prerequisite Fusil or Pistolet 1 is met by Fusil 2)."""
    agent = catalogue.archetype("agent-de-police")
    assert agent.allows_rank("veteran")
    assert agent.ranks == ("novice", "aguerri", "veteran")

    assert "fusil" in agent.talent_slugs
    fusil = catalogue.talent("fusil")
    assert fusil.label == "Fusil"
    assert fusil.kind == "talent"
    assert fusil.level(2).base_db == 1

    (tir_instinctif,) = catalogue.talents_labelled("Tir instinctif", affiliation="apc")
    assert tir_instinctif.kind == "specialisation"
    first = tir_instinctif.level(1)
    assert first.db_modifier == 2
    assert Requirement(talent="fusil", level=1) in first.prerequisite.any_of

    rifles = [
        catalogue.weapon(slug)
        for group in agent.equipment
        for slug in group
        if slug in catalogue.weapons and catalogue.weapon(slug).talent == "fusil"
    ]
    assert "FA F4" in {rifle.label for rifle in rifles}


def test_it_reads_a_or_b_or_c_as_one_choice_group(catalogue):
    agent = catalogue.archetype("agent-de-police")
    assert agent.equipment == (
        ("pa-police-50",),
        ("fa-f4", "fpa-lg-mod-39", "bouclier-tactique"),
        ("tenue-legere-sti-europa",),
        ("matraque-composite",),
    )
    assert ("fusil", "bouclier") in catalogue.archetype("sous-officier").talents


def test_it_starts_base_talents_free_at_expertise_0(catalogue):
    """K2. An archetype's base talents start at expertise 0 for free; each level above 0
    costs 1 PP."""
    for archetype in catalogue.archetypes.values():
        for slug in archetype.talent_slugs:
            talent = catalogue.talent(slug)
            assert talent.level(0).cost.pp == 0
            assert all(level.cost.pp == 1 for level in talent.levels[1:])


def test_it_keeps_charge_3_per_affiliation(catalogue):
    """K16. Where the two affiliation annexes print different numbers for a same-named
    talent (Charge 3: +1 for the APC, +3 for the Shéol), each affiliation keeps its own."""
    (apc,) = catalogue.talents_labelled("Charge", affiliation="apc")
    (sheol,) = catalogue.talents_labelled("Charge", affiliation="sheol")
    assert (apc.affiliation, sheol.affiliation) == ("apc", "sheol")
    assert apc.level(3).melee_attacker_bonus == 1
    assert sheol.level(3).melee_attacker_bonus == 3
    assert [apc.level(n).melee_attacker_bonus for n in (1, 2)] == [1, 2]
    assert [sheol.level(n).melee_attacker_bonus for n in (1, 2)] == [1, 2]


def test_it_gives_the_dice_tables_of_bouclier_sonar_terreur_and_vigilance(catalogue):
    assert [lvl.dice for lvl in catalogue.talent("bouclier").levels] == ["2D6", "D6", "2C6", "3C6"]
    assert [lvl.dice for lvl in catalogue.talent("sonar").levels] == ["1D6", "2C6", "3C6", "4C6"]
    terreur = catalogue.talent("terreur").level(1).dice_by_target_sante
    by_sante = [terreur[sante] for sante in range(6, 0, -1)]
    assert by_sante == ["3D6", "2D6", "1D6", "2C6", "3C6", "4C6"]
    vigilance = catalogue.vigilance_talent()
    assert vigilance.level(2).intervention_dice["novice"]["expert"] == "X"
    assert vigilance.level(3).intervention_dice["novice"]["expert"] == "3D6"
    assert vigilance.level(3).intervention_dice["expert"]["novice"] == "-"


@pytest.mark.parametrize(
    ("slug", "power", "band", "at_band"),
    [
        ("pa-police-50", "1D6", "extreme", "D6"),
        ("fa-f4", "2C6", "short", "2C6"),
        ("fpa-lg-mod-39", "4C6/3C6/2C6/D6/0", "point_blank", "4C6"),
        ("fpa-lg-mod-39", "4C6/3C6/2C6/D6/0", "long", "D6"),
        ("fpa-lg-mod-39", "4C6/3C6/2C6/D6/0", "extreme", "0"),
    ],
)
def test_it_gives_weapon_power_by_range_band(catalogue, slug, power, band, at_band):
    """K3. The column "PU" is the weapon's power, one per band when '/'-separated."""
    weapon = catalogue.weapon(slug)
    assert weapon.power == power
    assert str(weapon.power_at(band)) == at_band


def test_it_gives_armour_protection_per_damage_type(catalogue):
    tenue = catalogue.armour("tenue-legere-sti-europa")
    assert dict(tenue.protection) == {"piercing": 3, "slashing": 1, "blunt": 1}
    assert tenue.shooting_db_modifier == -1
    assert dict(catalogue.armour("bouclier-anti-emeute").protection) == {
        "piercing": 1,
        "slashing": 2,
        "blunt": 3,
    }


# --- K7 / K8 / K11 / K13 tables -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "ranged", "melee"),
    [
        (-3, "superficial", "superficial"),
        (0, "superficial", "superficial"),
        (1, "benign", "superficial"),
        (2, "benign", "benign"),
        (3, "light", "light"),
        (4, "serious", "serious"),
        (5, "grave", "grave"),
        (6, "very_grave", "very_grave"),
        (11, "very_grave", "very_grave"),
    ],
)
def test_it_reads_the_damage_tables_of_k7(catalogue, value, ranged, melee):
    """K7. Ranged: value <= 0: superficial; 1-2: benign; 3: light; 4: serious; 5: grave;
    >= 6: very grave. Melee: value <= 1: superficial; 2: benign; 3: light; ..."""
    assert catalogue.tables.ranged_damage.wound_for(value) == ranged
    assert catalogue.tables.melee_damage.wound_for(value) == melee


def test_it_reads_the_outcome_rows_of_k7(catalogue):
    """K7. critical failure: major incident; failure with a 1: minor incident; failure:
    miss; mitigated success: "hit but..."; critical success: lethal."""
    expected = {
        "critical_failure": "major_incident",
        "failure_with_one": "minor_incident",
        "failure": "miss",
        "mitigated_success": "hit_but",
        "critical_success": "lethal",
    }
    assert dict(catalogue.tables.ranged_damage.by_outcome) == expected
    assert dict(catalogue.tables.melee_damage.by_outcome) == expected


@pytest.mark.parametrize(
    ("wound", "loss", "set_to", "death_roll", "attacker_moral"),
    [
        ("superficial", 1, None, False, 0),
        ("benign", 2, None, False, 0),
        ("light", 2, None, True, 0),
        ("serious", 3, None, True, 1),
        ("grave", 4, None, True, 1),
        ("very_grave", None, 1, True, 1),
    ],
)
def test_it_reads_the_wounds_of_k8(catalogue, wound, loss, set_to, death_roll, attacker_moral):
    """K8. superficial -1 Santé; benign -2; light -2 and a death roll; serious -3, death
    roll, attacker +1 Moral; grave -4, ...; very grave Santé set to 1, death roll, +1."""
    row = catalogue.tables.wounds.rows[wound]
    assert (row.sante_loss, row.sante_set_to, row.death_roll) == (loss, set_to, death_roll)
    assert row.attacker_moral == attacker_moral
    assert not row.killed


def test_it_reads_the_lethal_wound_and_the_santé_floor_of_k8(catalogue):
    """K8. lethal: killed, attacker +2 Moral, the target's allies within 25 cm -1 Moral.
    Damage never takes Santé below 1."""
    lethal = catalogue.tables.wounds.rows["lethal"]
    assert lethal.killed
    assert (lethal.attacker_moral, lethal.allies_moral, lethal.allies_radius_cm) == (2, -1, 25)
    assert catalogue.tables.wounds.sante_floor == 1


def test_it_reads_the_death_roll_thresholds_of_k8(catalogue):
    """K8. threshold by the new Santé (6: none, 5: 2, 4: 3, 3: 4, 2: 5, 1: 6; inhuman
    metabolism 3 lowers it by 1)."""
    death_roll = catalogue.tables.death_roll
    assert parse_dice(death_roll.dice) == Dice(count=1)
    assert dict(death_roll.threshold_by_sante) == {6: None, 5: 2, 4: 3, 3: 4, 2: 5, 1: 6}
    metabolism = catalogue.talent("metabolisme-inhumain-vampire")
    assert metabolism.level(3).death_threshold_modifier == -1
    assert [metabolism.level(n).power_divisor for n in (1, 2, 3)] == [2, 3, 3]


def test_it_reads_the_ranged_db_tables_of_k11(catalogue):
    """K11. base DB from expertise (0: 5, 1: 3, 2: 1, 3: 0; a static target makes it 0)
    + range band (point blank -3, short -1, effective 0, long +1, extreme +3) + target
    movement (15-25 cm +1, 25-35 +2, 35-45 +3, 45-55 +4, 55 and more +5) + 1 per figure
    beyond the first when shooting into a melee."""
    ranged_db = catalogue.tables.ranged_db
    assert dict(ranged_db.base_db_by_expertise) == {0: 5, 1: 3, 2: 1, 3: 0}
    assert ranged_db.static_target_base_db == 0
    assert dict(ranged_db.range_band_modifiers) == {
        "point_blank": -3,
        "short": -1,
        "effective": 0,
        "long": 1,
        "extreme": 3,
    }
    assert [(m.min_cm, m.max_cm, m.db) for m in ranged_db.target_movement_modifiers] == [
        (15, 25, 1),
        (25, 35, 2),
        (35, 45, 3),
        (45, 55, 4),
        (55, None, 5),
    ]
    assert ranged_db.melee_extra_figure_modifier == 1


def test_it_reproduces_the_worked_example_of_k11(catalogue):
    """K11. expertise 2 (1) - semi-auto (1) - shooter's helmet (1) + target metabolism 1
    (3) + cover (3) = 5 dice. The metabolism's +3 is the target's protection in that
    example: the text prints it, the catalogue does not invent a number for it."""
    db = (
        catalogue.tables.ranged_db.base_db_by_expertise[2]
        + catalogue.weapon("fa-f4").db_modifier_by_mode["semi-auto"]
        + catalogue.armour("tenue-legere-sti-europa").shooting_db_modifier
        + 3
        + 3
    )
    assert db == 5


def test_it_reads_the_starting_moral_of_k13(catalogue):
    """K13. Starting Moral (all but the Avatar, always 6): 1D6 + rank number; 6 or more:
    6; a die showing 1: 4; otherwise 5."""
    moral = catalogue.tables.starting_moral
    assert parse_dice(moral.dice) == Dice(count=1)
    assert (moral.total_at_least, moral.when_total_reached) == (6, 6)
    assert (moral.when_die_shows_one, moral.otherwise, moral.avatar) == (4, 5, 6)


def test_it_reads_the_keep_best_dice_of_k6(catalogue):
    """K6. A DB of 0, -1 or -2 and below means 2, 3 or 4 dice, keep the best."""
    assert dict(catalogue.tables.keep_best_dice_by_db.dice) == {0: "2C6", -1: "3C6", -2: "4C6"}


# --- K3 dice notation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("D6", Dice(count=1)),
        ("1D6", Dice(count=1)),
        ("3D6", Dice(count=3)),
        ("2C6", Dice(count=2, keep_best=True)),
        ("4C6", Dice(count=4, keep_best=True)),
        ("2", Dice(constant=2)),
        ("0", Dice()),
    ],
)
def test_it_parses_the_dice_notation_of_k3(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["", "d6", "D8", "1C6", "C6", "-1", "2D6+1", "06", " D6"])
def test_it_refuses_what_is_not_k3_notation(text):
    with pytest.raises(CatalogueError):
        parse_dice(text)


def test_it_parses_one_power_or_exactly_five_bands():
    assert parse_power("2C6") == (Dice(count=2, keep_best=True),) * 5
    assert len(parse_power("4C6/3C6/2C6/D6/0")) == 5
    with pytest.raises(CatalogueError, match="gives 4 bands"):
        parse_power("2C6/D6/D6/0")


# --- Refusals --------------------------------------------------------------------------------


def test_it_refuses_a_catalogue_missing_a_referenced_talent(tmp_path):
    data = _raw()
    data["talents"] = [talent for talent in data["talents"] if talent["slug"] != "fusil"]
    with pytest.raises(CatalogueError) as refused:
        load_catalogue(path=_write(tmp_path, data))
    message = str(refused.value)
    assert "archetype 'agent-de-police', field 'talents': unknown talent 'fusil'" in message
    prerequisite = "talent 'tir-instinctif' level 1, field 'prerequisite'"
    assert f"{prerequisite}: unknown talent 'fusil'" in message
    assert "weapon 'fa-f4', field 'talent': unknown talent 'fusil'" in message


def test_it_refuses_a_bad_dice_expression(tmp_path):
    data = _raw()
    _entry(data, "weapons", "fa-f4")["power"] = "2X6"
    with pytest.raises(CatalogueError, match=r"weapon 'fa-f4', field 'power': '2X6' is not"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_a_power_without_five_bands(tmp_path):
    data = _raw()
    _entry(data, "weapons", "fpa-lg-mod-39")["power"] = "4C6/3C6/2C6/D6"
    with pytest.raises(CatalogueError, match=r"weapon 'fpa-lg-mod-39', field 'power'"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_a_bad_dice_expression_inside_a_talent_level(tmp_path):
    data = _raw()
    _entry(data, "talents", "bouclier")["levels"][2]["dice"] = "2E6"
    with pytest.raises(CatalogueError, match=r"talent 'bouclier' level 2, field 'dice'"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_a_misspelt_field(tmp_path):
    data = _raw()
    _entry(data, "armours", "armure-anti-emeute")["protections"] = {}
    with pytest.raises(CatalogueError, match=r"armour 'armure-anti-emeute': unknown field"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_a_prerequisite_level_that_does_not_exist(tmp_path):
    data = _raw()
    _entry(data, "talents", "saut")["levels"][0]["prerequisite"]["any_of"][0]["level"] = 4
    with pytest.raises(CatalogueError, match=r"talent 'saut' level 1, field 'prerequisite'"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_a_cost_that_is_not_pp_or_pu(tmp_path):
    data = _raw()
    _entry(data, "talents", "charge-sheol")["levels"][2]["cost"] = {"pv": 1}
    with pytest.raises(CatalogueError, match=r"talent 'charge-sheol' level 3, field 'cost'"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_equipment_that_does_not_exist(tmp_path):
    data = _raw()
    _entry(data, "archetypes", "chasseur")["equipment"].append(["fusil-laser"])
    with pytest.raises(CatalogueError, match=r"archetype 'chasseur', field 'equipment'"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "catalogue.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not valid JSON"):
        load_catalogue(path=path)


@pytest.mark.parametrize(
    ("lookup", "slug"),
    [("talent", "tir-vise"), ("archetype", "vampire"), ("weapon", "fusil"), ("rank", "elite")],
)
def test_it_names_the_missing_entry_on_a_failed_lookup(catalogue, lookup, slug):
    with pytest.raises(CatalogueError, match=f"no {lookup} '{slug}'"):
        getattr(catalogue, lookup)(slug)
    with pytest.raises(ValueError):  # CatalogueError is a ValueError for callers that expect one
        getattr(catalogue, lookup)(slug)


def test_it_names_the_missing_level_of_a_talent(catalogue):
    with pytest.raises(CatalogueError, match=r"talent 'tir-instinctif' has no level 0"):
        catalogue.talent("tir-instinctif").level(0)


def test_it_keeps_every_shipped_catalogue_side_by_side():
    """Each version that shipped loads, says its own version, and the last is current."""
    versions = catalogue_versions()
    assert versions[:2] == ("2026.11.1", "2026.11.2")
    assert [load_catalogue(v).version for v in versions] == list(versions)
    assert load_catalogue().version == versions[-1]
    with pytest.raises(CatalogueError, match=r"no KOLAPS catalogue '1999\.1\.1'"):
        load_catalogue("1999.1.1")


def test_k17_discipline_is_the_talent_printed_as_vigilance():
    """RULES-NOTES K17: "'Discipline', listed in every APC archetype's talents, is the talent
    whose entry the text prints under the heading 'Vigilance' (Base, 1 PP per level ...).
    One talent, shown as 'Discipline (Vigilance)' ... its level is the vigilance the
    vigilance resolver reads. Its expertise-1 table ... is the one the catalogue already
    holds." Catalogue 2026.11.2 reads it so; 2026.11.1 stays as it shipped."""
    before, after = load_catalogue("2026.11.1"), load_catalogue("2026.11.2")
    assert before.vigilance_talent().slug == "vigilance"
    assert "vigilance" not in after.talents
    discipline = after.talent("discipline")
    assert discipline.label == "Discipline (Vigilance)"
    assert after.vigilance_talent() is discipline
    assert [level.cost.pp for level in discipline.levels] == [0, 1, 1, 1]
    for number in (1, 2, 3):
        assert (
            discipline.level(number).intervention_dice
            == before.talent("vigilance").level(number).intervention_dice
        )
    for archetype in after.archetypes_of("apc"):
        assert any("discipline" in group for group in archetype.talents)
    for slug in ("manoeuvre", "ralliement"):
        assert after.talent(slug).specialises == ("discipline",)


def test_it_holds_the_follow_up_tables_the_resolvers_read(catalogue):
    """K9: "The major-incident table (1 / 2-5 / 6) is read with a fresh 1D6"; "Manqué ... Le
    joueur lance 1D6 avec un seuil de 3"; the Moral a wound costs: "Expert ne perd pas de
    moral pour une blessure"; K15: "de rang Aguerri au minimum ... ayant au moins 3 de
    moral"."""
    follow = catalogue.tables.follow_ups
    assert follow.major_incident["ranged"] == (
        (1, 1, "weapon_destroyed"),
        (2, 5, "ally_hit"),
        (6, 6, "disarmed"),
    )
    assert follow.incident_effects["weapon_destroyed"]["attacker_sante_loss"] == 3
    assert follow.temper_threshold == 3
    assert [row[:3] for row in follow.stray_shot] == [
        (1, 1, "shooter_ally_hit"),
        (2, 3, "target_ally_hit"),
        (4, 5, "plain_miss"),
        (6, 6, "target_ally_hit"),
    ]
    assert follow.six_six_six["sheol"]["melee_wounds_one_level_worse"] is True
    assert "chrisme" not in follow.six_six_six
    assert dict(follow.wound_moral["expert"]) == {"loss_at_least": (), "sante_at_most": ()}
    assert (follow.next_attacker_min_rank, follow.next_attacker_min_moral) == ("aguerri", 3)


def test_it_refuses_a_d6_table_that_leaves_a_face_out(tmp_path):
    data = _raw()
    data["tables"]["follow_ups"]["stray_shot"].pop()  # the 6 has no row any more
    with pytest.raises(CatalogueError, match="faces 1 to 6"):
        load_catalogue(path=_write(tmp_path, data))


def test_it_refuses_an_incident_the_table_does_not_describe(tmp_path):
    data = _raw()
    data["tables"]["follow_ups"]["major_incident"]["melee"][0][2] = "meteor"
    with pytest.raises(CatalogueError, match="unknown incident 'meteor'"):
        load_catalogue(path=_write(tmp_path, data))

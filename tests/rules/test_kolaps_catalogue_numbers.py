"""Every rule number the KOLAPS resolvers read lives in the catalogue, once: a resolver given
a catalogue answers with that catalogue's numbers, and no module of the engine keeps its
own copy. Plain pytest: no database, no Django."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules.engine.systems.kolaps import (
    death,
    end_phase,
    melee,
    next_attacker,
    ranged,
    six_six_six,
    vigilance,
)
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.catalogue import catalogue_path, catalogue_versions, load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue, CatalogueError

KOLAPS = Path(t.__file__).parent


def _raw() -> dict[str, Any]:
    return json.loads(catalogue_path().read_text(encoding="utf-8"))


def _edited(tmp_path: Path, edit) -> Catalogue:
    """The current catalogue with `edit(data)` applied, loaded from a file of its own."""
    data = _raw()
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_catalogue(path=path)


# --- The numbers are the catalogue's -------------------------------------------------------


@pytest.mark.parametrize("version", catalogue_versions())
def test_every_shipped_catalogue_holds_the_outcome_ranks_of_k5(version):
    """K5: "critical success: every die shows 6, and the effective rank is not Novice; 666:
    any roll of exactly three dice ...; critical failure when s = 0 and at least two dice
    show 1 and the effective rank is Novice or Aguerri; failure with a 1 when exactly one
    die shows 1 and the effective rank is not Expert"."""
    outcomes = load_catalogue(version).tables.roll_outcomes
    assert outcomes.critical_success_min_rank == "aguerri"
    assert outcomes.critical_failure_max_rank == "aguerri"
    assert outcomes.critical_failure_min_ones == 2
    assert outcomes.failure_with_one_max_rank == "veteran"
    assert outcomes.six_six_six_dice == 3


@pytest.mark.parametrize("version", catalogue_versions())
def test_every_shipped_catalogue_holds_the_end_phase_numbers_of_k14(version):
    """K14: "Breath: +1 when none was spent and not engaged ...; the frightened recover for
    1 Moral ...; Gauges stay within 1..6"."""
    follow = load_catalogue(version).tables.follow_ups
    assert (follow.gauge_min, follow.gauge_max) == (1, 6)
    assert (follow.rested_breath_gain, follow.frightened_moral_loss) == (1, 1)


def test_it_refuses_an_outcome_rank_that_does_not_exist(tmp_path):
    def edit(data):
        data["tables"]["roll_outcomes"]["critical_success_min_rank"] = "elite"

    with pytest.raises(CatalogueError, match="roll_outcomes, field 'critical_success_min_rank'"):
        _edited(tmp_path, edit)


def test_it_refuses_end_phase_numbers_that_are_not_whole_numbers(tmp_path):
    def edit(data):
        data["tables"]["follow_ups"]["end_phase"]["gauge_max"] = "six"

    with pytest.raises(CatalogueError, match="gauge_max"):
        _edited(tmp_path, edit)


def test_a_talent_test_reads_its_outcome_ranks_from_the_catalogue_it_is_given(tmp_path):
    """Where a catalogue lets a Novice roll a critical success, a Novice's three sixes are
    one; the current catalogue (K5) keeps them a plain success."""

    def edit(data):
        data["tables"]["roll_outcomes"]["critical_success_min_rank"] = "novice"

    generous = _edited(tmp_path, edit)
    assert t.evaluate(t.setup(3, "novice"), [6, 6, 6]).outcome == "success"
    assert t.evaluate(t.setup(3, "novice", catalogue=generous), [6, 6, 6]).outcome == (
        "critical_success"
    )
    assert t.odds(t.setup(3, "novice", catalogue=generous)).outcomes["critical_success"] > 0


def test_the_666_dice_are_the_catalogues(tmp_path):
    def edit(data):
        data["tables"]["roll_outcomes"]["six_six_six_dice"] = 2

    two = _edited(tmp_path, edit)
    assert six_six_six.odds({"affiliation": "apc"})["six_six_six_exact"] == "1/216"
    assert six_six_six.odds({"affiliation": "apc"}, two)["six_six_six_exact"] == "1/36"
    assert six_six_six.evaluate({"affiliation": "apc", "dice": [6, 6]}, two)["six_six_six"]
    assert t.evaluate(t.setup(2, "veteran", catalogue=two), [6, 6]).six_six_six


def test_the_end_phase_reads_its_gauges_from_the_catalogue(tmp_path):
    def edit(data):
        data["tables"]["follow_ups"]["end_phase"].update(gauge_max=8, rested_breath_gain=2)

    wider = _edited(tmp_path, edit)
    body = {"characters": [{"rank": "veteran", "sante": 6, "souffle": 6, "moral": 4}]}
    assert end_phase.evaluate(body)["characters"][0]["souffle"] == 6
    assert end_phase.evaluate(body, wider)["characters"][0]["souffle"] == 8


def test_a_shot_and_a_melee_are_set_up_with_the_catalogue_they_are_given(tmp_path):
    """The talent test inside an attack reads the thresholds of the catalogue given (K4)."""

    def edit(data):
        next(rank for rank in data["ranks"] if rank["slug"] == "veteran")["success_threshold"] = 5

    harsher = _edited(tmp_path, edit)
    shot = {"attacker": {"rank": "veteran", "talents": {"fusil": 2}}, "weapon": "fa-f4"}
    shot["distance_cm"] = 40
    assert ranged.odds(shot)["threshold"] == 3
    assert ranged.odds(shot, harsher)["threshold"] == 5
    fighter = {"rank": "veteran", "weapon": "griffes", "talents": {"corps-a-corps": 1}}
    fight = {"a": fighter, "b": {**fighter, "rank": "novice"}, "a_dice": [5], "b_dice": [1]}
    assert melee.evaluate(fight)["threshold"] == 3
    assert melee.evaluate(fight, harsher)["threshold"] == 5
    both_veterans = {**fight, "b": fighter}
    rolled = melee.roll(both_veterans, random.Random(1), harsher)
    assert rolled.get("threshold", 5) == 5  # whoever strikes (a tie strikes no one)


def test_the_other_resolvers_take_the_catalogue_they_are_given():
    older = load_catalogue(catalogue_versions()[0])
    assert death.odds({"wound": "serious"}, older)["dies_exact"] == "1/2"
    assert vigilance.odds({"rank": "expert", "target_rank": "novice"}, older)["intervenes"] == 1
    sides = {"apc": [{"rank": "novice", "moral": 4}], "sheol": []}
    answer = next_attacker.evaluate({"sides": sides, "previous": "sheol"}, older)
    assert (answer["attacker"], answer["decided_by"]) == ("apc", "novices")


# --- Once ------------------------------------------------------------------------------------

# The names the resolvers once kept their own copies of the catalogue's numbers under.
OLD_COPIES = (
    "RANKS",
    "RANK_NUMBER",
    "THRESHOLD",
    "THRESHOLDS",
    "SANTE_PENALTY",
    "KEEP_BEST",
    "INCIDENTS",
    "MAJOR_INCIDENT",
    "MINOR_INCIDENT",
    "STRAY_SHOT",
    "SIX_SIX_SIX",
    "ONE_LEVEL_WORSE",
    "WOUND_MORAL",
    "GAUGE_MIN",
    "GAUGE_MAX",
    "AFFILIATIONS",
    "P_666",
)


def test_no_resolver_keeps_a_copy_of_the_catalogues_numbers():
    pattern = re.compile(rf"^({'|'.join(OLD_COPIES)})\b\s*[:=]", re.M)
    offenders = [
        f"{path.name}: {match.group(1)}"
        for path in sorted(KOLAPS.glob("*.py"))
        if path.name != "catalogue.py"
        for match in pattern.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []

"""Each game system's pure campaign declaration (`rules.engine.systems.seam`): what its
settlement counts from a close, and that every system declares what the campaign app asks."""

import pytest

from rules.engine.systems import SYSTEMS, system_get
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.kolaps.campaign import avatar_lost
from rules.engine.systems.rapid40k.campaign import squad_points_lost
from rules.engine.systems.seam import Figures, Member, Per, Record, score_of


def _kolaps(player_id, side, *members):
    return Record(player_id=player_id, result="victory", side=side, members=members)


@pytest.mark.parametrize(
    ("nord", "sud", "expected"),
    [
        # CL1: "each character's fate: unhurt, wounded ... or dead"; VU lost is the PU of
        # the dead, VU destroyed what the other side lost.
        ((Member("A", 3, lost=1), Member("B", 1)), (Member("C", 2),), ((3, 0, 1), (0, 3, 0))),
        ((Member("A", 3, wounded=True),), (Member("C", 2, lost=1),), ((0, 2, 0), (2, 0, 1))),
        ((Member("A", 1, lost=1), Member("B", 2, lost=1)), (), ((3, 0, 2), (0, 3, 0))),
    ],
)
def test_kolaps_counts_the_vu_lost_and_destroyed_cl1(nord, sud, expected):
    settled = system_get("kolaps").settle([_kolaps(1, "Nord", *nord), _kolaps(2, "Sud", *sud)])
    got = tuple((f.value_lost, f.value_destroyed, f.characters_lost) for f in settled.values())
    assert got == expected


def test_kolaps_allies_on_one_side_do_not_destroy_each_other():
    settled = system_get("kolaps").settle(
        [
            _kolaps(1, "APC", Member("A", 2, lost=1)),
            _kolaps(2, "APC", Member("B", 1, lost=1)),
            _kolaps(3, "", Member("C", 4, lost=1)),  # no side: a side of its own
        ]
    )
    assert settled[1].value_destroyed == settled[2].value_destroyed == 4
    assert settled[3].value_destroyed == 3


def test_kolaps_a_dead_avatar_is_lost_k12():
    assert avatar_lost(_kolaps(1, "", Member("A", 1, lost=1, avatar=True)))
    assert not avatar_lost(_kolaps(1, "", Member("A", 1, wounded=True, avatar=True)))


@pytest.mark.parametrize(
    ("points", "figures", "lost", "expected"),
    [
        # CL2: "its cost (R1) divided by its figures, times the figures it lost".
        (272, 4, 1, 68),
        (272, 4, 4, 272),
        (186, 1, 1, 186),  # a Rhino
        (100, 3, 1, 33),  # rounded down
        (100, 3, 9, 100),  # never more than it has
        (100, 0, 1, 0),
    ],
)
def test_rapid40k_prices_the_figures_lost_cl2(points, figures, lost, expected):
    assert squad_points_lost(Member("s", points, figures=figures, lost=lost)) == expected


def test_rapid40k_counts_points_destroyed_and_lost_not_characters_cl2():
    orks = Record(1, "defeat", "Orks", members=(Member("Boyz", 272, figures=4, lost=2),))
    marines = Record(2, "victory", "Marines", members=(Member("Tac", 340, figures=5, lost=1),))
    settled = system_get("rapid40k").settle([orks, marines])
    assert settled == {
        1: Figures(value_destroyed=68, value_lost=136),
        2: Figures(value_destroyed=136, value_lost=68),
    }


def test_the_modern_rpg_keeps_the_xp_awarded_cl4():
    settled = system_get("modern-rpg").settle(
        [Record(1, "played", counts={"xp": 3}), Record(2, "played")]
    )
    assert settled == {1: Figures(xp=3), 2: Figures()}


@pytest.mark.parametrize(
    ("won", "drawn", "lost", "points"), [(1, 0, 0, 3), (0, 1, 0, 1), (0, 0, 1, 0), (2, 1, 3, 7)]
)
def test_standings_points_are_3_per_win_1_per_draw_cl1_cl2(won, drawn, lost, points):
    figures = {"chapters_won": won, "chapters_drawn": drawn, "chapters_lost": lost}
    for slug in ("kolaps", "rapid40k"):
        assert score_of(system_get(slug).standings.score, figures) == points


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.slug)
def test_every_system_declares_its_campaign(system):
    assert system.close.results and system.close.per in (Per.PLAYER, Per.ENTRY)
    assert system.standings.columns
    assert system.standings.ranked == bool(system.standings.score)
    assert system.settle([]) == {}


def test_corporates_asks_each_sheets_levels_at_the_end_cl3():
    """CL3: "each character's fatigue and wound levels carry from session to session": the
    close asks them per sheet entered, within the sheet's levels (catalogue `levels_max`),
    and the party is shown, not a ranking."""
    close = system_get("corporates").close
    asked = {f.name: f.maximum for f in close.asked(Per.ENTRY)}
    assert close.per is Per.ENTRY and close.results == ("played",)
    levels_max = load_catalogue().sheet["levels_max"]
    assert asked == {"fatigue": levels_max, "wounds": levels_max}
    assert not system_get("corporates").standings.ranked


def test_the_modern_rpg_asks_each_sheets_xp_stress_and_wounds_cl4():
    """CL4: "the organiser awards XP at a chapter's close (0 by default) ...; stress and
    wounds carry over": asked per sheet entered; the XP counts in the ledger."""
    close = system_get("modern-rpg").close
    assert close.per is Per.ENTRY
    assert [f.name for f in close.asked(Per.ENTRY)] == ["xp", "stress", "wounds"]
    settled = system_get("modern-rpg").settle([Record(1, "played", counts={"xp": 2, "stress": 3})])
    assert settled == {1: Figures(xp=2)}

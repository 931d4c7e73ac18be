"""Of the Dead at the table: initiative and phase order (O5), movement, markers, the blast,
applying an action's effects to combatants, and the wrap-up phase."""

import random

import pytest

from rules.engine.systems.of_the_dead import explosives, states, turn
from rules.engine.systems.of_the_dead.states import Combatant, apply_effects, wrap_up


def fighter(key="ana", team="survivors", **kw):
    values = {"reflexes": 2, "life": 6, "moral": 4, **kw}
    return Combatant(key=key, team=team, **values)


# --- O5 -------------------------------------------------------------------------------------


def test_initiative_adds_reflexes_moral_life_and_the_markers_modifiers():
    """O5: "Initiative = Réflexes + current Moral + current life markers + modifiers (panic
    -1; stun, bleeding, burning -2; sprint or caution +1)"."""
    assert turn.initiative(fighter()) == 12
    assert turn.initiative(fighter(panic=3)) == 11  # the marker counts once
    assert turn.initiative(fighter(stun=2, bleeding=True, burning=True)) == 6
    assert turn.initiative(fighter(sprint=1, caution=1)) == 14


def test_the_phases_go_ascending_descending_ascending():
    """O5: "Movement phase: ascending initiative; action phase: descending; wrap-up phase:
    ascending"."""
    slow, fast = fighter("slow", reflexes=1), fighter("fast", reflexes=5)
    out = fighter("out", unconscious=True)
    assert [e["key"] for e in turn.phase_order([slow, fast, out], "movement")] == ["slow", "fast"]
    assert [e["key"] for e in turn.phase_order([slow, fast, out], "action")] == ["fast", "slow"]
    assert [e["key"] for e in turn.phase_order([slow, fast], "wrap_up")] == ["slow", "fast"]


def test_a_tie_keeps_the_given_order_unless_a_die_breaks_it():
    """Rule text: "En cas d'égalité entre plusieurs personnages, un jet de dé peut faire la
    différence"."""
    a, b = fighter("a"), fighter("b")
    order = turn.phase_order([a, b], "action")
    assert [e["key"] for e in order] == ["a", "b"] and all(e["tied"] for e in order)
    broken = turn.phase_order([a, b], "action", {"a": 2, "b": 5})
    assert [e["key"] for e in broken] == ["b", "a"]


def test_it_moves_each_allowance_and_lays_its_markers():
    """O5: "Moves: careful 6 cm, normal 12, run 18 (2 noise, 1 zeal), sprint 24 (as run, plus
    1 zeal per extra stride)"."""
    careful = turn.movement(fighter(panic=1), "careful", 6)
    assert careful["allowance_cm"] == 6
    assert careful["effects"] == [{"who": "ana", "markers": {"caution": 1, "panic": -1}}]
    run = turn.movement(fighter(), "run", 18)
    assert run["effects"] == [{"who": "ana", "markers": {"noise": 2, "zeal": 1}}]
    sprint = turn.movement(fighter(), "sprint", 24)
    assert sprint["effects"] == [{"who": "ana", "markers": {"noise": 2, "zeal": 2, "sprint": 1}}]


def test_moving_further_turns_the_move_into_the_next_and_a_sprint_past_its_end_panics():
    """Rule text: "une marche prudente devient une marche normale, une marche normale devient
    une course, un sprint reste un sprint mais le personnage subit un marqueur de Panique"."""
    assert turn.movement(fighter(), "careful", 10)["move"] == "normal"
    assert turn.movement(fighter(), "normal", 15)["move"] == "run"
    past = turn.movement(fighter(), "sprint", 27)
    assert past["move"] == "sprint" and past["effects"][0]["markers"]["panic"] == 1


def test_the_stunned_only_walk_the_stealthy_go_half_speed_and_getting_up_costs_the_move():
    """Étourdissement: "il ne pourra que marcher"; Furtivité: "à la moitié de sa vitesse";
    Trébuchement: "Se relever coutera le mouvement du tour suivant"."""
    assert turn.movement(fighter(stun=2), "run", 18)["possible"] is False
    assert turn.movement(fighter(stealth=1), "normal", 6)["allowance_cm"] == 6
    assert turn.movement(fighter(stealth=1), "normal", 7)["possible"] is False
    up = turn.movement(fighter(on_ground=True), "normal", 0)
    assert up["allowance_cm"] == 0 and up["effects"] == [
        {"who": "ana", "set": {"on_ground": False}}
    ]


# --- Effects on combatants ------------------------------------------------------------------


def test_it_applies_damage_markers_and_team_moral_to_the_right_combatants():
    """O3 damage in life markers; O4 "the roller and their team gain 1 Moral"."""
    ana, bob, zed = fighter("ana"), fighter("bob"), fighter("zed", team="zombies", moral=0)
    effects = [
        {"who": "defender", "life": -2},
        {"who": "attacker", "team_moral": 1},
        {"who": "attacker", "markers": {"caution": -1}},
    ]
    applied = apply_effects([ana, bob, zed], effects, {"attacker": "ana", "defender": "zed"})
    after = applied.by_key()
    assert after["zed"].life == 4
    assert (after["ana"].moral, after["bob"].moral, after["zed"].moral) == (5, 5, 0)
    assert after["ana"].caution == 0
    assert ana.moral == 4  # the states given are never changed


def test_a_combatant_at_no_life_markers_is_dead_and_takes_no_more():
    applied = apply_effects(
        [fighter(life=2)], [{"who": "ana", "life": -3}, {"who": "ana", "moral": -1}], {}
    )
    (ana,) = applied.combatants
    assert ana.dead and ana.life == 0 and ana.moral == 4
    assert {"key": "ana", "event": "died"} in applied.events


def test_as_many_panic_markers_as_moral_stuns_and_a_second_stun_knocks_out():
    """Panique: "Si un personnage cumule autant de marqueurs de Panique que son niveau de
    Moral, alors il subira automatiquement un Étourdissement [...] 3 jetons"; "Si un
    personnage subit un étourdissement supplémentaire, il se retrouvera alors inconscient"."""
    (ana,) = apply_effects(
        [fighter(moral=2, panic=1)], [{"who": "ana", "markers": {"panic": 1}}], {}
    ).combatants
    assert ana.stun == 3
    (ana,) = apply_effects([ana], [{"who": "ana", "set": {"stunned": True}}], {}).combatants
    assert ana.unconscious and ana.stun == 0


def test_catching_fire_burns_panics_and_screams():
    """Feu: "il subit immédiatement les dégâts dus à l'embrasement [...] deux marqueurs de
    Panique ainsi qu'une pile de 3 marqueurs de bruit"."""
    (ana,) = apply_effects([fighter(moral=6)], states.ignite("ana"), {}).combatants
    assert (ana.life, ana.panic, ana.noise, ana.burning) == (4, 2, 3, True)


def test_four_assailants_put_a_figure_on_the_ground():
    """Bagarre: "cerné par 4 ou plus d'adversaires, celui-ci sera mis au sol et perdra un point
    de Moral"."""
    assert states.surrounded("ana", 3) == []
    (ana,) = apply_effects([fighter()], states.surrounded("ana", 4), {}).combatants
    assert ana.on_ground and ana.moral == 3


# --- The blast ------------------------------------------------------------------------------


def test_each_template_does_its_damage_and_its_roll():
    """Explosifs: "Une explosion de gabarit dérisoire, génère 1 point de dégât et un jet de
    Trébuchement. [...] modéré génère 2 points de dégât. Un personnage touché subit un jet
    d'Étourdissement. [...] conséquente génère 3 points de dégât. Un personnage touché subit
    un Évanouissement"."""
    slight = explosives.blast_evaluate(
        {"size": "slight", "fighter": {"reflexes": 1}, "roller_dice": [2], "against_dice": [5]}
    )
    assert slight["damage"] == 1 and slight["check"]["kind"] == "stumble"
    assert {
        "who": "fighter",
        "moral": -1,
        "markers": {"noise": 2},
        "set": {"on_ground": True},
    } in slight["effects"]
    moderate = explosives.blast_evaluate(
        {"size": "moderate", "fighter": {"reflexes": 1}, "roller_dice": [5], "against_dice": [2, 3]}
    )
    assert moderate["damage"] == 2 and moderate["check"]["passed"]
    substantial = explosives.blast_evaluate({"size": "substantial", "fighter": {}})
    assert {"who": "fighter", "set": {"unconscious": True}} in substantial["effects"]
    molotov = explosives.blast_odds({"item": "molotov", "fighter": {"life": 2}})
    assert molotov["effect"] == "fire" and molotov["fighter_dies"] == 1.0


def test_a_thrown_explosive_blasts_next_turn_and_a_molotov_burns_at_once():
    """Explosifs: "ils explosent au tour d'après au début de la phase d'action), mis à part les
    Cocktails Molotov qui n'explosent pas mais prennent feu immédiatement"."""
    body = {"thrower": {"combat": 2, "physique": 4}, "size": "moderate", "distance_cm": 9}
    assert explosives.throw_odds(body)["blast"]["when"] == "next_action_phase"
    assert explosives.throw_odds({**body, "item": "molotov"})["blast"]["when"] == "now"
    assert explosives.throw_odds({**body, "distance_cm": 13})["blocked"] == ["too_far"]
    missed = explosives.throw_roll(
        {**body, "thrower": {"combat": 0, "physique": 4}}, random.Random(1)
    )
    assert missed["on_target"] is False and 1 <= missed["scatter"]["steps"] <= 6
    assert -90 <= missed["scatter"]["angle"] <= 90


# --- The wrap-up phase ----------------------------------------------------------------------


def test_the_wrap_up_decays_noise_counts_down_stun_and_bleeds_and_burns():
    """Phase de dénouement: "Tous les marqueurs de Prudence [...] doivent être retirés [...]
    Chaque pile de marqueurs de Bruit se défausse d'un marqueur [...] Les personnages disposant
    de marqueurs Étourdissement supprime un marqueur"; Saignement: "perdra un marqueur de vie à
    chaque tour"; Feu: "perd deux points de vie à chaque tour [...] Tous les membres de son
    équipe, lui y compris perdent un point de moral par tour"."""
    ana = fighter("ana", noise=2, caution=1, stun=1)
    bob = fighter("bob", bleeding=True)
    cy = fighter("cy", burning=True)
    zed = fighter("zed", team="zombies")
    after = wrap_up([ana, bob, cy, zed]).by_key()
    assert (after["ana"].noise, after["ana"].caution, after["ana"].stun) == (1, 0, 0)
    assert after["bob"].life == 5 and after["bob"].stun == 3  # stunned the turn after
    assert after["cy"].life == 4
    assert [after[k].moral for k in ("ana", "bob", "cy", "zed")] == [3, 3, 3, 4]
    again = wrap_up(list(after.values())).by_key()
    assert again["bob"].unconscious and again["bob"].life == 4


def test_first_aid_stops_the_bleeding_of_the_treated():
    """Saignement: "si il ne se soigne pas, ou si personne ne lui prodigue les premiers
    soins"."""
    after = wrap_up([fighter(bleeding=True)], treated={"ana"}).by_key()
    assert after["ana"].life == 6


@pytest.mark.parametrize("name", ["initiative", "wrap_up"])
def test_the_certain_resolvers_answer_their_three_verbs_alike(name):
    body = {"combatants": [{"key": "ana", "life": 4, "moral": 3, "reflexes": 2, "noise": 1}]}
    evaluate = getattr(turn, f"{name}_evaluate")(body)
    assert getattr(turn, f"{name}_roll")(body, random.Random(0)) == evaluate
    assert getattr(turn, f"{name}_odds")(body)["probability"] == 1.0

"""Of the Dead at the live table: created from a chapter (its players' characters, then the
zombies the organiser adds), the turn in initiative order (RULES-NOTES O5), actions whose
effects the engine applies at once (O3, O4), the wrap-up automation, undo, and the end that
fills the chapter's close."""

from fractions import Fraction
from itertools import product

import pytest
from django.utils import translation

from characters.permissions import Forbidden, Refusal
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_replay
from rules.table.models import Combatant, EncounterEntry, EntryKind, Phase
from rules.table.services import (
    ActionInput,
    NewCombatants,
    Stale,
    encounter_act,
    encounter_add_combatants,
    encounter_advance,
    encounter_create_quick_party,
    encounter_end,
    encounter_odds,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.rules.table.otd_fixtures import add_zombies, named, otd_table, pass_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return otd_table()


def act(player, encounter, kind, actor, target=None, **kw):
    action = ActionInput(kind=kind, actor=actor.pk, target=(target or actor).pk, **kw)
    return encounter_act(actor=player, encounter=encounter, version=None, action=action)


def to_action_phase(organiser, encounter):
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    encounter.refresh_from_db()


def test_a_chapters_encounter_holds_its_players_characters_then_the_zombies_added(table):
    """O1: "Life markers = 2 x Physique; Moral = 2 x Psychique" (the profiles' own)."""
    encounter, _organiser, anna, boris = table
    rows = Combatant.objects.filter(encounter=encounter).order_by("position")
    assert [(c.name, c.side, c.player_id) for c in rows] == [
        ("Anna", "survivors", anna.pk),
        ("Boris", "survivors", boris.pk),
        ("Zonard 1", "zombies", None),
        ("Zonard 2", "zombies", None),
    ]
    assert (rows[0].state["life"], rows[0].state["moral"]) == (4, 4)
    assert (rows[1].state["life"], rows[1].state["moral"]) == (6, 4)
    assert rows[2].state["zombie_type"] == "zonard"
    assert encounter.system == "of-the-dead" and encounter.phase == Phase.MOVEMENT
    assert encounter.attacker_side == ""


def test_only_the_organisers_add_zombies_and_the_numbers_are_checked(table):
    encounter, organiser, anna, _boris = table
    with pytest.raises(Forbidden):
        add_zombies(anna, encounter)
    with pytest.raises(Refusal) as refused:
        encounter_add_combatants(
            actor=organiser,
            encounter=encounter,
            version=None,
            spec=NewCombatants(kind="zombie", zombie_type="ghoul", count=1),
        )
    assert refused.value.field == "zombie_type"
    with pytest.raises(Refusal) as refused:
        add_zombies(organiser, encounter, count=21)
    assert refused.value.field == "count"


def test_the_initiative_order_is_recomputed_from_the_live_state(table, client):
    """O5: "Initiative = Réflexes + current Moral + current life markers + modifiers (panic
    -1; stun, bleeding, burning -2; sprint or caution +1). Movement phase: ascending
    initiative; action phase: descending"."""
    from rules.table import of_the_dead

    encounter, _organiser, anna, _boris = table
    everyone = list(Combatant.objects.filter(encounter=encounter))
    # Anna 3 + 4 + 4 = 11, Boris 1 + 4 + 6 = 11, the zonards 1 + 0 + 2 = 3.
    moving = of_the_dead.ADAPTER.order(everyone, Phase.MOVEMENT)
    assert [(r["name"], r["initiative"]) for r in moving] == [
        ("Zonard 1", 3),
        ("Zonard 2", 3),
        ("Anna", 11),
        ("Boris", 11),
    ]
    # A careful walk lays a caution marker: +1, Anna plays first in the action phase.
    pass_until(_organiser, encounter, "Anna")
    act(
        anna,
        encounter,
        "move",
        named(encounter, "Anna"),
        distance_cm=6,
        options={"move": "careful"},
    )
    everyone = list(Combatant.objects.filter(encounter=encounter))
    acting = of_the_dead.ADAPTER.order(everyone, Phase.ACTION)
    assert [(r["name"], r["initiative"]) for r in acting][:2] == [("Anna", 12), ("Boris", 11)]


def test_a_move_lays_its_markers_and_waits_for_the_movement_phase(table):
    """O5: "run 18 (2 noise, 1 zeal)"."""
    encounter, organiser, anna, _boris = table
    me = named(encounter, "Anna")
    pass_until(organiser, encounter, "Anna")
    act(anna, encounter, "move", me, distance_cm=18, options={"move": "run"})
    me.refresh_from_db()
    assert (me.state["noise"], me.state["zeal"]) == (2, 1)
    to_action_phase(organiser, encounter)
    with pytest.raises(Refusal):
        act(anna, encounter, "move", me, distance_cm=6, options={"move": "careful"})


def test_a_brawl_typed_by_hand_cancels_criticals_first_and_kills_a_zombie(table):
    """O3: "Each defender success cancels one attacker success, critical ones first.
    Remaining attacker successes are the damage (life markers)"; O2: "1 is a fiasco, 4 and
    5 are successes, 6 is a critical success"."""
    encounter, organiser, anna, _boris = table
    to_action_phase(organiser, encounter)
    me, zombie = named(encounter, "Anna"), named(encounter, "Zonard 1")
    entry = act(
        anna, encounter, "brawl", me, zombie,
        dice={"attacker_dice": [6, 5], "defender_dice": [4, 2]},
    )  # fmt: skip
    zombie.refresh_from_db()
    me.refresh_from_db()
    # 6 and 5 against one success: the critical is cancelled, 1 damage is left.
    assert entry.data["outcome"]["damage"] == 1 and entry.roll is None
    assert zombie.state["life"] == 1 and not zombie.dead
    # Anna has played this phase: a second brawl is the organiser's, out of turn.
    act(
        organiser,
        encounter,
        "brawl",
        me,
        zombie,
        dice={"attacker_dice": [5, 4], "defender_dice": [1, 2]},
        options={"out_of_turn": True},
    )
    zombie.refresh_from_db()
    me.refresh_from_db()
    assert zombie.dead and zombie.state["life"] == 0
    assert me.kills == 1 and me.state["kills_by_type"] == {"zonard": 1}
    # The damage counted is the life markers taken away (the second brawl's 2 on 1 left).
    assert me.state["damage_dealt"] == 2 and zombie.state["damage_taken"] == 2


def test_the_odds_of_a_brawl_equal_the_brute_force_of_its_dice(table):
    """O2-O3 by enumeration: Combat 2 against Combat 2, every one of the 6^4 throws."""
    encounter, organiser, _anna, _boris = table
    to_action_phase(organiser, encounter)
    me, zombie = named(encounter, "Anna"), named(encounter, "Zonard 1")
    odds = encounter_odds(
        encounter=encounter, action=ActionInput(kind="brawl", actor=me.pk, target=zombie.pk)
    )

    def hits(faces):
        return sum(1 for f in faces if f >= 4), sum(1 for f in faces if f == 6)

    damage: dict[int, Fraction] = {}
    for a1, a2, d1, d2 in product(range(1, 7), repeat=4):
        successes, _criticals = hits((a1, a2))
        defence, _ = hits((d1, d2))
        left = max(0, successes - defence)
        damage[left] = damage.get(left, Fraction(0)) + Fraction(1, 6**4)
    assert {int(k): Fraction(v) for k, v in odds["damage_exact"].items()} == damage
    # The zonard has 2 life markers: it dies on 2 damage.
    assert Fraction(odds["target_dies_exact"]) == damage[2]


def test_a_server_roll_is_recorded_and_replays(table):
    encounter, organiser, anna, _boris = table
    to_action_phase(organiser, encounter)
    entry = act(anna, encounter, "shot", named(encounter, "Anna"), named(encounter, "Zonard 2"))
    record = RollRecord.objects.get(pk=entry.roll_id)
    assert record.system == "of-the-dead" and record.resolver == "shot"
    assert roll_replay(record=record)["outcome"] == entry.data["outcome"]


def test_a_backfire_costs_the_whole_team_a_point_of_moral(table):
    """O4: "Backfire ("revers de médaille"): more than 3 fiascos (4 or more), the roller
    and their team lose 1 Moral"."""
    encounter, organiser, _anna, boris = table
    add_zombies(organiser, encounter, "mastard", 1, combat=4)
    to_action_phase(organiser, encounter)
    mastard, target = named(encounter, "Mastard"), named(encounter, "Boris")
    pass_until(organiser, encounter, "Mastard")
    act(
        organiser, encounter, "brawl", mastard, target,
        dice={"attacker_dice": [1, 1, 1, 1], "defender_dice": [2, 2, 2]},
    )  # fmt: skip
    zombies = Combatant.objects.filter(encounter=encounter, side="zombies")
    # The zombies' Moral is 0 already (its floor); the survivors are untouched.
    assert {z.state["moral"] for z in zombies} == {0}
    survivors = Combatant.objects.filter(encounter=encounter, side="survivors")
    assert {s.state["moral"] for s in survivors} == {4}
    del boris


def test_a_lucky_break_raises_the_rollers_team(table):
    """O4: "3 or more criticals in one roll, the roller and their team gain 1 Moral"."""
    encounter, organiser, _anna, boris = table
    to_action_phase(organiser, encounter)
    me, zombie = named(encounter, "Boris"), named(encounter, "Zonard 1")
    act(
        boris, encounter, "brawl", me, zombie,
        dice={"attacker_dice": [6, 6, 6], "defender_dice": [1, 2]},
    )  # fmt: skip
    survivors = Combatant.objects.filter(encounter=encounter, side="survivors")
    assert {s.name: s.state["moral"] for s in survivors} == {"Anna": 5, "Boris": 5}


def test_a_panicked_fighter_cannot_attack_and_says_so(table):
    """Panique: a panicked figure "ne pourra pas agir dans la phase d'action"."""
    encounter, organiser, anna, _boris = table
    me = named(encounter, "Anna")
    me.state = {**me.state, "panic": 1}
    me.save(update_fields=["state"])
    to_action_phase(organiser, encounter)
    pass_until(organiser, encounter, "Anna")  # Boris (11) before her (10 with the panic)
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        act(anna, encounter, "brawl", me, named(encounter, "Zonard 1"))
    assert "paniqué" in str(refused.value.message)  # in French (another test may leave English)
    # Pulling together takes the panic marker away ("supprime un marqueur de panique").
    act(anna, encounter, "pull_together", me)
    me.refresh_from_db()
    assert me.state["panic"] == 0


def test_the_wrap_up_decays_noise_counts_stun_down_and_bleeds(table):
    """Phase de dénouement: every noise pile loses one marker, a stunned figure one stun
    token, a bleeding one not treated a life marker (then it is stunned)."""
    encounter, organiser, anna, boris = table
    me, him = named(encounter, "Anna"), named(encounter, "Boris")
    me.state = {**me.state, "noise": 3, "stun": 2}
    him.state = {**him.state, "bleeding": True}
    for c in (me, him):
        c.save(update_fields=["state"])
    to_action_phase(organiser, encounter)
    encounter_advance(actor=organiser, encounter=encounter, version=None)  # wrap-up
    entry = encounter_advance(actor=organiser, encounter=encounter, version=None)
    me.refresh_from_db()
    him.refresh_from_db()
    encounter.refresh_from_db()
    assert (me.state["noise"], me.state["stun"]) == (2, 1)
    assert him.state["life"] == 5 and him.state["stun"] == 3
    assert entry.kind == EntryKind.END_PHASE and (encounter.turn, encounter.phase) == (
        2,
        Phase.MOVEMENT,
    )
    del anna, boris


def test_first_aid_spares_the_bleeding_at_the_wrap_up(table):
    """Premiers soins: "arrêter un saignement"."""
    encounter, organiser, anna, _boris = table
    me, him = named(encounter, "Anna"), named(encounter, "Boris")
    him.state = {**him.state, "bleeding": True}
    him.save(update_fields=["state"])
    to_action_phase(organiser, encounter)
    act(anna, encounter, "first_aid", me, him)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    him.refresh_from_db()
    assert him.state["life"] == 6 and not him.state["bleeding"] and not him.state["treated"]


def test_undo_puts_back_what_the_action_changed(table):
    encounter, organiser, anna, _boris = table
    to_action_phase(organiser, encounter)
    me, zombie = named(encounter, "Anna"), named(encounter, "Zonard 1")
    before = (dict(me.state), dict(zombie.state))
    entry = act(
        anna, encounter, "brawl", me, zombie,
        dice={"attacker_dice": [5, 4], "defender_dice": [1, 2]},
    )  # fmt: skip
    encounter_undo(actor=anna, encounter=encounter, version=None)
    me.refresh_from_db()
    zombie.refresh_from_db()
    assert (me.state, zombie.state) == before and not zombie.dead and me.kills == 0
    assert EncounterEntry.objects.get(pk=entry.pk).undone_by is not None


def test_a_stale_version_is_refused_with_the_new_state(table):
    encounter, organiser, anna, _boris = table
    seen = encounter.version
    to_action_phase(organiser, encounter)
    with pytest.raises(Stale):
        encounter_act(
            actor=anna,
            encounter=encounter,
            version=seen,
            action=ActionInput(kind="make_noise", actor=named(encounter, "Anna").pk),
        )


def test_a_player_acts_only_for_their_own_character(table):
    encounter, organiser, anna, _boris = table
    to_action_phase(organiser, encounter)
    with pytest.raises(Forbidden):
        act(anna, encounter, "make_noise", named(encounter, "Boris"))
    with pytest.raises(Forbidden):
        act(anna, encounter, "brawl", named(encounter, "Zonard 1"), named(encounter, "Anna"))


def test_ending_it_sums_up_kills_by_type_deaths_and_damage_for_the_close(table):
    encounter, organiser, anna, boris = table
    add_zombies(organiser, encounter, "braillard", 1)
    to_action_phase(organiser, encounter)
    me, zonard = named(encounter, "Anna"), named(encounter, "Zonard 1")
    braillard = named(encounter, "Braillard")
    act(
        anna,
        encounter,
        "brawl",
        me,
        zonard,
        dice={"attacker_dice": [5, 4], "defender_dice": [1, 3]},
    )
    act(
        organiser,
        encounter,
        "brawl",
        me,
        braillard,
        dice={"attacker_dice": [5, 4], "defender_dice": [2, 3]},
        options={"out_of_turn": True},
    )
    pass_until(organiser, encounter, "Zonard 2")
    act(
        organiser, encounter, "brawl", named(encounter, "Zonard 2"), named(encounter, "Boris"),
        dice={"attacker_dice": [4, 4], "defender_dice": [1, 1, 2]},
    )  # fmt: skip
    ended = encounter_end(actor=organiser, encounter=encounter, version=None)
    record = ended.chapter.table_record if ended.chapter else {}
    encounter.chapter.refresh_from_db()
    record = encounter.chapter.table_record
    assert record["ended"] and record["zombies_killed"] == {"zonard": 1, "braillard": 1}
    assert record["players"][str(anna.pk)]["kills"] == {"zonard": 1, "braillard": 1}
    assert record["players"][str(anna.pk)]["damage_dealt"] == 4
    assert record["players"][str(boris.pk)]["damage_taken"] == 2
    assert not record["players"][str(boris.pk)]["died"]


def test_a_quick_party_brings_your_living_character(table):
    _encounter, _organiser, anna, _boris = table
    party = encounter_create_quick_party(actor=anna, title="")
    names = list(Combatant.objects.filter(encounter=party).values_list("name", "player_id"))
    assert names == [("Anna", anna.pk)] and party.created_by_id == anna.pk
    stranger = PlayerFactory(username="zed")
    empty = encounter_create_quick_party(actor=stranger, title="Seul")
    assert not Combatant.objects.filter(encounter=empty).exists()


def test_a_molotov_on_target_sets_its_target_on_fire_at_once(table):
    """Feu: "il subit immédiatement les dégâts dus à l'embrasement [...] deux marqueurs de
    Panique ainsi qu'une pile de 3 marqueurs de bruit"."""
    encounter, organiser, _anna, boris = table
    add_zombies(organiser, encounter, "mastard", 1, life=6)
    to_action_phase(organiser, encounter)
    me, mastard = named(encounter, "Boris"), named(encounter, "Mastard")
    # Boris (Combat 3, Physique 3) throws 6 cm (2 steps): 3 dice against the zone's 2.
    entry = act(
        boris, encounter, "throw", me, mastard, distance_cm=6, options={"item": "molotov"},
        dice={"thrower_dice": [5, 4, 2], "zone_dice": [2, 3]},
    )  # fmt: skip
    mastard.refresh_from_db()
    assert entry.data["outcome"]["on_target"]
    assert mastard.state["burning"] and mastard.state["panic"] == 2
    assert mastard.state["noise"] == 3 and mastard.state["life"] < 6


def test_a_throw_too_far_is_refused_before_the_dice(table):
    """Explosifs: the throw reaches "le nombre de pas équivalent aux points de physique"."""
    encounter, organiser, anna, _boris = table
    to_action_phase(organiser, encounter)
    me, zombie = named(encounter, "Anna"), named(encounter, "Zonard 1")
    with pytest.raises(Refusal) as refused:
        encounter_odds(
            encounter=encounter,
            action=ActionInput(kind="throw", actor=me.pk, target=zombie.pk, distance_cm=60),
        )
    assert refused.value.field == "kind"
    del anna


def test_caught_in_a_moderate_blast_costs_two_life_markers_and_a_stun_roll(table):
    """Explosifs: "a moderate one 2 and a stun roll" (the blast, next turn)."""
    encounter, organiser, anna, boris = table
    to_action_phase(organiser, encounter)
    me, him = named(encounter, "Anna"), named(encounter, "Boris")
    act(
        anna, encounter, "blast", me, him, options={"item": "explosive", "size": "moderate"},
        dice={"roller_dice": [2], "against_dice": [4, 5]},
    )  # fmt: skip
    him.refresh_from_db()
    assert him.state["life"] == 4 and him.state["stun"] == 3
    del boris


def test_flee_rolls_an_evasion_whose_odds_equal_brute_force(table):
    """Fuir: after a successful evasion roll (Réflexes against the blocker's Combat), "1
    marqueur Zèle, 2 marqueurs de Panique et 2 marqueurs de Bruit"."""
    encounter, organiser, anna, _boris = table
    to_action_phase(organiser, encounter)
    me, zombie = named(encounter, "Anna"), named(encounter, "Zonard 1")
    odds = encounter_odds(
        encounter=encounter, action=ActionInput(kind="flee", actor=me.pk, target=zombie.pk)
    )
    # Réflexes 3 against Combat 2: passes when a success is left after the cancelling.
    passed = Fraction(0)
    for faces in product(range(1, 7), repeat=5):
        mine = sum(1 for f in faces[:3] if f >= 4)
        theirs = sum(1 for f in faces[3:] if f >= 4)
        if mine > theirs:
            passed += Fraction(1, 6**5)
    assert Fraction(odds["passed_exact"]) == passed
    act(
        anna, encounter, "flee", me, zombie, dice={"roller_dice": [5, 5, 1], "against_dice": [2, 3]}
    )
    me.refresh_from_db()
    assert (me.state["zeal"], me.state["panic"], me.state["noise"]) == (1, 2, 2)


def test_the_close_form_starts_from_the_encounter(client, table):
    from django.conf import settings
    from django.urls import reverse

    encounter, organiser, anna, boris = table
    to_action_phase(organiser, encounter)
    act(
        anna, encounter, "brawl", named(encounter, "Anna"), named(encounter, "Zonard 1"),
        dice={"attacker_dice": [5, 4], "defender_dice": [1, 3]},
    )  # fmt: skip
    encounter_end(actor=organiser, encounter=encounter, version=None)
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("chapter-detail", args=[encounter.chapter_id])).content.decode()
    assert 'id="table-link"' in page
    html = client.get(reverse("chapter-close", args=[encounter.chapter_id])).content.decode()
    assert 'id="table-summary-players"' in html and "Zonard 1" in html
    kills = f'name="p{anna.pk}_kills_zonard"'
    assert 'value="1"' in html[html.index(kills) - 120 : html.index(kills) + 120]
    del boris


def test_a_fighter_surrounded_by_four_is_put_on_the_ground_and_loses_moral_once(table):
    """Bagarre: "Si un personnage est cerné par 4 ou plus d'adversaires, celui-ci sera mis
    au sol et perdra un point de Moral"; "Le personnage cerné perd un dé à chaque duel"."""
    encounter, organiser, _anna, boris = table
    to_action_phase(organiser, encounter)
    zombie, target = named(encounter, "Zonard 1"), named(encounter, "Boris")
    odds = encounter_odds(
        encounter=encounter,
        action=ActionInput(
            kind="brawl", actor=zombie.pk, target=target.pk, options={"surrounded_by": 4}
        ),
    )
    assert odds["on_the_ground"] and odds["defence_dice"] < 3
    hand = {"attacker_dice": [2, 3], "defender_dice": [2] * odds["defence_dice"]}
    pass_until(organiser, encounter, "Zonard 1")
    for _turn in range(2):
        act(organiser, encounter, "brawl", zombie, target, dice=hand,
            options={"surrounded_by": 4, "out_of_turn": bool(_turn)})  # fmt: skip
    target.refresh_from_db()
    assert target.state["on_ground"] and target.state["moral"] == 3
    del boris


def test_a_move_rolls_no_dice_and_records_no_roll(table):
    encounter, organiser, anna, _boris = table
    pass_until(organiser, encounter, "Anna")
    entry = act(anna, encounter, "move", named(encounter, "Anna"), distance_cm=12)
    assert entry.roll_id is None and not RollRecord.objects.exists()

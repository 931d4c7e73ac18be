"""The live encounter's services: one writer, versions, consequences, undo, end phase.

Quoted rules (../shared/RULES-NOTES.md):
K8  "serious -3, death roll, attacker +1 Moral ... Damage never takes Santé below 1: death
     comes from death rolls."
K14 "Breath: +1 when none was spent and not engaged, unless Santé <= 3 ... Santé + Souffle
     <= 6 means unconscious next turn."
K15 "Attacker of the next turn: most revealed characters of rank Aguerri or more with Moral
     >= 3; then most Novices; then the previous attacker."
"""

from fractions import Fraction

import pytest

from characters.permissions import Forbidden, Refusal
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_replay
from rules.table.models import Combatant, EncounterEntry, EntryKind, Phase
from rules.table.services import (
    ActionInput,
    Stale,
    encounter_act,
    encounter_advance,
    encounter_end,
    encounter_odds,
    encounter_reveal,
    encounter_set_directive,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    police = list(Combatant.objects.filter(encounter=encounter, side="Brigade"))
    hunters = list(Combatant.objects.filter(encounter=encounter, side="Meute"))
    return encounter, organiser, opponent, police, hunters


def _fresh(encounter):
    encounter.refresh_from_db()
    return encounter


def test_it_creates_a_combatant_for_each_character_with_its_gauges_and_weapons(game):
    encounter, _organiser, opponent, police, hunters = game
    assert [c.name for c in police] == ["Martel", "Roux"]
    assert [c.player_id for c in hunters] == [opponent.pk, opponent.pk]
    assert police[1].weapons == ["pa-police-50", "fa-f4", "matraque-composite"]
    assert encounter.version == 1 and encounter.phase == Phase.SPEECH and encounter.turn == 1
    assert EncounterEntry.objects.get(encounter=encounter).kind == EntryKind.CREATED


def test_a_serious_wound_by_hand_costs_3_sante_and_rolls_for_death(game):
    """K8: "serious -3, death roll"; a death die of 6 survives any threshold."""
    encounter, organiser, _opponent, _police, hunters = game
    entry = encounter_act(
        actor=organiser,
        encounter=encounter,
        version=1,
        action=ActionInput(
            kind="wound", target=hunters[1].pk, wound="serious", dice={"death_die": [6]}
        ),
    )
    hunters[1].refresh_from_db()
    assert (hunters[1].sante, hunters[1].dead, hunters[1].wounds) == (3, False, 1)
    assert entry.version == 2 and entry.data["by_hand"] is True and entry.roll is None


def test_a_death_die_under_the_threshold_kills(game):
    """K8: a death roll "below the threshold the character dies" (Santé 3: threshold 4)."""
    encounter, organiser, _opponent, _police, hunters = game
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=1,
        action=ActionInput(
            kind="wound", target=hunters[1].pk, wound="serious", dice={"death_die": [1]}
        ),
    )
    hunters[1].refresh_from_db()
    assert hunters[1].dead and hunters[1].on_ground


def test_a_missing_follow_up_die_is_asked_for_in_a_sentence(game):
    encounter, organiser, _opponent, _police, hunters = game
    with pytest.raises(Refusal) as refused:
        encounter_act(
            actor=organiser,
            encounter=encounter,
            version=1,
            action=ActionInput(kind="wound", target=hunters[1].pk, wound="serious", dice={}),
        )
    assert refused.value.field == "death_die"
    assert _fresh(encounter).version == 1


def test_a_server_shot_is_recorded_and_replays_to_the_same_outcome(game):
    encounter, organiser, _opponent, police, hunters = game
    encounter_advance(actor=organiser, encounter=encounter, version=1)
    entry = encounter_act(
        actor=organiser,
        encounter=encounter,
        version=2,
        action=ActionInput(kind="ranged", actor=police[0].pk, target=hunters[0].pk, distance_cm=20),
    )
    record = RollRecord.objects.get(pk=entry.roll_id)
    assert record.resolver == "ranged" and record.player_id == organiser.pk
    assert roll_replay(record=record)["matches"]
    assert entry.data["outcome"] == record.outcome
    police[0].refresh_from_db()
    assert police[0].revealed


def test_the_odds_are_exact_fractions_before_the_dice(game):
    encounter, _organiser, _opponent, police, hunters = game
    odds = encounter_odds(
        encounter=encounter,
        action=ActionInput(kind="ranged", actor=police[1].pk, target=hunters[0].pk, distance_cm=30),
    )
    assert "/" in odds["target_dies_exact"]
    assert sum(Fraction(v) for v in odds["rows_exact"].values()) == 1


def test_a_stale_version_is_refused_and_nothing_changes(game):
    encounter, organiser, _opponent, _police, hunters = game
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=1,
        action=ActionInput(kind="wound", target=hunters[0].pk, wound="superficial"),
    )
    with pytest.raises(Stale) as stale:
        encounter_act(
            actor=organiser,
            encounter=encounter,
            version=1,
            action=ActionInput(kind="wound", target=hunters[0].pk, wound="superficial"),
        )
    assert stale.value.status == 409
    hunters[0].refresh_from_db()
    assert hunters[0].sante == 5 and _fresh(encounter).version == 2


def test_a_player_acts_only_for_their_own_combatants(game):
    encounter, organiser, opponent, police, hunters = game
    encounter_advance(actor=organiser, encounter=encounter, version=1)
    with pytest.raises(Forbidden):
        encounter_act(
            actor=opponent,
            encounter=encounter,
            version=2,
            action=ActionInput(kind="melee", actor=police[0].pk, target=hunters[0].pk),
        )
    entry = encounter_act(
        actor=opponent,
        encounter=encounter,
        version=2,
        action=ActionInput(kind="melee", actor=hunters[0].pk, target=police[0].pk),
    )
    assert entry.author_id == opponent.pk
    stranger = PlayerFactory(username="stranger")
    with pytest.raises(Forbidden):
        encounter_undo(actor=stranger, encounter=encounter, version=3)


def test_undo_puts_back_what_the_last_action_changed(game):
    encounter, organiser, opponent, _police, hunters = game
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=1,
        action=ActionInput(kind="wound", target=hunters[0].pk, wound="benign"),
    )
    with pytest.raises(Forbidden):
        encounter_undo(actor=opponent, encounter=encounter, version=2)
    undo = encounter_undo(actor=organiser, encounter=encounter, version=2)
    hunters[0].refresh_from_db()
    assert (hunters[0].sante, hunters[0].wounds) == (6, 0)
    action = EncounterEntry.objects.get(encounter=encounter, version=2)
    assert action.undone_by == undo
    with pytest.raises(Refusal):
        encounter_undo(actor=organiser, encounter=encounter, version=3)


def test_directives_are_given_in_speech_and_revealed_on_demand(game):
    encounter, _organiser, opponent, police, hunters = game
    encounter_set_directive(
        actor=opponent,
        encounter=encounter,
        version=1,
        combatant=hunters[0].pk,
        directive="offensive",
    )
    hunters[0].refresh_from_db()
    assert (hunters[0].directive, hunters[0].revealed) == ("offensive", False)
    with pytest.raises(Forbidden):
        encounter_reveal(actor=opponent, encounter=encounter, version=2, combatant=police[0].pk)
    encounter_reveal(actor=opponent, encounter=encounter, version=2, combatant=hunters[0].pk)
    hunters[0].refresh_from_db()
    assert hunters[0].revealed


def test_the_end_phase_recovers_breath_and_picks_the_next_attacker(game):
    """K14: +1 Souffle when none was spent; K15: the side with more revealed Aguerris of
    Moral >= 3 attacks next."""
    encounter, organiser, opponent, police, hunters = game
    Combatant.objects.filter(pk=police[1].pk).update(souffle=3)
    for version, hunter in ((1, hunters[0]), (3, hunters[1])):
        encounter_set_directive(
            actor=opponent, encounter=encounter, version=version, combatant=hunter.pk,
            directive="offensive",
        )  # fmt: skip
        encounter_reveal(
            actor=opponent, encounter=encounter, version=version + 1, combatant=hunter.pk
        )
    encounter_advance(actor=organiser, encounter=encounter, version=5)
    end = encounter_advance(actor=organiser, encounter=encounter, version=6)
    assert end.kind == EntryKind.END_PHASE
    encounter = _fresh(encounter)
    assert (encounter.turn, encounter.phase, encounter.attacker_side) == (2, Phase.SPEECH, "Meute")
    police[1].refresh_from_db()
    hunters[0].refresh_from_db()
    assert police[1].souffle == 4
    assert (hunters[0].directive, hunters[0].revealed) == ("", False)


def test_only_organisers_move_the_turn_on_or_end_it(game):
    encounter, organiser, opponent, _police, hunters = game
    with pytest.raises(Forbidden):
        encounter_advance(actor=opponent, encounter=encounter, version=1)
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=1,
        action=ActionInput(kind="wound", target=hunters[0].pk, wound="lethal"),
    )
    ended = encounter_end(actor=organiser, encounter=encounter, version=2)
    assert ended.summary["sides"]["Meute"]["lost"] == ["Croc"]
    with pytest.raises(Refusal):
        encounter_advance(actor=organiser, encounter=encounter, version=3)

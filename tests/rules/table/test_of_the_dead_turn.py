"""Of the Dead's turn enforced at the live table: each phase goes figure by figure
in initiative order (RULES-NOTES O5), recomputed from the live state after every change;
a figure out of its turn is refused with a sentence naming who plays now; the organiser
may let it act out of turn; undo puts the turn back.

O5: "Initiative = Réflexes + current Moral + current life markers + modifiers (panic -1;
stun, bleeding, burning -2; sprint or caution +1). Movement phase: ascending initiative;
action phase: descending; wrap-up phase: ascending."

In the fixture: Anna (Réflexes 3, Moral 4, life 4) and Boris (1, 4, 6) are both at 11, the
two zonards (1, 0, 2) at 3.
"""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from characters.permissions import Forbidden, Refusal
from rules.table.models import EncounterEntry, Phase
from rules.table.services import (
    ActionInput,
    NewCombatants,
    encounter_act,
    encounter_add_combatants,
    encounter_advance,
    encounter_create_for_chapter,
    encounter_undo,
)
from tests.rules.table.otd_fixtures import (
    add_zombies,
    named,
    otd_chapter,
    otd_table,
    pass_until,
    playing_now,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return otd_table()


def act(player, encounter, kind, name, target=None, **kw):
    actor = named(encounter, name)
    aimed = named(encounter, target) if target else actor
    action = ActionInput(kind=kind, actor=actor.pk, target=aimed.pk, **kw)
    return encounter_act(actor=player, encounter=encounter, version=None, action=action)


def advance(organiser, encounter):
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    encounter.refresh_from_db()


def add_dog(organiser, encounter, **stats):
    """A non-player character of the survivors: Réflexes 3 + Moral 4 + life 2 = 9."""
    values = {"reflexes": 3, "combat": 1, "life": 2, "moral": 4, **stats}
    spec = NewCombatants(kind="npc", name="Le chien", side="survivors", **values)
    encounter_add_combatants(actor=organiser, encounter=encounter, version=None, spec=spec)
    encounter.refresh_from_db()


def test_it_refuses_a_move_out_of_turn_with_a_sentence_naming_who_moves_now(table):
    """O5: "Movement phase: ascending initiative" ("À tour de rôle dans l'ordre croissant
    de valeur d'initiative"): the zonards (3) move before Anna (11)."""
    encounter, organiser, anna, _boris = table
    assert playing_now(encounter) == ["Zonard 1", "Zonard 2"]
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        act(anna, encounter, "move", "Anna", distance_cm=12)
    # In French (the default), the sentence names who plays now and their initiative.
    assert str(refused.value.message) == (
        "Anna doit attendre son tour. À jouer maintenant\u00a0: Zonard 1, Zonard 2 (initiative 3)."
    )
    assert refused.value.field == "actor" and refused.value.status == 400
    # The organiser's zombies are held to the order too: they move, then it is Anna's turn.
    act(organiser, encounter, "move", "Zonard 1", distance_cm=12)
    act(organiser, encounter, "pass", "Zonard 2")
    assert playing_now(encounter) == ["Anna", "Boris"]
    act(anna, encounter, "move", "Anna", distance_cm=12)
    assert named(encounter, "Anna").state["played"] == "1:movement"


def test_a_figure_plays_once_per_phase_and_tied_figures_share_their_step(table):
    """O5, action phase: "Les actions se jouent dans l'ordre décroissant de valeur
    d'initiative des personnages (ou groupe de personnages)": Anna and Boris, tied at 11,
    play in either order, once each, before the zonards."""
    encounter, organiser, anna, boris = table
    advance(organiser, encounter)
    assert playing_now(encounter) == ["Anna", "Boris"]
    act(boris, encounter, "make_noise", "Boris")  # free ("une action gratuite"): still his turn
    act(boris, encounter, "shot", "Boris", "Zonard 1")
    assert playing_now(encounter) == ["Anna"]
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        act(boris, encounter, "brawl", "Boris", "Zonard 2")
    assert str(refused.value.message) == "Boris a déjà joué dans cette phase."
    act(anna, encounter, "pass", "Anna")
    assert set(playing_now(encounter)) <= {"Zonard 1", "Zonard 2"} and playing_now(encounter)


def test_the_organiser_may_let_a_figure_act_out_of_turn_and_a_player_may_not(table):
    """The override (docs/table.md): an organiser's action with `out_of_turn`, logged as
    such; a player asking for it is refused."""
    encounter, organiser, anna, _boris = table
    with pytest.raises(Forbidden):
        act(anna, encounter, "move", "Anna", distance_cm=12, options={"out_of_turn": True})
    entry = act(organiser, encounter, "move", "Anna", distance_cm=12, options={"out_of_turn": True})
    assert entry.data["out_of_turn"]
    # Anna has had her move; the zonards still move first.
    assert playing_now(encounter) == ["Zonard 1", "Zonard 2"]
    with pytest.raises(Refusal):
        act(anna, encounter, "move", "Anna", distance_cm=6)


def test_only_true_asks_for_the_override(table):
    """An API client sending "false" (or any string) for `out_of_turn` follows the order."""
    encounter, organiser, _anna, _boris = table
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        act(organiser, encounter, "move", "Anna", distance_cm=12, options={"out_of_turn": "false"})
    assert "Anna doit attendre son tour" in str(refused.value.message)


def test_a_death_and_a_stun_change_who_plays_next(table):
    """O5 "current life markers" and "stun -2": the order is recomputed after each change;
    who has played stays played. A blast goes off "avant les joueurs", whoever's turn."""
    encounter, organiser, anna, boris = table
    add_dog(organiser, encounter)
    advance(organiser, encounter)
    # Anna and Boris (11), then the dog (9), then the zonards (3).
    assert playing_now(encounter) == ["Anna", "Boris"]
    act(anna, encounter, "pass", "Anna")
    # Boris is caught in a moderate blast (2 life markers, stunned): 1 + 4 + 4 - 2 = 7.
    act(
        anna, encounter, "blast", "Anna", "Boris",
        options={"item": "explosive", "size": "moderate"},
        dice={"roller_dice": [2], "against_dice": [4, 5]},
    )  # fmt: skip
    assert named(encounter, "Boris").state["stun"] == 3
    # The dog (9) now plays before Boris (7); Anna, who played, is not asked again.
    assert playing_now(encounter) == ["Le chien"]
    # The dog dies in a blast of its own: the next is Boris, then the zonards.
    act(
        anna, encounter, "blast", "Anna", "Le chien",
        options={"item": "explosive", "size": "moderate"},
        dice={"roller_dice": [2], "against_dice": [4, 5]},
    )  # fmt: skip
    assert named(encounter, "Le chien").dead
    assert playing_now(encounter) == ["Boris"]
    act(boris, encounter, "pass", "Boris")
    assert playing_now(encounter) == ["Zonard 1", "Zonard 2"]


def test_panic_moves_a_figure_down_the_order(table):
    """O5 "panic -1": Anna panicked (10) plays after Boris (11) in the action phase, and
    pulling together ("se ressaisir") is her turn."""
    encounter, organiser, anna, boris = table
    me = named(encounter, "Anna")
    me.state = {**me.state, "panic": 1}
    me.save(update_fields=["state"])
    advance(organiser, encounter)
    assert playing_now(encounter) == ["Boris"]
    with pytest.raises(Refusal):
        act(anna, encounter, "pull_together", "Anna")
    act(boris, encounter, "pass", "Boris")
    act(anna, encounter, "pull_together", "Anna")
    assert playing_now(encounter) == ["Zonard 1", "Zonard 2"]


def test_undo_puts_the_turn_back(table):
    """Undo puts back the acting figure's state, its turn with it."""
    encounter, organiser, anna, boris = table
    pass_until(organiser, encounter, "Anna")
    act(anna, encounter, "move", "Anna", distance_cm=12)
    act(boris, encounter, "move", "Boris", distance_cm=12)
    assert playing_now(encounter) == []
    encounter_undo(actor=boris, encounter=encounter, version=None)
    assert playing_now(encounter) == ["Boris"]
    assert named(encounter, "Anna").state["played"] == "1:movement"
    act(boris, encounter, "pass", "Boris")
    encounter_undo(actor=organiser, encounter=encounter, version=None)
    assert playing_now(encounter) == ["Boris"]
    assert "played" not in named(encounter, "Boris").state


def test_each_phase_and_turn_starts_everyone_afresh_in_its_own_order(table):
    """O5: the action phase descends, the wrap-up ("Pendant le dénouement, l'ordre de jeu
    des personnages [...] par l'initiative la plus basse à la plus haute") ascends."""
    encounter, organiser, anna, boris = table
    pass_until(organiser, encounter, "Anna")
    act(anna, encounter, "pass", "Anna")
    advance(organiser, encounter)
    assert playing_now(encounter) == ["Anna", "Boris"]
    act(anna, encounter, "pass", "Anna")
    act(boris, encounter, "pass", "Boris")
    advance(organiser, encounter)
    assert encounter.phase == Phase.WRAP_UP
    assert playing_now(encounter) == ["Zonard 1", "Zonard 2"]
    with pytest.raises(Refusal):
        act(anna, encounter, "first_aid", "Anna", "Boris")
    advance(organiser, encounter)
    assert (encounter.turn, encounter.phase) == (2, Phase.MOVEMENT)
    assert playing_now(encounter) == ["Zonard 1", "Zonard 2"]


def _page(client, url) -> str:
    html = client.get(url).content.decode()
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def test_the_page_says_whose_turn_it_is_and_your_turn_on_their_phone(client, table):
    encounter, organiser, anna, boris = table
    url = reverse("table-encounter", args=[encounter.pk])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(anna)
    html = _page(client, url)
    assert 'id="playing-now"' in html and "Zonard 1, Zonard 2" in html
    assert 'id="your-turn"' not in html
    # The organiser plays the zombies: "à toi" on the organiser's phone.
    client.force_login(organiser)
    html = _page(client, url)
    assert "À toi :" in html and 'aria-current="step"' in html
    assert 'id="id_out_of_turn"' in html  # the override, for organisers only
    pass_until(organiser, encounter, "Anna")
    client.force_login(anna)
    html = _page(client, url)
    assert "À toi :" in html and 'id="id_out_of_turn"' not in html
    # Her form starts on her figure, whose turn it is.
    assert f'<option value="{named(encounter, "Anna").pk}" selected>' in html
    act(anna, encounter, "pass", "Anna")
    act(boris, encounter, "pass", "Boris")
    html = _page(client, url)
    assert "Tout le monde a joué dans cette phase" in html and "À toi :" not in html


def test_the_api_twin_shows_the_turn_and_refuses_out_of_turn_with_the_sentence(table):
    encounter, organiser, anna, _boris = table
    api = APIClient()
    api.force_authenticate(anna)
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    card = api.get(reverse("api-table-encounter", args=[encounter.pk])).json()
    rows = {row["name"]: row for row in card["order"]}
    assert rows["Zonard 1"]["now"] and not rows["Anna"]["now"] and not rows["Anna"]["yours"]
    me = named(encounter, "Anna")
    url = reverse("api-table-act", args=[encounter.pk])
    body = {"kind": "move", "actor": me.pk, "target": me.pk, "distance_cm": 12}
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["actor"] == [
        "It is not Anna's turn. Playing now: Zonard 1, Zonard 2 (initiative 3)."
    ]
    forbidden = api.post(url, {**body, "options": {"out_of_turn": True}}, format="json")
    assert forbidden.status_code == 403
    pass_until(organiser, encounter, "Anna")
    card = api.post(url, body, format="json").json()
    rows = {row["name"]: row for row in card["order"]}
    assert rows["Anna"]["played"] and rows["Boris"]["now"]
    line = EncounterEntry.objects.filter(encounter=encounter).latest("version")
    assert line.data["kind"] == "move" and "out_of_turn" not in line.data


@pytest.mark.parametrize("zombies", [2, 20])
def test_an_action_in_turn_answers_in_a_fixed_number_of_queries(django_assert_num_queries, zombies):
    """The turn is read from the combatants the action locks already: no query more,
    however many figures."""
    chapter, organiser, _anna, _boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    add_zombies(organiser, encounter, "zonard", zombies)
    api = APIClient()
    api.force_authenticate(organiser)
    url = reverse("api-table-act", args=[encounter.pk])
    first, second = (named(encounter, f"Zonard {n}") for n in (1, 2))
    body = {"kind": "pass", "actor": first.pk, "target": first.pk}
    assert api.post(url, body, format="json").status_code == 200
    # savepoint, the encounter locked with its chapter, campaign and the organiser's role
    # (`Encounter.objects.visible_to`), combatants, the combatant saved, the encounter's
    # version, log line, release.
    with django_assert_num_queries(7):
        answer = api.post(url, {**body, "actor": second.pk, "target": second.pk}, format="json")
    assert answer.status_code == 200
    rows = {row["name"]: row for row in answer.json()["order"]}
    assert rows["Zonard 2"]["played"] and rows["Zonard 2"]["initiative"] == 3


def test_the_card_with_its_turn_built_directly_is_the_serializers_answer(table):
    from rules.table.api import TableCardSerializer, table_card_data
    from rules.table.cards import table_card
    from rules.table.selectors import encounter_get_for_user

    encounter, organiser, anna, _boris = table
    act(organiser, encounter, "pass", "Zonard 1")
    for viewer in (organiser, anna):
        card = table_card(viewer, encounter_get_for_user(viewer, encounter.pk))
        assert card.order and table_card_data(card) == TableCardSerializer(card).data

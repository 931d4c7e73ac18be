"""Of the Dead profiles: O1 creation rules with their messages, traumas, history, versions."""

import pytest
from django.utils import translation

from characters.models import ProfileEvent, ProfileStatus, Trauma
from characters.permissions import Refusal
from characters.profiles.services import (
    profile_create,
    profile_set_status,
    profile_set_survival_points,
    profile_update,
    trauma_add,
    trauma_heal,
    trauma_make_permanent,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _create(player, **attributes):
    values = {"physique": 3, "psychique": 2, "reflexes": 2, "combat": 2, **attributes}
    return profile_create(actor=player, player=player, **values)


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_it_creates_a_profile_with_life_markers_and_moral_twice_physique_and_psychique():
    """O1: "Life markers = 2 x Physique; Moral = 2 x Psychique." """
    player = PlayerFactory()
    profile = _create(player, physique=4, psychique=3, reflexes=1, combat=1)
    assert (profile.life_markers, profile.moral) == (8, 6)
    assert profile.status == ProfileStatus.ALIVE
    assert profile.version == 1
    event = ProfileEvent.objects.get(profile=profile)
    assert (event.verb, event.actor_id, event.data["physique"]) == ("created", player.pk, 4)


@pytest.mark.parametrize(
    ("attributes", "field", "message"),
    [
        (
            {"physique": 0, "psychique": 3, "reflexes": 3, "combat": 3},
            "physique",
            "Physique needs at least 1 point.",
        ),
        (
            {"physique": 3, "psychique": 3, "reflexes": 0, "combat": 3},
            "reflexes",
            "Réflexes needs at least 1 point.",
        ),
        (
            {"physique": 3, "psychique": 3, "reflexes": 3, "combat": 3},
            "attributes",
            "Share exactly 9 points between Physique, Psychique, Réflexes and Combat: "
            "these add up to 12.",
        ),
        (
            {"physique": 1, "psychique": 1, "reflexes": 1, "combat": 1},
            "attributes",
            "Share exactly 9 points between Physique, Psychique, Réflexes and Combat: "
            "these add up to 4.",
        ),
    ],
)
def test_it_refuses_attributes_that_break_the_creation_rule(attributes, field, message):
    """Rule text: "À la création, il devra répartir 9 points entre ses attributs (1 au
    minimum)"."""
    player = PlayerFactory()
    with pytest.raises(Refusal) as refusal:
        profile_create(actor=player, player=player, **attributes)
    assert (refusal.value.field, str(refusal.value.message)) == (field, message)
    assert not hasattr(player, "otd_profile") or player.otd_profile is None


def test_it_gives_one_profile_per_player_and_only_to_themselves():
    player = PlayerFactory()
    _create(player)
    with pytest.raises(Refusal, match="already have"):
        _create(player)
    with pytest.raises(Refusal) as refusal:
        profile_create(
            actor=PlayerFactory(),
            player=PlayerFactory(),
            physique=3,
            psychique=2,
            reflexes=2,
            combat=2,
        )
    assert refusal.value.status == 403


def test_it_recomputes_life_markers_from_active_traumas_and_heals_them():
    player = PlayerFactory()
    profile = _create(player, physique=4, psychique=3, reflexes=1, combat=1)
    trauma = trauma_add(
        actor=player,
        profile=profile,
        name="Jambe cassée",
        kind="physical",
        effect={"physique": -1},
    )
    profile.refresh_from_db()
    assert (profile.life_markers, profile.moral, profile.version) == (6, 6, 2)
    trauma_heal(actor=player, trauma=trauma)
    profile.refresh_from_db()
    trauma.refresh_from_db()
    assert (profile.life_markers, trauma.active, trauma.healed_at is not None) == (8, False, True)
    assert list(profile.events.values_list("verb", flat=True)) == [
        "created",
        "trauma_added",
        "trauma_healed",
    ]


def test_it_never_heals_a_permanent_trauma():
    player = PlayerFactory()
    profile = _create(player)
    trauma = trauma_add(actor=player, profile=profile, name="Sourd", kind="physical")
    trauma_make_permanent(actor=None, trauma=trauma)
    with pytest.raises(Refusal, match="permanent"):
        trauma_heal(actor=None, trauma=trauma)
    assert Trauma.objects.get(pk=trauma.pk).active


def test_it_refuses_a_malformed_trauma_effect():
    player = PlayerFactory()
    profile = _create(player)
    with pytest.raises(Refusal) as refusal:
        trauma_add(actor=player, profile=profile, name="X", kind="psychic", effect={"charisme": -1})
    assert refusal.value.field == "effect"
    assert profile.traumas.count() == 0


def test_it_refuses_an_edit_made_on_a_stale_version_and_keeps_the_newer_one():
    player = PlayerFactory()
    profile = _create(player)
    profile_update(actor=player, profile=profile, version=1, description="Tenace")
    with pytest.raises(Refusal) as refusal:
        profile_update(actor=player, profile=profile, version=1, description="Ancienne")
    assert refusal.value.status == 409
    profile.refresh_from_db()
    assert (profile.description, profile.version) == ("Tenace", 2)


def test_it_keeps_o1_when_attributes_are_edited_and_records_the_change():
    player = PlayerFactory()
    profile = _create(player)
    with pytest.raises(Refusal, match="add up to 10"):
        profile_update(actor=player, profile=profile, physique=4)
    profile = profile_update(actor=player, profile=profile, physique=4, combat=1)
    assert profile.life_markers == 8
    changed = profile.events.last().data["changes"]
    assert changed == {"physique": [3, 4], "combat": [2, 1]}


def test_it_lets_nobody_but_its_player_edit_it():
    player = PlayerFactory()
    profile = _create(player)
    with pytest.raises(Refusal) as refusal:
        profile_update(actor=PlayerFactory(), profile=profile, description="Vandale")
    assert refusal.value.status == 403


def test_it_brings_back_only_a_dead_character_and_leaves_survival_points_to_the_system():
    player = PlayerFactory()
    profile = _create(player)
    with pytest.raises(Refusal, match="Only a dead character"):
        profile_set_status(actor=player, profile=profile, status="zombie")
    profile_set_status(actor=None, profile=profile, status="dead")
    profile = profile_set_status(actor=player, profile=profile, status="zombie")
    assert profile.status == ProfileStatus.ZOMBIE
    with pytest.raises(Refusal):
        profile_set_survival_points(actor=player, profile=profile, points=99)
    profile = profile_set_survival_points(actor=None, profile=profile, points=3)
    assert profile.survival_points == 3

"""The Corporates and modern RPG calculator pages: odds as the form changes, typed dice
judged, server rolls recorded, refusals as sentences, the htmx panel alone."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord


def page(system, resolver):
    return reverse("dice-calculator", kwargs={"system": system, "resolver": resolver})


@pytest.mark.django_db
def test_it_lists_the_calculators_of_each_system(client):
    response = client.get(reverse("dice-calculators", kwargs={"system": "corporates"}))
    assert response.status_code == 200
    assert page("corporates", "shot").encode() in response.content
    response = client.get(reverse("dice-calculators", kwargs={"system": "modern-rpg"}))
    assert page("modern-rpg", "chase").encode() in response.content


@pytest.mark.django_db
def test_it_answers_404_for_a_system_or_resolver_without_a_calculator(client):
    assert client.get(page("corporates", "schedule")).status_code == 404
    assert client.get(page("modern-rpg", "shot")).status_code == 404
    assert (
        client.get(reverse("dice-calculators", kwargs={"system": "rapid-40000"})).status_code == 404
    )


@pytest.mark.django_db
@pytest.mark.parametrize("pool", [1, 12])
def test_it_shows_the_odds_of_a_shot_in_a_fixed_number_of_queries(
    client, pool, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get(page("corporates", "shot"), {"pool": pool, "range": "medium"})
    assert response.status_code == 200
    assert "touché".encode() in response.content  # the odds table, in French by default


@pytest.mark.django_db
def test_the_htmx_panel_comes_alone(client):
    response = client.get(
        page("modern-rpg", "test"),
        {"characteristic": "8", "skill": "6"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="calculator-panel",
    )
    assert b"<html" not in response.content
    assert b'id="calculator-panel"' in response.content


@pytest.mark.django_db
def test_it_judges_typed_dice(client):
    response = client.post(
        page("modern-rpg", "test"),
        {"characteristic": "8", "skill": "6", "dice": "8 6", "action": "evaluate"},
    )
    assert "Réussites".encode() in response.content
    assert b"<dd>2</dd>" in response.content


@pytest.mark.django_db
def test_a_refusal_is_a_sentence_and_the_form_keeps_what_was_typed(client):
    response = client.post(
        page("corporates", "damage"),
        {"damage_dice": "1", "soak_dice": "1", "damage_rolled": "6", "action": "evaluate"},
    )
    assert response.status_code == 200
    assert "chaque 6 ajoute un dé".encode() in response.content
    assert b'value="6"' in response.content


@pytest.mark.django_db
def test_an_anonymous_roll_is_refused_with_a_sentence(client):
    response = client.post(
        page("corporates", "action"), {"pool": "3", "difficulty": "10", "action": "roll"}
    )
    assert response.status_code == 200
    assert RollRecord.objects.count() == 0
    assert b'class="errors"' in response.content


@pytest.mark.django_db
def test_a_player_rolls_on_the_server_and_the_roll_is_recorded(client, player):
    client.force_login(player)
    response = client.post(
        page("corporates", "action"), {"pool": "3", "difficulty": "10", "action": "roll"}
    )
    record = RollRecord.objects.get()
    assert record.system == "corporates"
    assert reverse("roll-detail", args=[record.pk]).encode() in response.content


@pytest.mark.django_db
def test_every_calculator_answers_its_starting_values_without_a_missing_field(client):
    # "Odds" pressed on a page just opened sends the form's starting values: each must be
    # valid (a required number the rules give no default starts at its least value).
    from django import forms

    from rules.dice_calculators.cards import TITLES, page_slug
    from rules.dice_calculators.forms import ResolverForm
    from rules.engine.registry import resolver_get

    for system, name in TITLES:
        form = ResolverForm(resolver_get(system, name))
        data = {}
        for field_name, field in form.fields.items():
            value = form.get_initial_for_field(field, field_name)
            if isinstance(field, forms.BooleanField):
                if value:
                    data[field_name] = "on"
            elif value is not None:
                data[field_name] = value
        response = client.get(page(system, page_slug(name)), data)
        assert response.status_code == 200
        assert "obligatoire" not in response.content.decode(), (system, name)
        assert b'class="odds"' in response.content or b'class="facts"' in response.content

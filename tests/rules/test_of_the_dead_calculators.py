"""The Of the Dead calculators (brawl, shot, throw): odds without JavaScript, typed dice judged
one roll after the other, server rolls recorded, refusals in the page; htmx gets a panel."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord

pytestmark = pytest.mark.django_db

BRAWL = {
    "attacker_combat": 3,
    "attacker_modifiers": 0,
    "attacker_surrounded_by": 0,
    "defender_combat": 2,
    "defender_modifiers": 0,
    "defender_surrounded_by": 0,
    "defender_life": 2,
}
SHOT = {
    "attacker_combat": 2,
    "attacker_modifiers": 0,
    "attacker_surrounded_by": 0,
    "attacker_range": "effective",
    "defender_reflexes": 1,
    "defender_modifiers": 0,
    "defender_surrounded_by": 0,
    "defender_cover": "partial",
}
THROW = {
    "thrower_combat": 2,
    "thrower_physique": 3,
    "thrower_modifiers": 0,
    "thrower_surrounded_by": 0,
    "item": "explosive",
    "size": "moderate",
    "distance_cm": 6,
    "zone_modifiers": 0,
}


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def url(resolver):
    return reverse("of-the-dead-calculator", kwargs={"resolver": resolver})


@pytest.mark.parametrize("resolver", ["brawl", "shot", "throw"])
def test_each_calculator_opens_blank_on_a_phone(client, resolver):
    html = client.get(url(resolver)).content.decode()
    assert 'name="viewport"' in html and "Of the Dead" in html
    assert 'inputmode="numeric"' in html


def test_it_shows_the_dice_and_the_odds_of_a_brawl(client):
    html = client.get(url("brawl"), BRAWL).content.decode()
    assert "Attacker rolls 3 dice, defender 2." in html
    assert "The target dies" in html and "Critical-damage card" in html


def test_a_shot_counts_range_and_cover_dice(client):
    """O3: "effective range: +1 defence die; partial cover +1 defence die"."""
    html = client.get(url("shot"), SHOT).content.decode()
    assert "Attacker rolls 2 dice, defender 3." in html


def test_a_hidden_target_is_refused_with_a_sentence(client):
    html = client.get(url("shot"), {**SHOT, "defender_cover": "hidden"}).content.decode()
    assert "A hidden figure cannot be attacked." in html


def test_it_judges_typed_dice_then_asks_for_the_zeal_reroll(client):
    body = {**BRAWL, "attacker_zeal": "on", "attacker_dice": "2 5 6", "action": "evaluate"}
    html = client.post(url("brawl"), body).content.decode()
    assert "Now roll D6: Attacker&#x27;s zeal reroll" in html
    body |= {"attacker_reroll": "4", "defender_dice": "1 3"}
    html = client.post(url("brawl"), body).content.decode()
    assert "3 damage" in html and "The target is dead." in html
    assert 'value="2 5 6"' in html  # what was typed stays


def test_a_throw_scatters_on_a_miss(client):
    """Explosifs: "Si le jet échoue, [...] lance 1D6 pour le nombre de pas"."""
    body = {
        **THROW,
        "thrower_dice": "2 3",
        "zone_dice": "4 5",
        "scatter_die": "3",
        "action": "evaluate",
    }
    html = client.post(url("throw"), body).content.decode()
    assert "It scatters 9 cm, direction on the 180° disc" in html


def test_a_server_roll_is_recorded_for_a_player_and_refused_to_a_visitor(client, player):
    html = client.post(url("brawl"), {**BRAWL, "action": "roll"}).content.decode()
    assert "Log in to roll on the server" in html and not RollRecord.objects.exists()
    client.force_login(player)
    html = client.post(url("brawl"), {**BRAWL, "action": "roll"}).content.decode()
    record = RollRecord.objects.get()
    assert (record.system, record.resolver) == ("of-the-dead", "brawl")
    assert f"Server roll no. {record.pk}, recorded" in html


def test_htmx_gets_the_odds_or_the_panel_alone(client):
    odds = client.get(url("brawl"), BRAWL, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="brawl-odds")
    assert odds.content.decode().lstrip().startswith('<div id="brawl-odds"')
    panel = client.post(
        url("brawl"),
        {**BRAWL, "attacker_dice": "4 4 4", "defender_dice": "1 1", "action": "evaluate"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="brawl-panel",
    )
    assert "<form" not in panel.content.decode() and "3 damage" in panel.content.decode()


def test_an_unknown_calculator_is_not_found(client):
    assert client.get(url("juggle")).status_code == 404


@pytest.mark.parametrize("resolver", ["brawl", "throw"])
def test_its_pages_ask_nothing_of_the_database(client, resolver, django_assert_num_queries):
    with django_assert_num_queries(0):
        client.get(url(resolver), BRAWL if resolver == "brawl" else THROW)


def test_it_speaks_french_by_default(client):
    client.cookies.pop("django_language")
    html = client.get(url("brawl"), BRAWL).content.decode()
    assert "Bagarre" in html and "L'attaquant lance 3 dés, le défenseur 2." in html

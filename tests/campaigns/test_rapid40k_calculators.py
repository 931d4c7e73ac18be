"""The Rapid 40000 calculator pages: one per resolver, odds as you type, dice judged or
rolled on the server."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord

pytestmark = pytest.mark.django_db

RESOLVERS = (
    "cost",
    "melee",
    "shooting",
    "overwatch",
    "deviation",
    "morale",
    "disengage",
    "vehicle",
)


def url(resolver):
    return reverse("rapid40k-calculator", kwargs={"resolver": resolver})


@pytest.mark.parametrize("resolver", RESOLVERS)
def test_every_resolver_has_its_calculator_page(client, resolver):
    response = client.get(url(resolver))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="rapid40k-panel"' in html
    for other in RESOLVERS:
        assert url(other) in html


def test_an_unknown_calculator_is_a_404(client):
    assert client.get(url("flying")).status_code == 404


def test_the_cost_page_prices_the_sergeant_at_88(client):
    body = {"quality": 3, "combat": 3, "weapon": "fusil_assaut", "special_rules": ["sous_officier"]}
    html = client.get(url("cost"), body).content.decode()
    assert '<output id="rapid40k-points">88</output>' in html


def test_the_cost_page_prices_the_battle_tank(client):
    html = client.get(
        url("cost"), {"quality": 3, "combat": 3, "weapon": "pistolet", "vehicle": "char_assaut"}
    ).content.decode()
    assert '<output id="rapid40k-points">230</output>' in html


def test_a_change_refreshes_only_the_panel_for_htmx(client):
    body = {"a_figures": 2, "a_combat": 3, "b_figures": 4, "b_combat": 2}
    response = client.get(
        url("melee"), body, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="rapid40k-panel"
    )
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="rapid40k-panel"')
    assert "%" in html


def test_it_judges_the_text_s_melee_example_as_a_tie(client):
    body = {
        "a_figures": 2,
        "a_combat": 3,
        "b_figures": 4,
        "b_combat": 2,
        "a_dice": "3 5",
        "b_dice": "1 4 2 2",
        "action": "evaluate",
    }
    html = client.post(url("melee"), body, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Totals: A 11, B 11" in html
    assert "Tie: nobody removes a figure" in html


def test_it_says_which_dice_do_not_fit_and_keeps_what_was_typed(client):
    body = {"quality": 3, "dice": "3 4", "action": "evaluate"}
    html = client.post(url("morale"), body, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'role="alert"' in html
    assert 'value="3 4"' in html


def test_it_rolls_a_shot_on_the_server_and_records_it(client, player):
    client.force_login(player)
    body = {
        "weapon": "lance_missile",
        "shooters": 1,
        "quality": 3,
        "combat": 3,
        "target_figures": 3,
        "target_combat": 3,
        "action": "roll",
    }
    response = client.post(url("shooting"), body)
    assert response.status_code == 200
    record = RollRecord.objects.get(player=player)
    assert (record.system, record.resolver) == ("rapid40k", "shooting")
    assert reverse("roll-detail", args=[record.pk]) in response.content.decode()
    assert client.get(reverse("roll-detail", args=[record.pk])).status_code == 200
    assert client.get(reverse("roll-list")).status_code == 200

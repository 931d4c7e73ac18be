"""What a player reads: catalogue names, not slugs; ranks with their accent; one name per
game system, the same on every page."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.services import campaign_create
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.table.kolaps.adapter import ADAPTER
from rules.table.models import Combatant
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db


def _french(client, player):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client


def test_the_kolaps_table_names_weapons_as_the_catalogue_and_ranks_with_their_accent(client):
    organiser = PlayerFactory()
    encounter = pick_up_encounter(organiser)
    Combatant.objects.filter(encounter=encounter).update(rank="veteran")
    html = _french(client, organiser).get(reverse("table-encounter", args=[encounter.pk]))
    html = html.content.decode()
    select = re.search(r'<select name="weapon".*?</select>', html, re.S).group(0)
    shown = dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select))
    weapons = load_catalogue().weapons
    assert shown and set(shown) <= set(weapons)
    assert shown == {slug: weapons[slug].label for slug in shown}
    assert not any(slug in html.replace(f'value="{slug}"', "") for slug in shown if "-" in slug)
    assert ">Vétéran<" in html and ">veteran<" not in html


def test_the_campaign_list_calls_a_system_as_the_calculators_do(client):
    """One name per system on every French page that names it: the home page, the campaign
    list, a campaign's page, the new campaign's choices, the calculators' index and a
    calculator, the catalogue."""
    visitor = Client()
    visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Banlieue", system="modern-rpg")
    client = _french(client, organiser)
    pages = {
        "home": visitor.get(reverse("home")).content.decode(),  # a visitor's: it names them
    } | {
        name: client.get(url).content.decode()
        for name, url in {
            "campaign list": reverse("campaign-list"),
            "campaign": reverse("campaign-detail", args=[campaign.pk]),
            "new campaign": reverse("campaign-create"),
            "calculators": reverse("dice-calculators", args=["modern-rpg"]),
            "a calculator": reverse("dice-calculator", args=["modern-rpg", "chase-test"]),
            "catalogue": reverse("catalogue", args=["modern-rpg"]),
        }.items()
    }
    with translation.override("fr"):
        name = str(translation.gettext("Modern RPG"))
    assert name == "JdR moderne"
    assert [page for page, html in pages.items() if name not in html] == []
    assert [page for page, html in pages.items() if "Modern RPG" in html] == []


@pytest.mark.parametrize(
    ("resolver", "query", "said"),
    [
        ("morale", "quality=4", "Jet de Qualité : 3 dés, réussite sur 4+"),
        ("deviation", "quality=3", "Jet de Qualité : 3 dés, réussite sur 3+"),
        ("disengage", "quality=5", "Jet de Qualité : 3 dés, réussite sur 5+"),
        (
            "melee",
            "a_figures=2&a_combat=3&b_figures=4&b_combat=2",
            "A : 2 dés + 3 ; B : 4 dés + 2",
        ),
    ],
)
def test_rapid40k_odds_say_their_dice_with_the_numbers(client, resolver, query, said):
    """Morale, deviation and disengagement read "A : dés + ; B : dés + ; jet de Qualité :
    dés", the numbers missing: a Quality roll says its own dice and threshold."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    url = reverse("rapid40k-calculator", args=[resolver])
    html = client.get(f"{url}?{query}").content.decode()
    line = re.search(r'id="rapid40k-dice">(.*?)</p>', html, re.S).group(1)
    assert re.sub(r"[\u00a0\u202f]", " ", line) == said


@pytest.mark.parametrize(
    ("attacker", "struck"),
    [("b", "Sabre"), ("a", "Brigadier Dupont")],
)
def test_a_kolaps_melee_line_names_who_took_the_wound(attacker, struck):
    """ "Sabre affronte Brigadier Dupont : Blessures graves (Santé 6 → 2) — tué" read as if
    Dupont was hit when Dupont struck Sabre: the line names who took the wound."""
    data = {
        "kind": "melee",
        "outcome": {
            "attacker": attacker,
            "row": "grave",
            "target": {"sante_before": 6, "sante_after": 0, "killed": True},
        },
    }
    with translation.override("fr"):
        line = ADAPTER.action_text(data, "Sabre", "Brigadier Dupont")
    assert line == (
        f"Sabre affronte Brigadier Dupont\u00a0: Blessures graves pour {struck} (Santé 6 → 0) — tué"
    )

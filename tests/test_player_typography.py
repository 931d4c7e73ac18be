"""French and English as a reader expects them: a no-break space before a French colon,
thousands grouped, plurals that agree, no internal field name, no French word on an
English page."""

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from characters.kolaps.cards import SPECIAL_LABELS
from characters.kolaps.unit_file import unit_import
from characters.permissions import Refusal
from characters.rapid40k import services as rapid40k
from characters.rapid40k.cards import problem_sentences
from rules.engine.systems.rapid40k.costing import ListPrice, Problem
from tests.factories import PlayerFactory

NBSP = "\u00a0"


def _render(text: str, language: str, **context) -> str:
    with translation.override(language):
        return Template(text).render(Context(context))


def test_a_label_colon_takes_a_no_break_space_in_french_only():
    label = '{% load i18n %}{% translate "Equipment" %}{% translate ":" context "label colon" %}'
    assert _render(label, "fr") == f"Équipement{NBSP}:"
    assert _render(label, "en") == "Equipment:"


def test_points_are_grouped_by_thousands():
    assert _render("{{ n|grouped }} points", "fr", n=1135) == f"1{NBSP}135 points"
    assert _render("{{ n|grouped }} points", "en", n=1135) == "1,135 points"


@pytest.mark.parametrize(
    ("count", "word"), [(0, "combattant "), (1, "combattant "), (2, "combattants ")]
)
def test_a_squad_s_count_agrees_with_its_number(count, word):
    problem = Problem(
        "fighters",
        "unused",
        {"squad": "Tactique", "count": count, "min": 3, "max": 7},
    )
    with translation.override("fr"):
        sentence = problem_sentences(ListPrice(0, (), (problem,), None))[0]
    assert f"compte {count} {word}en plus de son chef" in sentence


def test_the_kolaps_specials_read_in_english_on_an_english_page():
    with translation.override("en"):
        assert str(SPECIAL_LABELS["DB -1 au tir"]) == "DB -1 when shooting"
    with translation.override("fr"):
        assert str(SPECIAL_LABELS["DB -1 au tir"]) == "DB -1 au tir"


@pytest.mark.django_db
def test_an_import_error_about_the_whole_file_names_no_field_called_file():
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        unit_import(owner=PlayerFactory(), text="[1, 2")
    assert str(refused.value.message).startswith("Ligne 1\u00a0: ce n'est pas du JSON valide")
    assert "champ file" not in str(refused.value.message)


@pytest.mark.django_db
def test_an_army_page_writes_its_colons_the_french_way(client):
    alice = PlayerFactory()
    army = rapid40k.army_create(owner=alice, name="Ultramarines", faction="space_marines")
    rapid40k.army_change(
        actor=alice,
        army=army,
        version=army.version,
        action="squad_add",
        data={"name": "Tactique", "slot": "troops", "leader": "space_marines:sergent"},
    )
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(reverse("rapid40k-army", args=[army.pk])).content.decode()
    assert f"Chef{NBSP}:" in html and "Chef:" not in html

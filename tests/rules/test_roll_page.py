"""A server roll's page shows the whole result: the Santé lost, the death roll that killed
the target and its die, never only "a wound" followed by a dead target."""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from rules.engine.registry import RESOLVERS
from rules.labels import RESOLVER_LABELS_BY_SYSTEM, outcome_label, resolver_label
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_killing_shot_shows_the_death_roll_that_killed(client):
    player = PlayerFactory()
    record = RollRecord.objects.create(
        player=player,
        system="kolaps",
        resolver="ranged",
        inputs={
            "attacker": {"rank": "veteran", "affiliation": "apc", "talents": {"fusil": 2}},
            "weapon": "fa-f4",
            "mode": "semi-auto",
            "distance_cm": 45,
            "target": {"order": "movement", "cover": 0},
        },
        seed=7,
        dice=[6, 5, 4],
        outcome={
            "outcome": "success",
            "row": "grave",
            "damage_value": 9,
            "dice": [6, 5, 4],
            "target": {
                "sante_before": 3,
                "sante_after": 0,
                "death_roll_threshold": 4,
                "killed": True,
            },
            "follow_up": {"death_die": [2]},
        },
    )
    client.force_login(player)
    html = client.get(reverse("roll-detail", args=[record.pk])).content.decode()
    assert "Santé de la cible 3 → 0" in html
    assert "Jet de mort de la cible" in html and ": 2" in html.replace("\u00a0", " ")
    assert "La cible est morte." in html


def _plain(text: str) -> str:
    return re.sub("\u00a0|\u202f|&nbsp;", " ", text)


def _french(client, player):
    client.force_login(player)
    client.cookies["django_language"] = "fr"
    return client


@pytest.mark.parametrize(
    ("system", "name", "data"),
    [
        ("rapid40k", "morale", {"quality": 3, "special_rules": ["chef"], "chef_nearby": True}),
        (
            "rapid40k",
            "melee",
            {"a": {"figures": 2, "combat": 3}, "b": {"figures": 2, "combat": 3}},
        ),
        ("rapid40k", "disengage", {"quality": 4}),
        ("modern-rpg", "cold_blood", {"characteristic": 8, "empathie": 6, "sang_froid": 8}),
        ("corporates", "damage", {"damage_dice": 2, "soak_dice": 1}),
    ],
)
def test_rolls_read_in_the_calculators_words_not_in_codes(client, system, name, data):
    """The list and the page of a roll name its resolver, its outcome and its inputs as the
    calculators do: no "morale — 3 4 6 — holds", no "Résultat holds", no "Chef nearby"."""
    player = PlayerFactory()
    record = roll_on_server(player=player, system=system, name=name, data=data)
    client = _french(client, player)
    listing = _plain(client.get(reverse("roll-list")).content.decode())
    page = _plain(client.get(reverse("roll-detail", args=[record.pk])).content.decode())
    with translation.override("fr"):
        title = resolver_label(name, system)
        outcome = record.outcome.get("outcome")
        said = _plain(outcome_label(outcome, system)) if outcome else None
    assert title in listing and title in page
    raw = {name, name.replace("_", " ")} - {title}
    for text in (listing, page):
        assert not raw & set(re.findall(r">\s*([a-z_ ]+?)\s*[<—]", text)), raw
        if said:
            assert said in text and f"— {outcome}" not in text and f"> {outcome}<" not in text
    for english in ("Quality", "Special rules", "Chef nearby", "Combat</th>"):
        assert english not in page


def test_rapid40k_roll_inputs_are_labelled_in_french(client):
    player = PlayerFactory()
    record = roll_on_server(
        player=player,
        system="rapid40k",
        name="morale",
        data={"quality": 3, "special_rules": ["chef"], "chef_nearby": True},
    )
    page = _french(client, player).get(reverse("roll-detail", args=[record.pk]))
    rows = re.findall(r'<th scope="row">(.*?)</th><td>(.*?)</td>', page.content.decode())
    with translation.override("fr"):
        assert sorted(rows) == sorted(
            [
                (str(_("Leader's Quality")), "3"),
                (str(_("Leader's special rules")), "Chef"),
                (str(_("A Chef within command distance")).replace("'", "&#x27;"), "oui"),
            ]
        )


@pytest.mark.parametrize("resolver", RESOLVERS, ids=lambda r: f"{r.system}:{r.name}")
def test_every_resolver_has_its_calculators_name(resolver):
    """The roll list named rolls by their resolvers: "damage", "action", "chase test",
    "cold blood", "vehicle". Each resolver of each system has a name of its own."""
    with translation.override("fr"):
        title = resolver_label(resolver.name, resolver.system)
    assert resolver.name in RESOLVER_LABELS_BY_SYSTEM[resolver.system]
    assert title not in (resolver.name, resolver.name.replace("_", " "))


RAPID40K_SAMPLES = {
    "melee": {"a": {"figures": 2, "combat": 3}, "b": {"figures": 2, "combat": 3}},
    "shooting": {"weapon": "bolter", "combat": 3, "target": {"figures": 3, "combat": 2}},
    "overwatch": {"weapon": "bolter", "combat": 3, "target": {"figures": 3, "combat": 2}},
    "deviation": {"quality": 3},
    "morale": {"quality": 3},
    "disengage": {"quality": 4},
}


@pytest.mark.parametrize(("name", "data"), RAPID40K_SAMPLES.items())
def test_every_rapid40k_outcome_reads_as_a_sentence(name, data):
    """ "a_wins", "b_wins", "stays_engaged", "on_target", "no_effect", "deviated", "holds":
    every outcome a Rapid 40000 roll can have (its odds list them all) has its words."""
    resolver = next(r for r in RESOLVERS if r.system == "rapid40k" and r.name == name)
    outcomes = list(resolver.odds(data)["outcomes"])
    assert outcomes
    with translation.override("fr"):
        said = {key: outcome_label(key, "rapid40k") for key in outcomes}
    assert {key: text for key, text in said.items() if key.replace("_", " ") == text} == {}


def test_an_of_the_dead_throw_shows_where_it_landed_as_its_calculator_does(client):
    """The roll page draws the result with the template its system declares
    (`GameSystem.index.result_template`), given the resolver as the calculator gives it: a
    throw says where the explosive landed, not a damage line."""
    player = PlayerFactory()
    data = {"thrower": {"combat": 3, "physique": 3}, "size": "moderate", "distance_cm": 3}
    record = roll_on_server(player=player, system="of-the-dead", name="throw", data=data)
    assert record.outcome.get("on_target") is not None
    client.force_login(player)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("roll-detail", args=[record.pk])).content.decode()
    assert "It lands where aimed." in html or "It scatters" in html

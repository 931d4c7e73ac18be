"""The ranged and melee calculators: odds without JavaScript, typed dice step by step, server
rolls recorded; htmx gets the panel alone."""

import html

import pytest
from django.urls import reverse

from rules.labels import ROW_LABELS
from rules.rolls.models import RollRecord

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    """Pages follow the language cookie: these tests read the English msgids."""
    client.cookies["django_language"] = "en"


KIRMANN = {
    "rank": "veteran",
    "sante": 6,
    "affiliation": "apc",
    "expertise": 2,
    "armour": "tenue-legere-sti-europa",
    "equipment_db": 0,
    "weapon": "fa-f4",
    "mode": "semi-auto",
    "distance_cm": 45,
    "order": "movement",
    "cover": 3,
    "moved_cm": 0,
    "extra_protection": 3,
    "target_sante": 6,
    "melee_figures": 0,
}
FIGHT = {
    f"{side}_{key}": value
    for side in ("a", "b")
    for key, value in {
        "rank": "veteran" if side == "a" else "aguerri",
        "sante": 6,
        "affiliation": "apc" if side == "a" else "sheol",
        "expertise": 1,
        "weapon": "matraque-composite" if side == "a" else "griffes",
        "charge": 0,
        "supports": 0,
        "charged_supports": 0,
        "immobiliser": 0,
    }.items()
}


def test_it_shows_kirmanns_five_dice_and_the_odds_without_javascript(client):
    """The worked example of K11: 1 - 1 - 1 + 3 + 3 = 5 dice."""
    html = client.get(reverse("kolaps-ranged"), KIRMANN).content.decode()
    assert "DB 5 · Roll 5 dice, success on 3+" in html
    assert "Cover type 3" in html and "Firing mode semi-auto" in html
    assert "Very grave wound" in html and "The target dies" in html
    assert html.count("<meter") >= 6


def test_it_asks_for_the_next_roll_and_renders_only_the_panel_for_htmx(client):
    response = client.post(
        reverse("kolaps-ranged"),
        {**KIRMANN, "dice": "3 4 5 6 3", "action": "evaluate"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="ranged-panel",
    )
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="ranged-panel"')
    assert "Now roll 2C6: Weapon power dice" in html
    assert 'name="power_dice"' in html
    judged = client.post(
        reverse("kolaps-ranged"),
        {**KIRMANN, "dice": "3 4 5 6 3", "power_dice": "1 1", "death_die": "4", "action": "x"},
    ).content.decode()
    # 3 + 1 = 4: serious, Santé 6 -> 3, death roll below 4; a 4 survives.
    assert "Serious wound · damage value 4" in judged
    assert "Target's Santé 6 → 3" in judged and "The target is dead." not in judged


def test_it_records_a_server_shot_for_a_player(client, player):
    client.force_login(player)
    response = client.post(reverse("kolaps-ranged"), {**KIRMANN, "action": "roll"})
    record = RollRecord.objects.get(player=player)
    assert record.resolver == "ranged" and len(record.dice) == 5
    assert f"Server roll no. {record.pk}, recorded" in response.content.decode()


def test_it_refuses_an_anonymous_server_shot_and_records_nothing(client):
    response = client.post(reverse("kolaps-ranged"), {**KIRMANN, "action": "roll"})
    assert "Log in to roll on the server" in response.content.decode()
    assert not RollRecord.objects.exists()


def test_it_says_when_the_target_is_untouchable(client):
    data = {**KIRMANN, "order": "defensive", "against_cover": "on"}
    html = client.get(reverse("kolaps-ranged"), data).content.decode()
    assert "The target cannot be shot" in html


def test_it_explains_a_distance_beyond_the_weapon(client):
    data = {**KIRMANN, "weapon": "douleur-1", "mode": "", "distance_cm": 60}
    html = client.get(reverse("kolaps-ranged"), data).content.decode()
    assert "The weapon does not reach that far." in html


@pytest.mark.parametrize(
    ("name", "data", "shown"),
    [
        ("kolaps-ranged", KIRMANN, "DB 5 · Roll 5 dice, success on 3+"),
        ("kolaps-melee", FIGHT, "Fighter A strikes"),
        ("kolaps-test", {"db": 3, "rank": "veteran", "sante": 6}, "Success"),
    ],
)
def test_each_calculator_answers_an_anonymous_visitor_without_a_query(
    client, django_assert_num_queries, name, data, shown
):
    with django_assert_num_queries(0):
        response = client.get(reverse(name), data)
    assert response.status_code == 200
    assert shown in response.content.decode()


def test_it_shows_who_strikes_in_a_melee_and_each_death(client):
    html = client.get(reverse("kolaps-melee"), FIGHT).content.decode()
    assert "Fighter A strikes" in html and "Fighter B dies" in html
    assert "Harmless exchange" in html


def test_it_judges_a_melee_typed_step_by_step(client):
    # A scores 4 + 1 + 1 = 6 against B's 1 + 1: DB 2; then 3 3 at threshold 3: success.
    data = {**FIGHT, "a_dice": "4", "b_dice": "1", "dice": "3 3", "action": "evaluate"}
    html = client.post(reverse("kolaps-melee"), data).content.decode()
    assert "Scores: A 6, B 2" in html and "DB 2" in html
    # The baton's power is the constant 1: 3 + 1 = 4, serious; the death roll comes next.
    assert "Serious wound · damage value 4" in html
    assert "Now roll D6: Target&#x27;s death roll" in html


def test_it_links_the_three_calculators(client):
    html = client.get(reverse("kolaps-test")).content.decode()
    assert reverse("kolaps-ranged") in html and reverse("kolaps-melee") in html


def test_it_lists_a_recorded_shot_with_its_table_row(client, player):
    client.force_login(player)
    client.post(
        reverse("kolaps-ranged"),
        {**KIRMANN, "dice": "", "action": "roll"},
    )
    record = RollRecord.objects.get(player=player)
    listing = client.get(reverse("roll-list")).content.decode()
    assert "Ranged attack" in listing and "kolaps/ranged" not in listing
    row = record.outcome["row"]
    assert str(ROW_LABELS[row]) in listing
    detail = client.get(reverse("roll-detail", args=[record.pk])).content.decode()
    assert "same dice, same outcome" in detail


def test_it_names_an_incident_and_a_stray_shot_in_words_in_french(client):
    """The calculators printed incident and stray-shot effects as raw slugs
    ("weapon_destroyed", "shooter_ally_hit")."""
    client.cookies["django_language"] = "fr"
    # A Novice's five dice at DB 5, two 1s and none above 2: a critical failure, the major
    # incident (K9) read on a fresh die showing 1.
    incident = client.post(
        reverse("kolaps-ranged"),
        {
            **KIRMANN,
            "rank": "novice",
            "dice": "1 1 2 2 2",
            "incident_die": "1",
            "attacker_death_die": "6",
            "action": "evaluate",
        },
    ).content.decode()
    incident = html.unescape(incident)
    assert "Incident majeur" in incident
    assert "l'arme est détruite" in incident and "weapon_destroyed" not in incident
    assert "la Santé de l'attaquant tombe à 3" in incident
    assert "l'attaquant survit à son jet de mort" in incident
    # A miss into a melee of three figures: the stray-shot die hits the shooter's ally.
    stray = client.post(
        reverse("kolaps-ranged"),
        {
            **KIRMANN,
            "cover": 0,
            "extra_protection": 0,
            "melee_figures": 3,
            "dice": "2",
            "stray_die": "1",
            "action": "evaluate",
        },
    ).content.decode()
    stray = html.unescape(stray)
    assert "un allié du tireur est touché" in stray and "shooter_ally_hit" not in stray

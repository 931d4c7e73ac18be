"""The stateless rules API, the calculator page and audited server rolls."""

import json
import random

import pytest
from django.urls import reverse

from rules.engine.registry import resolver_get
from rules.rolls.models import RollRecord
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def url(verb):
    return reverse("api-resolve", kwargs={"system": "kolaps", "resolver": "test", "verb": verb})


def post(client, verb, body, **extra):
    return client.post(url(verb), body, content_type="application/json", **extra)


def test_it_lists_systems_resolvers_and_their_input_schema(client):
    body = client.get(reverse("api-rules")).json()
    kolaps = next(s for s in body["systems"] if s["slug"] == "kolaps")
    test = next(r for r in kolaps["resolvers"] if r["name"] == "test")
    assert test["verbs"] == ["odds", "evaluate", "roll"]
    assert test["input_schema"]["properties"]["rank"]["enum"] == [
        "novice",
        "aguerri",
        "veteran",
        "expert",
    ]


def test_it_judges_hand_rolled_dice_with_the_fixed_contract(client):
    response = post(client, "evaluate", {"db": 3, "rank": "veteran", "sante": 6, "dice": [3, 4, 5]})
    assert response.status_code == 200
    body = response.json()
    assert (body["outcome"], body["referent"], body["six_six_six"]) == ("success", 3, False)


def test_it_gives_exact_odds_with_the_fixed_contract(client):
    """Three dice at threshold 3 (Vétéran): success without every die a 6 is
    (4/6)^3 - (1/6)^3 = 63/216 = 0.2916..."""
    body = post(client, "odds", {"db": 3, "rank": "veteran"}).json()
    assert body["outcomes"]["success"] == pytest.approx(0.2916666666666667, abs=1e-15)
    assert body["outcomes_exact"]["success"] == "7/24"
    assert abs(sum(body["outcomes"].values()) - 1) < 1e-12
    assert set(body["outcomes"]) <= {
        "critical_failure",
        "failure_with_one",
        "failure",
        "mitigated_success",
        "success",
        "critical_success",
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"db": 3, "rank": "captain", "dice": [3, 4, 5]}, "rank"),
        ({"db": 3, "rank": "veteran", "dice": [3, 4, 9]}, "dice"),
        ({"db": 3, "rank": "veteran", "dice": [3, 4]}, "dice"),
        ({"db": 3, "rank": "veteran"}, "dice"),
        ({"db": "three", "rank": "veteran", "dice": [3, 4, 5]}, "db"),
        ({"db": 3, "rank": "veteran", "sante": 9, "dice": [3, 4, 5]}, "sante"),
    ],
)
def test_it_answers_bad_input_with_a_400_naming_the_field(client, body, field):
    response = post(client, "evaluate", body)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_it_names_the_number_of_dice_expected_in_english_too(client):
    response = post(
        client, "evaluate", {"db": 0, "rank": "veteran", "dice": [3]}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.json() == {"dice": ["Type exactly 2 dice, each a whole number from 1 to 6."]}


def test_it_records_a_server_roll_with_a_seed_the_client_cannot_choose(client, player):
    client.force_login(player)
    response = post(client, "roll", {"db": 4, "rank": "expert", "seed": 1})
    assert response.status_code == 201
    body = response.json()
    record = RollRecord.objects.get(pk=body["roll_id"])
    assert record.player == player
    assert record.seed != 1
    assert "seed" not in record.inputs
    assert record.dice == body["dice"] and len(record.dice) == 4
    # Replaying the seed gives the same dice and outcome.
    again = resolver_get("kolaps", "test").roll(record.inputs, random.Random(record.seed))
    assert again == record.outcome
    detail = client.get(reverse("api-roll-detail", args=[record.pk])).json()
    assert detail["replay"]["matches"] is True


def test_it_refuses_an_anonymous_server_roll_with_a_sentence(client):
    response = post(client, "roll", {"db": 3, "rank": "veteran"})
    assert response.status_code == 401
    assert "enregistré" in response.json()["detail"]
    assert not RollRecord.objects.exists()


def test_it_shows_a_player_only_their_own_rolls(client, player, other_player):
    client.force_login(other_player)
    post(client, "roll", {"db": 2, "rank": "novice"})
    client.force_login(player)
    post(client, "roll", {"db": 3, "rank": "novice"})
    mine = client.get(reverse("api-roll-list")).json()
    assert [r["inputs"]["db"] for r in mine] == [3]
    theirs = RollRecord.objects.get(player=other_player)
    assert client.get(reverse("api-roll-detail", args=[theirs.pk])).status_code == 404
    assert client.get(reverse("roll-detail", args=[theirs.pk])).status_code == 404


def test_it_shows_odds_in_the_calculator_without_javascript(client):
    html = client.get(reverse("kolaps-test"), {"db": 3, "rank": "veteran", "sante": 6}).content
    html = html.decode()
    assert "Lancer 3 dés" in html
    assert "Réussite" in html and "<meter" in html


def test_it_judges_typed_dice_in_the_calculator_and_renders_only_the_panel_for_htmx(client):
    response = client.post(
        reverse("kolaps-test"),
        {"db": 3, "rank": "veteran", "sante": 6, "dice": "3 4 5", "action": "evaluate"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="test-panel",
    )
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="test-panel"')
    assert "Réussite" in html and "dé référent 3" in html


def test_it_explains_typed_dice_that_do_not_fit(client):
    response = client.post(
        reverse("kolaps-test"),
        {"db": 3, "rank": "veteran", "sante": 6, "dice": "3 4", "action": "evaluate"},
    )
    assert "Tapez exactement 3 dés" in response.content.decode()


def test_it_rolls_on_the_server_from_the_calculator(client, player):
    client.force_login(player)
    response = client.post(
        reverse("kolaps-test"), {"db": 2, "rank": "aguerri", "sante": 6, "action": "roll"}
    )
    record = RollRecord.objects.get(player=player)
    html = response.content.decode()
    assert f"Jet serveur n° {record.pk}, enregistré" in html
    detail = client.get(reverse("roll-detail", args=[record.pk])).content.decode()
    assert "mêmes dés, même résultat" in detail


@pytest.mark.parametrize("size", [3, 30])
def test_it_lists_3_or_30_rolls_in_the_same_queries(client, django_assert_num_queries, size):
    player = PlayerFactory()
    client.force_login(player)
    for _ in range(size):
        post(client, "roll", {"db": 2, "rank": "novice"})
    with django_assert_num_queries(1):  # the rolls (session and user from the cache)
        response = client.get(reverse("roll-list"))
    assert response.content.decode().count("<li>") == size


# --- Every KOLAPS resolver through the API ------------------------------------------------------

SHOT = {
    "attacker": {"rank": "veteran", "affiliation": "apc", "talents": {"fusil": 2}},
    "weapon": "fa-f4",
    "distance_cm": 45,
    "target": {"order": "offensive"},
}
FIGHT = {
    "a": {"rank": "veteran", "weapon": "matraque-composite", "talents": {"corps-a-corps": 1}},
    "b": {"rank": "aguerri", "weapon": "griffes", "affiliation": "sheol"},
}
END_PHASE = {"characters": [{"rank": "veteran", "sante": 3, "souffle": 2, "moral": 4}]}
SIDES = {
    "sides": {
        "apc": [{"rank": "veteran", "moral": 4}],
        "sheol": [{"rank": "novice", "moral": 4}],
    },
    "previous": "sheol",
}
# (resolver, odds body, evaluate extra, what evaluate answers, a bad body, the field named)
RESOLVERS = [
    (
        "ranged",
        SHOT,
        {"dice": [3], "power_dice": [1, 2], "death_die": [2]},
        {"row": "grave", "target": {"killed": True}},
        {**SHOT, "target": {"cover": 9}},
        "target.cover",
    ),
    (
        "melee",
        FIGHT,
        {"a_dice": [4], "b_dice": [1], "dice": [1]},
        {"attacker": "a", "row": "minor_incident"},
        {**FIGHT, "a_dice": [6], "b_dice": [1]},
        "a_dice",
    ),
    (
        "death",
        {"sante": 5, "wound": "light"},
        {"death_die": [3]},
        {"sante_after": 3, "killed": True},
        {"sante": 5, "wound": "scratch"},
        "wound",
    ),
    (
        "initial_morale",
        {"rank": "aguerri"},
        {"dice": [1]},
        {"moral": 4},
        {"rank": "aguerri", "dice": [7]},
        "dice",
    ),
    (
        "end_phase",
        END_PHASE,
        {},
        {"characters": [{"souffle": 2, "unconscious_next_turn": True}]},
        {"characters": [{"rank": "veteran", "sante": 0, "souffle": 2, "moral": 4}]},
        "characters.0.sante",
    ),
    (
        "next_attacker",
        SIDES,
        {},
        {"attacker": "apc"},
        {**SIDES, "previous": "chrisme"},
        "previous",
    ),
    (
        "vigilance",
        {"rank": "aguerri", "level": 2, "target_rank": "veteran"},
        {"dice": [4, 4]},
        {"intervention": "roll", "intervenes": True},
        {"rank": "aguerri", "level": 5, "target_rank": "veteran"},
        "level",
    ),
    (
        "six_six_six",
        {"affiliation": "sheol", "in_combat": True},
        {"dice": [6, 6, 6]},
        {"six_six_six": True},
        {"affiliation": "vampires"},
        "affiliation",
    ),
]


def resolver_url(resolver, verb):
    return reverse("api-resolve", kwargs={"system": "kolaps", "resolver": resolver, "verb": verb})


def contains(answer, expected):
    """Every key of `expected` is in `answer` with that value (recursively)."""
    if isinstance(expected, dict):
        return all(contains(answer[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return all(contains(a, e) for a, e in zip(answer, expected, strict=True))
    return answer == expected


def test_it_lists_every_kolaps_resolver_with_its_schema(client):
    body = client.get(reverse("api-rules")).json()
    kolaps = next(s for s in body["systems"] if s["slug"] == "kolaps")
    listed = {r["name"]: r for r in kolaps["resolvers"]}
    assert set(listed) >= {name for name, *_ in RESOLVERS}
    assert "distance_cm" in listed["ranged"]["input_schema"]["properties"]


@pytest.mark.parametrize(("name", "body", "dice", "expected", "bad", "field"), RESOLVERS)
def test_it_serves_the_three_verbs_of_every_resolver(
    client, player, name, body, dice, expected, bad, field
):
    odds = client.post(resolver_url(name, "odds"), body, content_type="application/json")
    assert odds.status_code == 200, odds.json()
    judged = client.post(
        resolver_url(name, "evaluate"), {**body, **dice}, content_type="application/json"
    )
    assert judged.status_code == 200, judged.json()
    assert contains(judged.json(), expected), judged.json()
    client.force_login(player)
    rolled = client.post(
        resolver_url(name, "roll"), {**body, **dice}, content_type="application/json"
    )
    assert rolled.status_code == 201
    record = RollRecord.objects.get(pk=rolled.json()["roll_id"])
    assert not set(dice) & set(record.inputs)  # typed dice are not inputs of a roll
    again = resolver_get("kolaps", name).roll(record.inputs, random.Random(record.seed))
    assert again == record.outcome


@pytest.mark.parametrize(("name", "body", "dice", "expected", "bad", "field"), RESOLVERS)
def test_it_answers_a_bad_body_of_every_resolver_with_a_400_naming_the_field(
    client, name, body, dice, expected, bad, field
):
    response = client.post(resolver_url(name, "evaluate"), bad, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_it_gives_the_odds_of_every_row_and_of_death_for_a_shot(client):
    body = client.post(resolver_url("ranged", "odds"), SHOT, content_type="application/json")
    odds = body.json()
    assert abs(sum(odds["rows"].values()) - 1) < 1e-12
    assert 0 < odds["target_dies"] < 1
    assert odds["dice_count"] == 1


@pytest.mark.parametrize(
    ("resolver", "body", "field"),
    [
        ("end_phase", {"characters": "Kirmann"}, "characters"),
        ("next_attacker", {"sides": {"apc": "Kirmann", "sheol": []}}, "sides.apc"),
        ("melee", {"a": {"rank": "veteran", "supports": "two"}, "b": {}}, "a.supports"),
    ],
)
def test_a_list_sent_as_something_else_is_a_400_naming_the_field(client, resolver, body, field):
    response = client.post(
        f"/api/v1/rules/kolaps/{resolver}/evaluate",
        json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {field: ["A list is expected here."]}

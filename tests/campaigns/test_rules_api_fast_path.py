"""The odds endpoint's shortcuts (rules/calculators/api.py ResolveAPI) keep DRF's answers:
JSON for JSON clients, the browsable page for a browser, a bad token still refused,
a signed-in player's roll still recorded as theirs."""

import json

import pytest
from django.test import Client

from rules.calculators.api import RenderedOdds, rendered_odds
from rules.rolls.models import RollRecord

pytestmark = pytest.mark.django_db

ODDS = "/api/v1/rules/kolaps/test/odds"
BODY = json.dumps({"db": 3, "rank": "veteran", "sante": 6})


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_json_clients_get_the_same_json(accept):
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    response = Client().post(ODDS, BODY, content_type="application/json", **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert set(response.json()["outcomes"]) >= {"success", "failure"}


def test_a_browser_still_gets_the_browsable_page():
    response = Client().post(ODDS, BODY, content_type="application/json", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


def test_a_bad_field_is_still_a_400_naming_it():
    body = json.dumps({"db": 3, "rank": "general"})
    response = Client().post(ODDS, body, content_type="application/json")
    assert response.status_code == 400
    assert "rank" in response.json()


def test_a_bad_token_is_still_refused():
    response = Client().post(
        ODDS, BODY, content_type="application/json", HTTP_AUTHORIZATION="Token nope"
    )
    assert response.status_code == 401


def test_a_session_roll_is_recorded_for_the_signed_in_player(django_user_model):
    player = django_user_model.objects.create_user("rolleur", "r@example.test", "pw-123456!")
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    # Signed in by session: DRF's CSRF check still applies to the POST.
    refused = client.post("/api/v1/rules/kolaps/test/roll", BODY, content_type="application/json")
    assert refused.status_code == 403
    client = Client()
    client.force_login(player)
    response = client.post("/api/v1/rules/kolaps/test/roll", BODY, content_type="application/json")
    assert response.status_code == 201
    assert RollRecord.objects.get(pk=response.json()["roll_id"]).player_id == player.pk


# --- Rendered odds: a body asked before gets the bytes rendered the first time ----------------


def _odds(body: str, **headers):
    return Client().post(ODDS, body, content_type="application/json", **headers)


def test_an_odds_body_asked_again_gets_the_same_bytes_from_the_cache():
    rendered_odds.clear()
    first = _odds(BODY)
    assert len(rendered_odds._answers) == 1
    again = _odds(BODY)
    assert again.status_code == first.status_code == 200
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"] == "application/json"
    # K5 at 3 dice for a veteran (threshold 3): the cached answer is the rule's answer.
    assert again.json()["outcomes_exact"]["success"] == "7/24"


def test_the_cache_keeps_each_body_apart_and_never_keeps_a_refusal():
    rendered_odds.clear()
    three = _odds(json.dumps({"db": 3, "rank": "veteran"})).json()
    five = _odds(json.dumps({"db": 5, "rank": "veteran"})).json()
    assert three["dice"] == 3 and five["dice"] == 5
    bad = json.dumps({"db": 3, "rank": "general"})
    assert _odds(bad).status_code == 400
    assert _odds(bad).status_code == 400
    assert len(rendered_odds._answers) == 2


def test_an_indented_json_request_is_rendered_as_asked_not_from_the_cache():
    rendered_odds.clear()
    _odds(BODY)
    indented = _odds(BODY, HTTP_ACCEPT="application/json; indent=4")
    assert indented.status_code == 200
    assert b'\n    "dice"' in indented.content
    assert len(rendered_odds._answers) == 1


def test_the_cache_is_bounded_least_recently_used_out(monkeypatch):
    monkeypatch.setattr(RenderedOdds, "MAX_ENTRIES", 3)
    rendered_odds.clear()
    for db in (1, 2, 3):
        _odds(json.dumps({"db": db, "rank": "novice"}))
    _odds(json.dumps({"db": 1, "rank": "novice"}))  # 1 is now the most recent
    _odds(json.dumps({"db": 4, "rank": "novice"}))  # 2, the least recent, goes
    kept = [json.loads(key[2])["db"] for key in rendered_odds._answers]
    assert kept == [3, 1, 4]


def test_a_large_or_oddly_measured_body_is_answered_without_the_cache(monkeypatch):
    rendered_odds.clear()
    monkeypatch.setattr(RenderedOdds, "MAX_BODY", len(BODY) - 1)
    large = _odds(BODY)
    assert large.status_code == 200 and large.json()["outcomes_exact"]["success"] == "7/24"
    assert len(rendered_odds._answers) == 0
    monkeypatch.undo()
    odd = Client().generic(
        "POST", ODDS, BODY, content_type="application/json", CONTENT_LENGTH="12abc"
    )
    # Django reads a body of unreadable length as empty: the rules name the missing field.
    assert odd.status_code == 400 and "db" in odd.json()
    assert len(rendered_odds._answers) == 0

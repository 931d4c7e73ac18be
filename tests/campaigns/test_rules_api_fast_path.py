"""The odds endpoint's shortcuts (campaigns/rules_api.py ResolveAPI) keep DRF's answers:
JSON for JSON clients, the browsable page for a browser, a bad token still refused,
a signed-in player's roll still recorded as theirs."""

import json

import pytest
from django.test import Client

from campaigns.models import RollRecord

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

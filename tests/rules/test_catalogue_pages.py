"""The catalogue of a system to browse, with its search, linked from the builders."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_it_lists_archetypes_with_their_affiliation_talents_weapons_and_armours(client):
    html = client.get(reverse("catalogue", args=["kolaps"])).content.decode()
    archetypes = html[html.index('id="catalogue-archetypes"') :]
    assert "Agent de Police</strong> · APC" in archetypes
    assert 'id="talent-discipline"' in html
    assert 'id="catalogue-weapons"' in html and 'id="catalogue-armours"' in html
    assert "Discipline de commandement de l&#x27;APC" in html  # summaries in French


def test_its_search_keeps_only_what_matches_and_says_how_many(client):
    url = reverse("catalogue", args=["kolaps"])
    html = client.get(url, {"q": "vampire"}).content.decode()
    assert 'id="archetype-chasseur"' in html
    assert 'id="archetype-agent-de-police"' not in html
    partial = client.get(
        url, {"q": "zzz-nothing"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="catalogue-entries"
    ).content.decode()
    assert "<html" not in partial and "0 entrée trouvée." in partial


def test_its_api_twin_serves_the_same_card_and_refuses_a_system_without_one(client):
    body = client.get(reverse("api-catalogue", args=["kolaps"]), {"q": "fusil"}).json()
    assert any(t["slug"] == "fusil" for t in body["talents"])
    refused = client.get(reverse("api-catalogue", args=["of-the-dead"]))
    assert refused.status_code == 404 and "catalogue" in refused.json()["detail"]
    page = client.get(reverse("catalogue", args=["of-the-dead"]))
    assert page.status_code == 404


def test_the_builders_link_to_it(client):
    client.force_login(PlayerFactory())
    html = client.get(reverse("kolaps-list")).content.decode()
    assert reverse("catalogue", args=["kolaps"]) in html

"""The Rapid 40000 army history in a player's words: display names, not logins ("alice —
combattants ajoutés"), and an undo that says what it took back, not a bare "annulé"."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from characters.permissions import Refusal
from characters.rapid40k import services
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_history_names_the_player_and_what_an_undo_took_back(client):
    alice = PlayerFactory(username="alice", display_name="Alice")
    army = services.army_create(owner=alice, name="Ultramarines", faction="space_marines")
    army = services.army_change(
        actor=alice, army=army, version=army.version, action="settings", data={"name": "Rouges"}
    )
    services.army_undo(actor=alice, army=army, version=army.version)
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(reverse("rapid40k-army-history", args=[army.pk])).content.decode()
    history = re.search(r'<ol class="history".*?</ol>', html, re.S).group(0)
    items = re.findall(r"</time>(.*?)</li>", history, re.S)
    lines = [re.sub(r"<[^>]+>|\s+", " ", item).replace("\u00a0", " ").strip() for item in items]
    assert lines[0] == "Alice — annulé : nom, armée ou limite changés"
    assert not any(line.startswith("alice") for line in lines)


def test_a_faction_s_army_offers_and_takes_only_its_own_profiles(client):
    """An army of the annex ("Armée" : each army has its own profiles): the builder offered
    Ork and Tau profiles in a Space Marines army and took them without a word."""
    alice = PlayerFactory()
    army = services.army_create(owner=alice, name="Ultramarines", faction="space_marines")
    army = services.army_change(
        actor=alice,
        army=army,
        version=army.version,
        action="squad_add",
        data={"name": "Tactique", "slot": "troops", "leader": "space_marines:sergent"},
    )
    with pytest.raises(Refusal) as refused:
        services.army_change(
            actor=alice,
            army=army,
            version=army.version,
            action="fighter_add",
            data={"squad": 0, "profile": "orks:boy", "count": 2},
        )
    assert refused.value.field == "profile"
    assert "Space Marines" in str(refused.value.message)
    client.force_login(alice)
    html = client.get(reverse("rapid40k-army", args=[army.pk])).content.decode()
    assert 'value="space_marines:soldat"' in html
    assert 'value="orks:boy"' not in html and 'value="tau:' not in html

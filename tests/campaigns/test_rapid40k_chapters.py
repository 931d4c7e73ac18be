"""Rapid 40000 campaigns: created like the others, army lists entered into their chapters
as KOLAPS units are, and a chapter that starts only with valid lists."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.entries import chapter_army_enter, chapter_army_withdraw
from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.history import event_sentence
from campaigns.models import CampaignEvent
from campaigns.services import campaign_add_participant, campaign_create
from characters.permissions import Refusal
from characters.rapid40k import services as rapid40k
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

BOY = {"quality": 4, "combat": 3, "weapon": "fling", "special_rules": ["charge_feroce"]}


def army_of(player, name="Waaagh", troops=2):
    squads = [("Boss", "command", "orks:big_boss")] + [
        (f"Boyz {i}", "troops", "orks:nob") for i in range(troops)
    ]
    payload = {
        "format": "chronique.rapid40k.army",
        "format_version": 1,
        "name": name,
        "squads": [
            {"name": n, "slot": slot, "leader": leader, "fighters": [{**BOY, "count": 4}]}
            for n, slot, leader in squads
        ],
    }
    return rapid40k.army_import(owner=player, payload=payload)


@pytest.fixture
def table():
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Armageddon", system="rapid40k")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La ruche")
    return {"organiser": organiser, "alice": alice, "campaign": campaign, "chapter": chapter}


def test_a_rapid40k_campaign_can_be_created_from_its_page(client):
    organiser = PlayerFactory()
    client.force_login(organiser)
    body = {
        "name": "Armageddon",
        "system": "rapid40k",
        "survival_points_survive": 1,
        "survival_points_victory": 1,
    }
    assert "Rapid 40000" in client.get(reverse("campaign-create")).content.decode()
    response = client.post(reverse("campaign-create"), body)
    assert response.status_code == 302
    assert organiser.organised_campaigns.get().system == "rapid40k"


def test_a_player_enters_a_valid_army_and_the_chapter_page_shows_it(client, table):
    army = army_of(table["alice"])
    chapter_army_enter(actor=table["alice"], chapter=table["chapter"], army=army, side="Nord")
    client.force_login(table["organiser"])
    html = client.get(reverse("chapter-detail", args=[table["chapter"].pk])).content.decode()
    assert "Waaagh" in html
    assert f'<output data-points="{army.pk}">{army.points}</output>' in html


def test_a_draft_army_does_not_enter(table):
    army = army_of(table["alice"], troops=1)
    assert not army.is_valid
    with pytest.raises(Refusal, match="problèmes"):
        chapter_army_enter(actor=table["alice"], chapter=table["chapter"], army=army)


def test_someone_else_s_army_does_not_enter(table):
    army = army_of(PlayerFactory())
    with pytest.raises(Refusal):
        chapter_army_enter(actor=table["alice"], chapter=table["chapter"], army=army)


def test_an_army_that_became_a_draft_holds_the_start_until_withdrawn(table):
    army = army_of(table["alice"])
    chapter_army_enter(actor=table["alice"], chapter=table["chapter"], army=army)
    army = rapid40k.army_change(
        actor=table["alice"], army=army, version=army.version, action="squad_remove",
        data={"squad": 2},
    )  # fmt: skip
    with pytest.raises(Refusal, match="Waaagh"):
        chapter_start(actor=table["organiser"], chapter=table["chapter"])
    chapter_army_withdraw(actor=table["organiser"], chapter=table["chapter"], army=army)
    with pytest.raises(Refusal, match="Entrez au moins une liste"):
        chapter_start(actor=table["organiser"], chapter=table["chapter"])
    chapter_army_enter(actor=table["alice"], chapter=table["chapter"], army=army_of(table["alice"]))
    assert chapter_start(actor=table["organiser"], chapter=table["chapter"]).status == "current"


def test_the_api_enters_an_army_and_withdraws_it(client, table):
    army = army_of(table["alice"])
    client.force_login(table["alice"])
    url = reverse("api-chapter-armies", args=[table["chapter"].pk])
    body = client.post(url, {"army": army.pk}, content_type="application/json").json()
    assert [a["army_name"] for a in body["armies"]] == ["Waaagh"]
    response = client.delete(reverse("api-chapter-army", args=[table["chapter"].pk, army.pk]))
    assert response.json()["armies"] == []


def test_the_campaign_history_names_the_army_entered_and_withdrawn(table):
    """The history line of an entry says which army list, not "changed the campaign"."""
    army = army_of(table["alice"], name="Waaagh du Nord")
    chapter_army_enter(actor=table["alice"], chapter=table["chapter"], army=army)
    chapter_army_withdraw(actor=table["alice"], chapter=table["chapter"], army=army)
    events = CampaignEvent.objects.filter(verb__in=("army_entered", "army_withdrawn"))
    with translation.override("fr"):
        lines = [
            event_sentence("Alice", e.verb, e.data).replace("\u2068", "").replace("\u2069", "")
            for e in events.order_by("pk")
        ]
    assert lines == [
        "Alice a engagé la liste d'armée Waaagh du Nord dans un chapitre",
        "Alice a retiré la liste d'armée Waaagh du Nord d'un chapitre",
    ]

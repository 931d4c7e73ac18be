"""A KOLAPS chapter's live encounter: opened from the chapter being played, ended into the
chapter's close for the organiser to review; KOLAPS chapters speak KOLAPS only."""

import pytest
from django.conf import settings
from django.urls import reverse

from campaigns.chapters.entries import chapter_unit_enter
from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import CampaignEvent, Chapter
from campaigns.services import campaign_add_participant, campaign_create
from characters.permissions import Forbidden, Refusal
from rules.table.models import Combatant, Encounter
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_create_for_chapter,
    encounter_end,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, police_unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    organiser = PlayerFactory(username="orga")
    anna, boris = PlayerFactory(username="anna"), PlayerFactory(username="boris")
    campaign = campaign_create(organiser=organiser, name="Nuit", system="kolaps")
    for player in (anna, boris):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La gare")
    police = police_unit(anna, "Brigade")
    hunters = hunter_unit(boris, "Meute")
    chapter_unit_enter(actor=anna, chapter=chapter, unit=police)
    chapter_unit_enter(actor=boris, chapter=chapter, unit=hunters)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    return chapter, organiser, anna, boris, police, hunters


def _en(client, player):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_organiser_opens_it_from_the_chapter_page_and_each_player_plays_their_unit(
    client, played
):
    chapter, organiser, anna, boris, _police, _hunters = played
    page = _en(client, organiser).get(reverse("chapter-detail", args=[chapter.pk]))
    assert 'id="table-open"' in page.content.decode()
    response = client.post(reverse("chapter-table", args=[chapter.pk]))
    encounter = Encounter.objects.get(chapter=chapter)
    assert response.url == reverse("table-encounter", args=[encounter.pk])
    sides = {c.side: c.player_id for c in Combatant.objects.filter(encounter=encounter)}
    assert sides == {"Brigade": anna.pk, "Meute": boris.pk}
    page = _en(client, anna).get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert f'href="{reverse("table-encounter", args=[encounter.pk])}"' in page
    with pytest.raises(Forbidden):
        encounter_create_for_chapter(actor=anna, chapter=chapter)


def test_a_planned_chapter_has_no_encounter_yet(played):
    chapter, organiser, *_ = played
    planned = chapter_plan(actor=organiser, campaign=chapter.campaign, title="Le tunnel")
    with pytest.raises(Refusal):
        encounter_create_for_chapter(actor=organiser, chapter=planned)


def test_ending_it_fills_the_close_for_the_organiser_to_review(client, played):
    chapter, organiser, _anna, _boris, _police, hunters = played
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    croc = Combatant.objects.get(encounter=encounter, name="Croc")
    griffe = Combatant.objects.get(encounter=encounter, name="Griffe")
    encounter_act(
        actor=organiser, encounter=encounter, version=None,
        action=ActionInput(kind="wound", target=croc.pk, wound="lethal"),
    )  # fmt: skip
    encounter_act(
        actor=organiser, encounter=encounter, version=None,
        action=ActionInput(kind="wound", target=griffe.pk, wound="benign"),
    )  # fmt: skip
    encounter_end(actor=organiser, encounter=encounter, version=None)
    record = Chapter.objects.get(pk=chapter.pk).table_record
    assert record["units"][str(hunters.pk)]["lost_ids"] == [croc.kolaps_character_id]
    assert record["sides"]["Meute"]["wounded"] == ["Griffe"]
    assert CampaignEvent.objects.filter(verb="encounter_ended").count() == 1
    close = _en(client, organiser).get(reverse("chapter-close", args=[chapter.pk]))
    html = close.content.decode()
    assert 'id="table-summary"' in html
    lost_box = f'value="{croc.kolaps_character_id}"'
    checked = html[html.index(lost_box) : html.index(lost_box) + 80]
    assert "checked" in checked
    assert "Croc is lost." in html and "The encounter lasted 1 turns." in html


def test_a_kolaps_chapter_speaks_kolaps_only(client, played):
    chapter, organiser, *_ = played
    page = _en(client, organiser).get(reverse("chapter-detail", args=[chapter.pk]))
    assert 'id="vocation-form"' not in page.content.decode()
    close = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    assert "Kills by zombie type" not in close and "kills_" not in close

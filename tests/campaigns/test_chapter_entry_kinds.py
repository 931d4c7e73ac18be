"""What a system's players enter into its chapters is said once, in its declaration
(`CampaignSystem.entry_kind`): the sheet pages answer only a campaign whose system enters
sheets, and a chapter of a system whose close lists what was entered cannot start empty
(its close would list nothing, and "Record the outcome of at least one participant." would
refuse it forever)."""

import dataclasses

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns import systems
from campaigns.chapters.entries import entry_kind_of
from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import ChapterStatus
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.systems.entry_kinds import MODERN_SHEET
from characters.corporates.services import corporates_character_create
from characters.permissions import Refusal
from rules.engine.systems import SYSTEMS
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


def _chapter(system: str):
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Front", system=system)
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    return organiser, alice, chapter_plan(actor=organiser, campaign=campaign, title="Col")


def test_the_sheet_pages_of_a_kolaps_chapter_are_404_page_and_api(client):
    _organiser, alice, chapter = _chapter("kolaps")
    sheet = corporates_character_create(owner=alice, name="Vex")
    client.force_login(alice)
    page = client.post(reverse("chapter-sheet-enter", args=[chapter.pk]), {"character": sheet.pk})
    assert page.status_code == 404
    api = client.post(
        reverse("api-chapter-sheets", args=[chapter.pk]),
        {"character": sheet.pk},
        content_type="application/json",
    )
    assert api.status_code == 404
    withdraw = client.post(reverse("chapter-sheet-withdraw", args=[chapter.pk, sheet.pk]))
    assert withdraw.status_code == 404
    api_withdraw = client.delete(reverse("api-chapter-sheet", args=[chapter.pk, sheet.pk]))
    assert api_withdraw.status_code == 404


def test_what_a_system_enters_is_read_from_its_declaration_only(monkeypatch):
    for game in SYSTEMS:
        assert entry_kind_of(game.slug) is systems.campaign_system(game.slug).entry_kind
    # A system declaring sheets of its own needs no list of names beside its declaration.
    declared = dataclasses.replace(systems.REGISTRY["of-the-dead"], entry_kind=MODERN_SHEET)
    monkeypatch.setitem(systems.REGISTRY, "of-the-dead", declared)
    assert entry_kind_of("of-the-dead") is MODERN_SHEET


@pytest.mark.parametrize(
    ("system", "sentence"),
    [
        ("kolaps", "Enter at least one unit before the chapter starts."),
        ("rapid40k", "Enter at least one army list before the chapter starts."),
        ("corporates", "Enter at least one character before the chapter starts."),
        ("modern-rpg", "Enter at least one character before the chapter starts."),
    ],
)
def test_a_chapter_whose_close_lists_its_entries_does_not_start_empty(client, system, sentence):
    organiser, _alice, chapter = _chapter(system)
    with pytest.raises(Refusal, match=sentence):
        chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    api = client.post(reverse("api-chapter-start", args=[chapter.pk]))
    assert api.status_code in (400, 409) and sentence in api.content.decode()
    page = client.post(reverse("chapter-start", args=[chapter.pk]), follow=True)
    assert sentence in page.content.decode()
    chapter.refresh_from_db()
    assert chapter.status == ChapterStatus.PLANNED


def test_the_refusal_to_start_empty_is_french_first(client):
    organiser, _alice, chapter = _chapter("kolaps")
    client.force_login(organiser)
    client.cookies["django_language"] = "fr"
    api = client.post(reverse("api-chapter-start", args=[chapter.pk]))
    assert api.status_code == 400
    assert "Entrez au moins une unité avant de commencer le chapitre." in str(api.json())


def test_a_chapter_of_a_system_entering_nothing_still_starts_empty():
    organiser, _alice, chapter = _chapter("of-the-dead")
    assert chapter_start(actor=organiser, chapter=chapter).status == ChapterStatus.CURRENT

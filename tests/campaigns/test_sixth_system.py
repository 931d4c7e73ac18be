"""A sixth system, Duel, that exists only in the tests (`tests/sixth_system`), registered
through the seam and played from campaign to standings through the pages: a campaign, a
chapter, its close (the form built from Duel's declaration), its settlement (Duel's own
pure settlement) and its standings (Duel's columns and order). Nothing of the product
names it."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import ChapterSettlement
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.settlement.apply import settlement_apply
from campaigns.systems import REGISTRY
from campaigns.systems.base import CampaignSystem
from rules.engine import systems
from tests.factories import PlayerFactory
from tests.sixth_system.campaign import DUEL

pytestmark = pytest.mark.django_db


@pytest.fixture
def register(monkeypatch):
    """Duel's registration: one line in the engine's registry, one in the campaign app's."""
    monkeypatch.setitem(systems._BY_SLUG, DUEL.slug, DUEL)
    monkeypatch.setitem(REGISTRY, DUEL.slug, CampaignSystem(game=DUEL))


def test_a_sixth_system_plays_from_campaign_to_standings(client, register):
    organiser, kid, doc = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Tombstone", system="duel")
    for player in (kid, doc):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Midi")
    chapter = chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    url = reverse("chapter-close", args=[chapter.pk])
    with translation.override("en"):
        form = client.get(url).content.decode()
    assert f'name="p{kid.pk}_hits"' in form and 'max="6"' in form
    assert "Died" not in form and "zombie" not in form.lower()
    response = client.post(
        url,
        {
            "epilogue": "Doc tire le premier.",
            f"p{kid.pk}_result": "defeat",
            f"p{kid.pk}_hits": 1,
            f"p{doc.pk}_result": "victory",
            f"p{doc.pk}_hits": 3,
        },
    )
    assert response.status_code == 302, response.content.decode()
    preview = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    assert "The hits are counted" in preview
    settlement_apply(chapter_id=chapter.pk)
    assert ChapterSettlement.objects.get(chapter=chapter).summary["participants"] == 2
    html = client.get(reverse("campaign-leaderboard", args=[campaign.pk])).content.decode()
    table = html[html.index('<table class="odds" id="standings">') :]
    assert table.index(doc.display_name) < table.index(kid.display_name)
    assert "<th>Score</th><th>Wins</th><th>Hits</th>" in table
    assert "Reputation" not in html

"""The organiser's chapter close costs the same queries whatever the number of players: the
close form, the close through the API, then the settlement's preview."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.services import chapter_plan
from campaigns.models import ChapterOutcome, ChapterStatus
from tests.settlement_fixtures import of_the_dead_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.mark.parametrize("size", [3, 30])
def test_the_close_form_the_close_and_the_settlement_cost_the_same_queries(
    client, django_assert_num_queries, size
):
    organiser, campaign, players = of_the_dead_table(players=size, prefix=f"q{size}")
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    client.force_login(organiser)
    # user (the session from the cache), chapter with my membership, the players
    with django_assert_num_queries(3):
        form = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    assert form.count("<fieldset>") == size
    body = {
        "epilogue": "Ils passent.",
        "outcomes": [{"player": p.pk, "result": "victory", "died": False} for p in players],
    }
    # chapter with my membership (the user from the session cache); in the transaction: the
    # chapter locked, the memberships, the outcomes, the chapter, the history; then the card
    # of the row written, with the memberships it read (neither read again): vocations,
    # outcomes, unit results, votes
    with CaptureQueriesContext(connection) as queries:
        closed = client.post(
            reverse("api-chapter-close", args=[chapter.pk]), body, content_type="application/json"
        )
    assert closed.status_code == 200, closed.content
    written = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert len(written) == 10, "\n".join(written)
    assert closed.json()["status"] == ChapterStatus.CLOSED
    assert len(closed.json()["outcomes"]) == ChapterOutcome.objects.filter(chapter=chapter).count()
    assert len(closed.json()["outcomes"]) == size
    # chapter with my membership and its settlement, the outcomes with the profiles and
    # their survival points in the ledger, the traumas (active or of this chapter), the
    # encounter log (damage dealt and taken, rolls) in one
    with django_assert_num_queries(4):
        page = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    assert players[0].display_name in page

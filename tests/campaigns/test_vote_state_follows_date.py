"""A vote's state follows its date wherever it is read, with or without a beat; the
embedded beat of `make run` runs what celery beat runs; a played chapter never wins the
next-chapter vote, not even on a tie; mail links follow the port `make run` serves."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import Vote, VoteStatus
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.votes.services import ballot_cast, vote_close, vote_open
from characters.permissions import Refusal
from config import embedded_beat
from rules.engine.systems.of_the_dead.votes import count_next_chapter
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table():
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Les quais", system="of-the-dead")
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    first = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    second = chapter_plan(actor=organiser, campaign=campaign, title="Le quai")
    return organiser, alice, bruno, campaign, first, second


def _vote(table, closes_in=timedelta(hours=1)):
    organiser, _alice, _bruno, campaign, first, second = table
    return vote_open(
        actor=organiser,
        campaign=campaign,
        kind="next_chapter",
        candidates=[first, second],
        closes_at=timezone.now() + closes_in,
    )


def _later(monkeypatch, delta):
    now = timezone.now() + delta
    monkeypatch.setattr(timezone, "now", lambda: now)


def test_past_its_date_the_page_and_the_api_show_the_vote_closed_with_its_result(
    client, table, monkeypatch
):
    _organiser, alice, bruno, campaign, _first, second = table
    vote = _vote(table)
    ballot_cast(voter=bruno, vote=vote, chapter=second)
    _later(monkeypatch, timedelta(hours=1, seconds=1))
    client.force_login(alice)
    campaign_page = client.get(reverse("campaign-detail", args=[campaign.pk]))
    assert reverse("vote-detail", args=[vote.pk]) not in campaign_page.content.decode()
    answer = client.get(reverse("api-vote-detail", args=[vote.pk])).json()
    assert answer["status"] == "closed"
    assert answer["can_vote"] is False
    assert Vote.objects.get(pk=vote.pk).winner_id == second.pk
    page = client.get(reverse("vote-detail", args=[vote.pk]))
    assert 'name="chapter"' not in page.content.decode()  # no ballot form


def test_a_ballot_past_the_date_is_refused_as_the_page_says(client, table, monkeypatch):
    _organiser, alice, _bruno, _campaign, first, _second = table
    vote = _vote(table)
    _later(monkeypatch, timedelta(hours=1, seconds=1))
    client.force_login(alice)
    response = client.post(
        reverse("api-vote-ballot", args=[vote.pk]),
        {"chapter": first.pk},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "Ce vote est clos." in str(response.json())
    assert client.get(reverse("api-vote-detail", args=[vote.pk])).json()["status"] == "closed"


def test_the_embedded_beat_runs_every_scheduled_task_at_its_interval(settings, table):
    vote = _vote(table)
    Vote.objects.filter(pk=vote.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
    last_run: dict[str, float] = {}
    assert set(embedded_beat.run_due(last_run, now=1000.0)) == set(settings.CELERY_BEAT_SCHEDULE)
    assert Vote.objects.get(pk=vote.pk).status == VoteStatus.CLOSED
    assert embedded_beat.run_due(last_run, now=1001.0) == []  # not due again yet
    assert "votes-close-due" in embedded_beat.run_due(last_run, now=1000.0 + 61)


def test_make_run_turns_the_embedded_beat_on_and_gives_the_port_to_site_url():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "SITE_URL ?= http://127.0.0.1:$(PORT)" in makefile
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert re.search(r"SITE_URL=\$\(SITE_URL\) EMBEDDED_BEAT=true .*manage.py runserver", run)


def test_a_tie_never_picks_a_chapter_already_played(table):
    organiser, alice, bruno, _campaign, first, second = table
    vote = _vote(table)
    ballot_cast(voter=alice, vote=vote, chapter=first)
    ballot_cast(voter=bruno, vote=vote, chapter=second)
    chapter_start(actor=organiser, chapter=first)  # played since the vote opened
    closed = vote_close(actor=organiser, vote=vote)
    assert closed.winner_id == second.pk
    assert closed.result["counts"] == {str(first.pk): 1, str(second.pk): 1}


def test_a_played_chapter_takes_no_new_ballot(table):
    organiser, alice, _bruno, _campaign, first, _second = table
    vote = _vote(table)
    chapter_start(actor=organiser, chapter=first)
    with pytest.raises(Refusal) as refused:
        ballot_cast(voter=alice, vote=vote, chapter=first)
    assert refused.value.field == "chapter"


@pytest.mark.parametrize(
    ("ballots", "played", "winner"),
    [
        ([1, 2], set(), 1),  # a tie: the chapter planned first
        ([1, 2], {1}, 2),  # ... unless it was played: the next one still to play
        ([1, 1, 2], {1}, 2),  # the most ballots, but played: never the next chapter
        ([1], {1}, None),  # only played chapters have ballots: no winner
    ],
)
def test_the_count_leaves_played_chapters_out_of_the_winners(ballots, played, winner):
    """docs/of-the-dead.md, next-chapter vote: a candidate played since the vote opened
    never wins; among those still to play, the tie goes to the one planned first."""
    counted = count_next_chapter(ballots, [(1, 1), (2, 2)], played=played)
    assert counted.winner == winner

"""A campaign of one system never shows another system's words: a crawl of the demo's
campaigns of every system but Of the Dead, in French and in English, as their organiser,
over every page of the campaign (`PAGES`): the campaign, its forms (the campaign's, a new
chapter's, a vote's, the rules settings), each chapter and the form editing it, the close
of each chapter not closed yet, the settlement of each closed chapter, the standings; then
as a player and as a co-organiser of that campaign alone, the pages they see
(`AS_MEMBERS`) and their dashboard.

To cover more pages, add their route to `PAGES` (a route name and which chapters it is
visited for).
"""

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, ChapterStatus
from campaigns.services import campaign_add_participant, co_organiser_add
from characters.models import Player
from tests.factories import PlayerFactory

LANGUAGES = ("fr", "en")
# route name -> which of a campaign's chapters it is visited for ("campaign": once).
PAGES = {
    "campaign-detail": "campaign",
    "campaign-edit": "campaign",
    "chapter-create": "campaign",
    "vote-open": "campaign",
    "campaign-rules-settings": "campaign",
    "chapter-detail": "all",
    "chapter-edit": "open",
    "chapter-close": "open",
    "chapter-settlement": "closed",
    "campaign-leaderboard": "campaign",
}
# What a player and a co-organiser of the campaign alone see of it, then their dashboard.
AS_MEMBERS = ("campaign-detail", "chapter-detail", "campaign-leaderboard")

OF_THE_DEAD = (
    r"vocations?",
    r"zombies?",
    r"survie",
    r"survival",
    r"traumas?",
    r"traumatismes?",
    r"parachutages?",
    r"r[ée]putation",
    r"baroudeur",
)
KOLAPS = (r"VU", r"Avatar", r"K12")
RAPID40K = (r"escouades?", r"squads?", r"figurines?", r"figures?")
FOREIGN = {
    # Not foreign there: the crawl must find them on Of the Dead's own pages (it can see).
    "of-the-dead": OF_THE_DEAD,
    "kolaps": OF_THE_DEAD + RAPID40K,
    "rapid40k": OF_THE_DEAD + KOLAPS,
    "modern-rpg": OF_THE_DEAD + KOLAPS + RAPID40K,
    "corporates": OF_THE_DEAD + KOLAPS + RAPID40K,
}


class _Main(HTMLParser):
    """The text of the page's <main> (the site's menu names every system)."""

    def __init__(self):
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "main" or self.depth:
            self.depth += 1
        if self.depth and tag in ("input", "option"):
            self.parts.append(" ".join(v or "" for k, v in attrs if k in ("value", "title")))

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def _text(html: str) -> str:
    parser = _Main()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def pages_of(campaign: Campaign, routes=tuple(PAGES)) -> list[str]:
    urls = []
    for route in routes:
        which = PAGES[route]
        if which == "campaign":
            urls.append(reverse(route, args=[campaign.pk]))
            continue
        for chapter in campaign.chapters.order_by("number"):
            closed = chapter.status == ChapterStatus.CLOSED
            if which == "all" or closed == (which == "closed"):
                urls.append(reverse(route, args=[chapter.pk]))
    return urls


def members_of(campaign: Campaign) -> list[Player]:
    """A new player of the campaign and a new co-organiser of it, in no other campaign."""
    organiser = campaign.organiser
    player = PlayerFactory(username=f"crawl-player-{campaign.pk}")
    campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    co_organiser = PlayerFactory(username=f"crawl-co-organiser-{campaign.pk}")
    co_organiser_add(actor=organiser, campaign=campaign, player=co_organiser)
    return [player, co_organiser]


@pytest.fixture(scope="module")
def crawled(django_db_setup, django_db_blocker):
    """{(language, system, url): (status, foreign words found)}, the demo loaded once."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo_load", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
        campaigns = list(Campaign.objects.select_related("organiser").order_by("pk"))
        members = {campaign.pk: members_of(campaign) for campaign in campaigns}
        orga = Player.objects.get(username="orga")
        found = {}
        for language in LANGUAGES:
            for campaign in campaigns:
                words = re.compile(
                    r"\b(" + "|".join(FOREIGN[campaign.system]) + r")\b", re.IGNORECASE
                )
                visits = [(orga, url) for url in pages_of(campaign)] + [
                    (member, url)
                    for member in members[campaign.pk]
                    for url in [*pages_of(campaign, AS_MEMBERS), reverse("dashboard")]
                ]
                for viewer, url in visits:
                    client = Client()
                    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
                    client.force_login(viewer)
                    response = client.get(url)
                    text = _text(response.content.decode())
                    found[(language, campaign.system, url, viewer.username)] = (
                        response.status_code,
                        sorted({m.group(0) for m in words.finditer(text)}),
                    )
        yield found
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_the_crawl_reaches_each_systems_close_settlement_and_standings(crawled):
    routes = {(system, url.split("/")[1], url.rstrip("/").rsplit("/", 1)[-1])
              for _lang, system, url, _viewer in crawled}  # fmt: skip
    for system in ("of-the-dead", "kolaps", "rapid40k", "modern-rpg"):
        assert (system, "chapters", "close") in routes
        assert (system, "chapters", "settlement") in routes
        assert (system, "campaigns", "leaderboard") in routes
    assert {key: status for key, (status, _words) in crawled.items() if status != 200} == {}


@pytest.mark.django_db
def test_no_page_of_a_campaign_shows_another_systems_words(crawled):
    shown = {key: words for key, (_status, words) in crawled.items() if words}
    of_the_dead = {key for key in shown if key[1] == "of-the-dead"}
    # Of the Dead's close, settlement and leaderboard speak of it, in both languages.
    assert {key[0] for key in of_the_dead} == set(LANGUAGES)
    assert {key: words for key, words in shown.items() if key not in of_the_dead} == {}

"""A campaign of one system never shows another system's words: a crawl of the demo's
campaigns of every system but Of the Dead, in French and in English, as their organiser,
over the pages each campaign's system speaks through (`PAGES`): the close of each chapter
not closed yet, the settlement of each closed chapter, the standings.

To cover more pages, add their route to `PAGES` (a route name and which chapters it is
visited for); `NOT_YET` names the campaign pages whose words other work is cleaning, so
that they join the crawl when it lands.
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
from characters.models import Player

LANGUAGES = ("fr", "en")
# route name -> which of a campaign's chapters it is visited for ("campaign": once).
PAGES = {
    "chapter-close": "open",
    "chapter-settlement": "closed",
    "campaign-leaderboard": "campaign",
}
# Campaign pages that still show Of the Dead's planning words to every system (the campaign
# and chapter forms, the chapter page, the dashboard): they join PAGES once cleaned.
NOT_YET = ("campaign-detail", "campaign-edit", "chapter-detail", "chapter-edit", "dashboard")

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


def pages_of(campaign: Campaign) -> list[str]:
    urls = []
    for route, which in PAGES.items():
        if which == "campaign":
            urls.append(reverse(route, args=[campaign.pk]))
            continue
        for chapter in campaign.chapters.all():
            closed = chapter.status == ChapterStatus.CLOSED
            if closed == (which == "closed"):
                urls.append(reverse(route, args=[chapter.pk]))
    return urls


@pytest.fixture(scope="module")
def crawled(django_db_setup, django_db_blocker):
    """{(language, system, url): (status, foreign words found)}, the demo loaded once."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo_load", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
        found = {}
        for language in LANGUAGES:
            client = Client()
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            client.force_login(Player.objects.get(username="orga"))
            for campaign in Campaign.objects.order_by("pk"):
                words = re.compile(
                    r"\b(" + "|".join(FOREIGN[campaign.system]) + r")\b", re.IGNORECASE
                )
                for url in pages_of(campaign):
                    response = client.get(url)
                    text = _text(response.content.decode())
                    found[(language, campaign.system, url)] = (
                        response.status_code,
                        sorted({m.group(0) for m in words.finditer(text)}),
                    )
        yield found
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_the_crawl_reaches_each_systems_close_settlement_and_standings(crawled):
    routes = {(system, url.split("/")[1], url.rstrip("/").rsplit("/", 1)[-1])
              for _lang, system, url in crawled}  # fmt: skip
    for system in ("of-the-dead", "kolaps", "rapid40k", "modern-rpg"):
        assert (system, "chapters", "close") in routes
        assert (system, "chapters", "settlement") in routes
        assert (system, "campaigns", "leaderboard") in routes
    assert all(status == 200 for status, _words in crawled.values())


@pytest.mark.django_db
def test_no_page_of_a_campaign_shows_another_systems_words(crawled):
    shown = {key: words for key, (_status, words) in crawled.items() if words}
    of_the_dead = {key for key in shown if key[1] == "of-the-dead"}
    # Of the Dead's close, settlement and leaderboard speak of it, in both languages.
    assert {key[0] for key in of_the_dead} == set(LANGUAGES)
    assert {key: words for key, words in shown.items() if key not in of_the_dead} == {}

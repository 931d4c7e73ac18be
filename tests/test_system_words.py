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
from rules.engine.systems import system_get
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


def _json_words(value) -> list[str]:
    """The words of an API answer: its keys (`survival_points` reads "survival points") and
    its texts."""
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (str(k).replace("_", " "), *_json_words(v))]
    if isinstance(value, list):
        return [w for item in value for w in _json_words(item)]
    return [value] if isinstance(value, str) else []


def close_body(card: dict, result: str) -> dict:
    """A close of the chapter `card` shows: `result` for each roster entered, else for each
    player."""
    rows = {
        "unit_results": [{"unit": u["unit_id"], "result": result} for u in card.get("units", [])],
        "army_results": [{"army": a["army_id"], "result": result} for a in card.get("armies", [])],
    }
    if not any(rows.values()):
        rows["outcomes"] = [{"player": p["id"], "result": result} for p in card["players"]]
    return {"epilogue": "Fin.", **rows}


def api_answers(client, campaign: Campaign):
    """(what, answer) of every API endpoint of the campaign: the campaign, its standings,
    each chapter, the settlement of each closed one, and the close of each open one with
    the settlement's preview it leads to (undone afterwards)."""
    yield "campaign", client.get(reverse("api-campaign-detail", args=[campaign.pk]))
    yield "standings", client.get(reverse("api-campaign-leaderboard", args=[campaign.pk]))
    result = system_get(campaign.system).close.results[0]
    for chapter in campaign.chapters.order_by("pk"):
        card = client.get(reverse("api-chapter-detail", args=[chapter.pk]))
        yield "chapter", card
        settlement = reverse("api-chapter-settlement", args=[chapter.pk])
        if chapter.status == ChapterStatus.CLOSED:
            yield "settlement", client.get(settlement)
            continue
        with transaction.atomic():
            yield (
                "close",
                client.post(
                    reverse("api-chapter-close", args=[chapter.pk]),
                    close_body(card.json(), result),
                    content_type="application/json",
                ),
            )
            yield "preview", client.get(settlement)
            transaction.set_rollback(True)


@pytest.fixture(scope="module")
def api_crawled(django_db_setup, django_db_blocker):
    """{(language, system, what, url): (status, foreign words found)} over `api_answers`."""
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
                for n, (what, response) in enumerate(api_answers(client, campaign)):
                    text = " ".join(_json_words(response.json()))
                    found[(language, campaign.system, what, n)] = (
                        response.status_code,
                        sorted({m.group(0) for m in words.finditer(text)}),
                    )
        yield found
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_the_api_of_a_campaign_speaks_only_its_systems_words(api_crawled):
    """The campaign, its standings, its chapters, their close and settlement, as JSON keys
    and values: no other system's words (Of the Dead's own are found, in both languages)."""
    kinds = {(system, what) for _lang, system, what, _n in api_crawled}
    for system in ("kolaps", "rapid40k", "modern-rpg"):
        for what in ("campaign", "standings", "chapter", "settlement", "close", "preview"):
            assert (system, what) in kinds
    statuses = {key: status for key, (status, _words) in api_crawled.items()}
    assert {key: s for key, s in statuses.items() if s not in (200, 202)} == {}
    shown = {key: words for key, (_status, words) in api_crawled.items() if words}
    assert {key[0] for key in shown if key[1] == "of-the-dead"} == set(LANGUAGES)
    assert {key: words for key, words in shown.items() if key[1] != "of-the-dead"} == {}


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

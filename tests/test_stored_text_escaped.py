"""Stored text with HTML, script, right-to-left and zero-width characters, planted in the
demo through the services as a user would, is shown as text on every page a player and an
organiser can reach (print sheets, the SVG chart and the iCalendar feed included), and
isolated where it stands among the page's own words: a right-to-left override typed in a
name reorders nothing outside it (`characters.bidi`)."""

import re
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command

from campaigns.chapters.services import chapter_update
from campaigns.models import Campaign, Chapter, ChapterStatus
from campaigns.services import calendar_feed_token, campaign_update
from characters.accounts.services import player_update
from characters.kolaps import services as kolaps
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.models import Player, Profile
from characters.profiles.services import profile_update, trauma_add
from config.demo.keys import recall

pytestmark = pytest.mark.django_db

# Right-to-left override, zero-width space and joiner, quotes and an ampersand around two
# ways to run a script.
PAYLOAD = "<script>alert(1)</script>\u202e<img src=x onerror=alert(2)>\u200b\u200d\"'&"
RAW = ("<script>alert(1)", "<img src=x")
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
SKIPPED = ("/logout", "/admin", "/api/", "/static/", "/i18n/", "/accounts/logout")


@pytest.fixture
def planted():
    call_command("demo_load", stdout=open("/dev/null", "w"))  # noqa: SIM115
    orga, alice = Player.objects.get(username="orga"), Player.objects.get(username="alice")
    player_update(player=alice, email=alice.email, display_name=PAYLOAD[:80])
    campaign = recall("of-the-dead/campaign", Campaign)
    campaign_update(actor=orga, campaign=campaign, name=PAYLOAD, description=PAYLOAD)
    planned = Chapter.objects.filter(campaign=campaign, status=ChapterStatus.PLANNED)
    for chapter in planned:
        chapter_update(
            actor=orga,
            chapter=chapter,
            title=PAYLOAD,
            objectives=f"{PAYLOAD}\r\nBEGIN:VEVENT;,\\",
            place=PAYLOAD,
            weather=PAYLOAD,
        )
    unit = recall("kolaps/unit/valid", KolapsUnit)
    kolaps.unit_rename(actor=alice, unit=unit, version=unit.version, name=PAYLOAD[:80])
    member = KolapsCharacter.objects.filter(unit=unit).order_by("pk").first()
    kolaps.character_rename(
        actor=alice, character=member, version=member.version, name=PAYLOAD[:80]
    )
    profile = Profile.objects.get(player=alice)
    profile_update(
        actor=alice, profile=profile, description=PAYLOAD, equipment=[PAYLOAD], cards=[PAYLOAD]
    )
    trauma_add(actor=alice, profile=profile, name=PAYLOAD[:80], kind="psychic")
    return orga, alice


def crawl(client, start: list[str], limit: int = 120) -> dict[str, object]:
    """Every page reachable by links from `start` (GET only, the site's own paths)."""
    seen: dict[str, object] = {}
    queue = deque(start)
    while queue and len(seen) < limit:
        path = queue.popleft()
        if path in seen or path.startswith(SKIPPED):
            continue
        response = client.get(path)
        seen[path] = response
        kind = response.get("Content-Type", "")
        if response.status_code != 200 or "html" not in kind:
            continue
        for href in re.findall(r'href="([^"#]+)"', response.content.decode()):
            target = urlsplit(href.replace("&amp;", "&"))
            if not target.netloc and target.path.startswith("/"):
                queue.append(target.path + (f"?{target.query}" if target.query else ""))
    return seen


START = ["/", "/campaigns/", "/kolaps/", "/me/profile/", "/leaderboard/", "/rolls/", "/chapters/"]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}
# FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE: the isolate where no element may stand
# (a <title>, an <option>, a sentence written in Python).
ISOLATED = re.compile("\u2068[^\u2069]*\u2069")


class Unisolated(HTMLParser):
    """Every right-to-left override in the page's text that could reorder the words
    around it: not inside a `<bdi>` (nor an element with `dir`), nor between FSI and PDI.
    A textarea holds the text being edited, alone."""

    def __init__(self):
        super().__init__()
        self.open: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append((tag, tag == "bdi" or "dir" in dict(attrs)))

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                break

    def handle_data(self, data):
        if "\u202e" not in ISOLATED.sub("", data):
            return
        where = self.open[-1][0] if self.open else ""
        if where == "textarea" or any(isolated for _tag, isolated in self.open):
            return
        self.found.append(f"<{where}> {data.strip()[:60]!r}")


def unisolated(html: str) -> list[str]:
    parser = Unisolated()
    parser.feed(html)
    return parser.found


@pytest.mark.parametrize("who", ["orga", "alice"])
def test_planted_markup_is_text_on_every_page(client, planted, who):
    client.force_login(Player.objects.get(username=who))
    pages = crawl(client, START)
    shown, leaks = [], {}
    for path, response in pages.items():
        assert response.status_code < 500, path
        body = response.content.decode(errors="replace")
        if "json" in response.get("Content-Type", ""):
            continue  # an export is data, read by programs: JSON escapes what it must
        for raw in RAW:
            assert raw not in body, f"{path} shows {raw!r} unescaped"
        if ESCAPED in body:
            shown.append(path)
        if "html" in response.get("Content-Type", "") and unisolated(body):
            leaks[path] = unisolated(body)
    # The right-to-left override stays inside the name it was typed in.
    assert leaks == {}
    assert len(pages) > 20, sorted(pages)
    assert len(shown) >= 5, f"the planted text should show on several pages: {shown}"
    assert any("print" in path for path in shown) or who == "orga"


def test_the_calendar_feed_escapes_text_per_rfc_5545(client, planted):
    _orga, alice = planted
    feed = calendar_feed_token(player=alice)
    response = client.get(f"/calendar/{feed.token}.ics")
    assert response.status_code == 200
    text = response.content.decode()
    lines = text.split("\r\n")
    # A newline inside a value is "\n", never a line of its own: one VEVENT per chapter.
    unfolded = text.replace("\r\n ", "")
    assert sum(line == "BEGIN:VEVENT" for line in lines) == 2, "the two planned chapters"
    assert "\\nBEGIN:VEVENT\\;\\,\\\\" in unfolded, "newline, ; , and \\ escaped"
    assert "\u202e" in unfolded and "<script>" in unfolded, "text stays text, not dropped"
    assert all(not line or line[0] == " " or ":" in line for line in lines)
    # TEXT has no markup: each typed value is isolated (FSI ... PDI), so the override in the
    # campaign's name cannot reverse the chapter's number and title after it on the line.
    values = [line.split(":", 1)[1] for line in unfolded.split("\r\n") if ":" in line]
    typed = [value for value in values if "\u202e" in value]
    assert {v.split(":")[0] for v in unfolded.split("\r\n") if "\u202e" in v} == {
        "SUMMARY",
        "LOCATION",
        "DESCRIPTION",
        "X-WR-CALNAME",
    }
    assert all("\u202e" not in ISOLATED.sub("", value) for value in typed), typed
    summary = next(v for v in unfolded.split("\r\n") if v.startswith("SUMMARY:"))
    assert re.search("\u2069 — [0-9]+\\. \u2068", summary), summary

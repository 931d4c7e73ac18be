"""Every demo page, audited by axe-core (the npm package, `npm ci` from the root's
package-lock.json) at 390 and 1280 px, in the light and the dark theme: no serious or
critical violation (WCAG 2.2 AA contrast, labels, landmarks, names).

The demo is loaded once; its pages are found as the language crawl finds them (every page
route reached by following links from the home page, the dashboard and the routes without
argument, signed in as each demo user, one page per route and system), then one chromium page visits
them all, each loaded once and audited in the four looks. Loading pages costs most of the
time, so the audit is one test: one browser, one page, the demo loaded once.
"""

import json
import time
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import resolve
from django.urls.exceptions import Resolver404

from characters.models import Player
from rules.table.models import Encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(__file__).resolve().parent.parent.parent
AXE = BASE_DIR / "node_modules" / "axe-core" / "axe.min.js"
ACCOUNTS = ("anonymous", "orga", "alice", "bruno")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Every rule in the light theme at both widths; in the dark theme the rules a theme changes
# (colours), which keeps the audit within the suite's time.
EVERY_RULE = {
    "type": "tag",
    "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
}
COLOUR_RULES = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}
LOOKS = [
    ("phone", PHONE, "light", EVERY_RULE),
    ("phone", PHONE, "dark", COLOUR_RULES),
    ("desktop", DESKTOP, "light", EVERY_RULE),
    ("desktop", DESKTOP, "dark", COLOUR_RULES),
]
VISITS_PER_ROUTE = 3  # pages of one kind an account opens to find links (ids differ)
SKIPPED_PREFIXES = ("/api/", "/admin/", "/static/", "/i18n/", "/healthz", "/calendar/")
# Pages that are no HTML page of their own (downloads, fragments polled by htmx).
NOT_AUDITED = {
    "logout",
    "set_language",
    "set_theme",
    "healthz",
    "calendar-feed",
    "kolaps-unit-export",
    "campaign-export",
    "rapid40k-army-export",
    "modern-character-export",
    "chapter-settlement-progress",
}
SERIOUS = ("serious", "critical")


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)


def _route_of(path: str) -> str | None:
    try:
        return resolve(path).url_name
    except Resolver404:
        return None


def _kind_of(route: str, path: str) -> tuple:
    """What makes two pages of a route look different: its slugs (a system, a resolver);
    for a live table, the system it plays (each draws its fighters its own way; the
    spectator's screen draws them with the same templates)."""
    kwargs = resolve(path).kwargs
    slugs = tuple(sorted((k, v) for k, v in kwargs.items() if isinstance(v, str)))
    if route == "table-encounter":
        return (route, Encounter.objects.get(pk=kwargs["pk"]).system)
    if route in ("dice-calculator", "rapid40k-calculator", "of-the-dead-calculator"):
        return (route, kwargs.get("system", ""))  # one template per system's calculators
    return (route, *slugs)


def demo_pages() -> list[tuple[str, str]]:
    """(account, path): one page of each page route the demo users reach by following links,
    as the first account that reaches it sees it."""
    pages, audited = [], set()
    for account in ACCOUNTS:
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
        if account != "anonymous":
            client.force_login(Player.objects.get(username=account))
        queue, seen = ["/", "/dashboard/", "/rules/kolaps/", "/accounts/login/"], set()
        visits: dict[tuple, int] = defaultdict(int)
        while queue:
            path = queue.pop(0)
            if path in seen or path.startswith(SKIPPED_PREFIXES):
                continue
            seen.add(path)
            route = _route_of(urlsplit(path).path)
            if route is None or route in NOT_AUDITED:
                continue
            kind = _kind_of(route, urlsplit(path).path)
            if visits[kind] >= VISITS_PER_ROUTE:
                continue
            visits[kind] += 1
            response = client.get(path)
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            parser = _Links()
            parser.feed(response.content.decode())
            for href in parser.links:
                target = urlsplit(urljoin(path, href))
                if target.netloc in ("", "testserver") and target.path.startswith("/"):
                    queue.append(target.path + (f"?{target.query}" if target.query else ""))
            if kind not in audited:
                audited.add(kind)
                pages.append((account, path))
    return pages


def _cookies(account: str) -> list[dict]:
    """The cookies of a French browser signed in as `account`."""
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr"}]
    if account != "anonymous":
        client = Client()
        client.force_login(Player.objects.get(username=account))
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session})
    return cookies


def test_no_demo_page_has_a_serious_accessibility_violation(browser, live_server, output_dir):
    call_command("demo_load", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    started = time.monotonic()
    pages = demo_pages()
    crawl_seconds = time.monotonic() - started
    assert len(pages) > 40, pages  # the crawl found the demo
    axe = AXE.read_text()
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    sessions = {account: _cookies(account) for account in ACCOUNTS}
    found: dict[str, list[str]] = defaultdict(list)
    too_wide = []
    started = time.monotonic()
    for account, path in pages:
        # Each page is loaded once: the four looks are the same document at another width
        # (media queries apply at once) and another <body data-theme>, as the theme cookie
        # has the server write it.
        context.clear_cookies()
        context.add_cookies([{**cookie, "url": live_server.url} for cookie in sessions[account]])
        page.set_viewport_size(PHONE)
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide.append(f"{path} ({account}): {width} px")
        page.evaluate(axe)
        for look, viewport, theme, rules in LOOKS:
            page.set_viewport_size(viewport)
            # The device's scheme and the switch's choice alike (a page without the switch,
            # a print sheet, follows the device).
            page.emulate_media(color_scheme=theme)
            page.evaluate(
                "theme => document.querySelector('.theme-switch') && "
                "(document.body.dataset.theme = theme)",
                theme,
            )
            result = page.evaluate(
                "options => axe.run(document, options)",
                {"resultTypes": ["violations"], "runOnly": rules},
            )
            for violation in result["violations"]:
                if violation["impact"] not in SERIOUS:
                    continue
                targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:3]]
                found[f"{violation['id']} ({violation['impact']})"].append(
                    f"{look} {theme} {account} {path}: {targets}"
                )
    report = {
        "pages": [f"{account} {path}" for account, path in pages],
        "crawl_seconds": round(crawl_seconds),
        "audit_seconds": round(time.monotonic() - started),
        "serious_or_critical": found,
    }
    context.close()
    assert not too_wide, too_wide  # nothing wider than a phone (390 px)
    (output_dir / "axe-report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    summary = {rule: len(where) for rule, where in found.items()}
    assert not found, f"{summary}\n" + "\n".join(
        f"{rule}: {where[:5]}" for rule, where in found.items()
    )

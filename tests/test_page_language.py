"""Every page of the demo speaks one language: French in French, English in English.

The demo (`manage.py demo_load`) is loaded once; then, in each language and as each demo
account (and anonymously), the pages are visited from the home page, the dashboard and
every page route that needs no argument, following the links each page offers. A page
fails when its visible text (and its labels: title, aria-label, placeholder, alt) shows

- the label of a hidden field (an orphan "Version" above nothing);
- a developer's key: a `snake_case` word ("unit_entered"), a `system/resolver` slug
  ("kolaps/ranged") or a Python dict;
- a sentence of the other language: in French, a sentence of the English catalogue
  (an msgid whose translation differs) or English words ("the", "with", "your"...); in
  English, a sentence of the French catalogue, a word written with a French accent
  ("réussite", "annulée", "à pied") or two French words on one line ("sur la route",
  "DB -1 au tir");
- a number as a program prints it: scientific notation ("2.30e-10"), a raw float
  ("0.000", "0.8035"), a decimal point on a French page ("80.4"), where a reader expects
  a chance ("80,4 %") or a localized number;
- an id or slug shown as text: a catalogue slug with a number ("pa-police-50", "fa-f4");
- on a French page, a colon without the space French sets before it ("Équipement:").

What players typed (names of players, characters, units, armies, campaigns, chapters and
their notes) and the catalogues' names of things are the same in every language: they are
taken out of the text before it is read.

The routes come from the URL list, so a page added later joins the test; the last test
fails when a page route was never reached, unless it is listed in NOT_CRAWLED with why.
"""

import gettext
import html
import json
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from characters.models import Player
from characters.profiles.models import Vocation
from rules.engine.systems.kolaps.catalogue import catalogue_versions, load_catalogue

LOCALE = Path(settings.BASE_DIR) / "locale"
RAPID40K_CATALOGUES = Path(settings.BASE_DIR) / "rules/engine/systems/rapid40k/catalogues"
ACCOUNTS = ("anonymous", "orga", "alice", "bruno")
LANGUAGES = ("fr", "en")
VISITS_PER_ROUTE = 8  # pages of one route visited per account and language (ids differ)
SKIPPED_PREFIXES = ("/api/", "/admin/", "/static/", "/i18n/", "/healthz", "/calendar/")

# Page routes a link-following visit cannot reach, and why.
NOT_CRAWLED = {
    "logout": "POST only",
    "set_language": "POST only (the header's switch)",
    "healthz": "JSON for the load balancer",
    "table-service-worker": "a script the table page registers, not a page",
    "calendar-feed": "iCalendar, not a page",
    "kolaps-unit-export": "a JSON download",
    "campaign-export": "a JSON download",
    "rapid40k-army-export": "a JSON download",
    "table-odds": "reached by the action form of the table page, not by a link",
    "modern-character-export": "a JSON download",
    "rapid40k-shared": "reached by a share link the demo does not hand out",
    "password_reset_confirm": "needs a token from an e-mail",
    "notifications-unsubscribe": "needs the token of a notification e-mail",
    "chapter-settlement-progress": "an htmx fragment polled while a settlement runs",
}

# Proper names written as they are in every language.
NAMES = (
    "Of the Dead",
    "KOLAPS : GROUND ZERO",
    "GROUND ZERO",
    "Rapid 40000",
    "Corporates",
    "Chronique",
    "Swagger",
    "OpenAPI",
)
ENGLISH_WORDS = frozenset(
    [
        "the",
        "and",
        "with",
        "your",
        "you",
        "of",
        "to",
        "is",
        "are",
        "this",
        "that",
        "from",
        "not",
        "has",
        "have",
        "will",
        "was",
        "were",
        "by",
        "its",
        "which",
        "their",
        "when",
        "must",
        "can",
        "been",
        "should",
        "there",
        "what",
        "who",
    ]
)
FRENCH_WORDS = frozenset(
    [
        "le",
        "la",
        "les",
        "de",
        "des",
        "du",
        "au",
        "aux",
        "un",
        "une",
        "et",
        "ou",
        "sur",
        "pour",
        "avec",
        "dans",
        "est",
        "sont",
        "pas",
        "qui",
        "que",
        "ce",
        "cette",
        "ces",
        "leur",
        "aucun",
        "chaque",
        "tir",
        "jet",
    ]
)
# A letter with an accent English does not write ("à pied", "réussite", "Équipement").
FRENCH_ACCENTED = re.compile(r"\w*[àâçéèêëîïôùûüÿœæÀÂÇÉÈÊËÎÏÔÙÛÜŸŒÆ]\w*")
# Names of languages in the header's switch, each written in its own language.
OWN_NAMES = ("Français",)
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
UNITS = {"km/h", "m/s"}  # units of measure, not slugs
SLUG_PATH = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*/[a-z][a-z0-9_]*(?:-[a-z0-9]+)*\b")
PY_DICT = re.compile(r"\{'[^']*':")
SCIENTIFIC = re.compile(r"\b\d+(?:[.,]\d+)?e[-+]\d+\b", re.IGNORECASE)
RAW_FLOAT = re.compile(r"(?<![\d.,])\d+\.\d{3,}(?![\d.])")
# A decimal point in French (a catalogue version "2026.11.1" has two; a time "09:32" none).
FRENCH_POINT = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")
DIGIT_SLUG = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)*-[a-z]*\d[a-z0-9]*\b")
# A word then a colon without a space: "Équipement:" (not an address, a time or a ratio).
TIGHT_COLON = re.compile(r"[A-Za-zÀ-ÿ)]:(?=\s)")


class _Text(HTMLParser):
    """The text a reader sees or hears: content outside script and style, and labels."""

    LABELS = ("title", "aria-label", "placeholder", "alt")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.links: list[str] = []
        self.label_for: set[str] = set()
        self.hidden_ids: set[str] = set()
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style", "template", "code", "pre", "textarea"):
            self._hidden += 1
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag == "label" and attrs.get("for"):
            self.label_for.add(attrs["for"])
        if tag == "input" and attrs.get("type") == "hidden" and attrs.get("id"):
            self.hidden_ids.add(attrs["id"])
        self.parts.extend(attrs[name] for name in self.LABELS if attrs.get(name))
        if tag in ("br", "p", "li", "td", "th", "div", "h1", "h2", "h3", "option", "label"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "code", "pre", "textarea"):
            self._hidden = max(0, self._hidden - 1)
        if tag in ("p", "li", "td", "th", "div", "h1", "h2", "h3", "option", "label", "a"):
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)

    def text(self) -> str:
        return html.unescape(" ".join(self.parts))


def _literals(message: str) -> list[str]:
    """The runs of a message between its placeholders, long enough to be a sentence."""
    runs = re.split(r"%\([a-z_]+\)[sd]|%s|%d|\{[a-z_]+\}", message)
    return [run.strip() for run in runs if len(run.strip()) >= 18 and " " in run.strip()]


def _catalogue_sentences() -> dict[str, set[str]]:
    """language -> sentences of the other language's catalogue that must not show in it."""
    english, french = set(), set()
    with open(LOCALE / "fr" / "LC_MESSAGES" / "django.mo", "rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    for key, msgstr in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid or msgstr == msgid:
            continue
        english.update(_literals(msgid))
        french.update(_literals(msgstr))
    # A sentence both languages write alike proves nothing.
    return {"fr": english - french, "en": french - english}


# The rule texts' names of characteristics and gauges, which the pages keep in every language
# as they keep the catalogues' names (the English catalogue translates them to themselves).
RULE_WORDS = (
    "Santé",  # KOLAPS gauges: Santé, Souffle, Moral
    "Souffle",
    "Physique",  # Of the Dead (RULES-NOTES O1): Physique, Psychique, Réflexes, Combat
    "Psychique",
    "Réflexes",  # and the modern RPG's: Réflexes, Endurance, Sang-froid, Empathie
    "Sang-froid",
    "Empathie",
    "sportivité",  # the modern RPG's vehicles: "sportivité", "maniabilité"
    "maniabilité",
)


def _labels(value) -> list[str]:
    """The `label` and `name` strings of a catalogue file, at any depth."""
    if isinstance(value, dict):
        return [
            text
            for key, item in value.items()
            for text in ([item] if key in ("label", "name") and isinstance(item, str)
                         else _labels(item))
        ]  # fmt: skip
    if isinstance(value, list):
        return [text for item in value for text in _labels(item)]
    return []


def _game_terms() -> list[str]:
    """Proper names and the catalogues' names of things (talents, weapons, special rules,
    vocations...: the rule texts' own words, shown as they are in every language), longest
    first."""
    terms = set(NAMES) | set(RULE_WORDS) | set(Vocation.labels)
    for version in catalogue_versions():
        cat = load_catalogue(version)
        for section in (cat.ranks, cat.affiliations, cat.archetypes, cat.talents, cat.weapons,
                        cat.armours, cat.veteran_traits, cat.mentioned_only):  # fmt: skip
            terms.update(entry.label for entry in section.values() if len(entry.label) > 3)
    for path in RAPID40K_CATALOGUES.glob("*.json"):
        terms.update(_labels(json.loads(path.read_text())))
    return sorted(terms, key=len, reverse=True)


GAME_TERMS = _game_terms()


def _without(text: str, names) -> str:
    """The text with each name taken out (the longest first), its lines kept."""
    names = sorted({name for name in names if name.strip()}, key=len, reverse=True)
    if not names:
        return text
    return re.sub("|".join(re.escape(name) for name in names), " ", text)


def problems_in(text: str, language: str, sentences: set[str], entered=()) -> list[str]:
    """What is wrong with a page's visible text; `entered` is what players typed."""
    found = []
    text = _without(text, [*entered, *GAME_TERMS])
    flat = re.sub(r"https?://\S+", " ", " ".join(text.split()))  # addresses are no words
    found += [f"key {m}" for m in sorted(set(SNAKE.findall(flat)))]
    found += [f"slug {m}" for m in sorted(set(SLUG_PATH.findall(flat)) - UNITS)]
    if PY_DICT.search(flat):
        found.append("a Python dict")
    found += [f"scientific notation {m}" for m in sorted(set(SCIENTIFIC.findall(flat)))]
    found += [f"raw float {m}" for m in sorted(set(RAW_FLOAT.findall(flat)))]
    found += [f"slug {m}" for m in sorted(set(DIGIT_SLUG.findall(flat)))]
    if language == "fr":
        found += [f"decimal point {m}" for m in sorted(set(FRENCH_POINT.findall(flat)))]
        found += [
            f"colon without its space: {flat[max(0, m.start() - 20) : m.end()]!r}"
            for m in TIGHT_COLON.finditer(flat)
        ]
    found += [f"{(language == 'fr' and 'English') or 'French'}: {s!r}" for s in sentences
              if s in flat]  # fmt: skip
    if language == "en":
        unnamed, accented = _without(flat, OWN_NAMES), {}
        for m in FRENCH_ACCENTED.finditer(unnamed):
            accented.setdefault(m.group(0), unnamed[max(0, m.start() - 30) : m.end() + 30])
        found += [f"French word {word!r} in {around!r}" for word, around in accented.items()]
        for line in text.splitlines():
            words = re.findall(r"[A-Za-z']+", " ".join(line.split()).lower())
            if len([w for w in words if w in FRENCH_WORDS]) >= 2:
                found.append(f"French words: {' '.join(line.split())[:120]!r}")
    if language == "fr":
        for line in text.splitlines():
            words = re.findall(r"[A-Za-z']+", " ".join(line.split()).lower())
            english = [w for w in words if w in ENGLISH_WORDS]
            if len(english) >= 2 and not any(name.lower() in line.lower() for name in NAMES):
                found.append(f"English words: {' '.join(line.split())[:120]!r}")
    return found


# What players type, by model: (app label, model) -> fields. A JSON field's strings count.
ENTERED = {
    ("characters", "Player"): ("username", "display_name"),
    ("characters", "Profile"): ("description", "equipment", "cards"),
    ("characters", "Trauma"): ("name", "effect", "notes"),
    ("characters", "KolapsUnit"): ("name",),
    ("characters", "KolapsCharacter"): ("name",),
    ("characters", "Rapid40kArmy"): ("name",),
    ("characters", "Rapid40kSquad"): ("name",),
    ("characters", "CorporatesCharacter"): ("name", "description", "equipment"),
    ("characters", "ModernCharacter"): ("name", "description", "equipment"),
    ("campaigns", "Campaign"): ("name", "description"),
    ("campaigns", "Chapter"): (
        "title",
        "scenario",
        "required_cards",
        "required_items",
        "objectives",
        "weather",
        "time_of_day",
        "announced_events",
        "place",
        "epilogue",
        "notable_events",
    ),
    ("campaigns", "ChapterOutcome"): ("side", "notes"),
    ("campaigns", "ChapterUnitEntry"): ("side",),
    ("campaigns", "ChapterArmyEntry"): ("side",),
    ("campaigns", "ChapterUnitResult"): ("unit_name", "side", "notes"),
    ("rules", "Encounter"): ("title", "attacker_side"),
    ("rules", "Combatant"): ("name", "side"),
}


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value, *value.splitlines()]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def _entered_texts() -> set[str]:
    """Everything the demo's players typed, as it is stored."""
    texts = set()
    for (app, model), fields in ENTERED.items():
        for row in apps.get_model(app, model).objects.values_list(*fields):
            texts.update(s.strip() for value in row for s in _strings(value) if s.strip())
    return texts


def _page_routes(patterns=None, prefix="") -> dict[str, str]:
    """name -> path pattern of every route outside the API and the admin."""
    routes = {}
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            routes.update(_page_routes(pattern.url_patterns, prefix + str(pattern.pattern)))
        elif isinstance(pattern, URLPattern) and pattern.name:
            path = prefix + str(pattern.pattern)
            if not path.startswith(("api/", "admin/")):
                routes[pattern.name] = path
    return routes


def _route_of(path: str) -> str | None:
    try:
        return resolve(path).url_name
    except Resolver404:
        return None


@pytest.fixture(scope="module")
def demo_pages(django_db_setup, django_db_blocker):
    """Visit the demo's pages once for the module: {(language, account, path): problems}
    and the routes reached."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo_load", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
        sentences = _catalogue_sentences()
        entered = _entered_texts()
        starts = ["/"] + [
            "/" + path for path in _page_routes().values() if "<" not in path and path
        ]
        results, reached = {}, set()
        for language in LANGUAGES:
            for account in ACCOUNTS:
                client = Client()
                client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
                if account != "anonymous":
                    client.force_login(Player.objects.get(username=account))
                results.update(
                    _crawl(client, language, account, starts, sentences, entered, reached)
                )
        yield results, reached
        transaction.set_rollback(True)


def _crawl(client, language, account, starts, sentences, entered, reached):
    queue, seen, per_route, results = list(starts), set(), defaultdict(int), {}
    while queue:
        path = queue.pop(0)
        if path in seen or path.startswith(SKIPPED_PREFIXES):
            continue
        seen.add(path)
        route = _route_of(urlsplit(path).path)
        if route is None or route in NOT_CRAWLED or per_route[route] >= VISITS_PER_ROUTE:
            continue
        per_route[route] += 1
        response = client.get(path, follow=True)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        final = response.request["PATH_INFO"]
        final_route = _route_of(final)
        if final_route != route:
            continue  # a redirect: the page it leads to is visited on its own
        reached.add(route)
        parser = _Text()
        parser.feed(response.content.decode())
        results[(language, account, path)] = problems_in(
            parser.text(), language, sentences[language], entered
        ) + [
            f"a label for the hidden field {i}"
            for i in sorted(parser.label_for & parser.hidden_ids)
        ]
        for href in parser.links:
            target = urlsplit(urljoin(final, href))
            if target.netloc not in ("", "testserver") or not target.path.startswith("/"):
                continue
            queue.append(target.path + (f"?{target.query}" if target.query else ""))
    return results


@pytest.mark.parametrize(
    ("language", "text", "problem"),
    [
        ("fr", "Discipline : Command discipline of the APC.", "English words"),
        ("fr", "Jet : kolaps/ranged", "slug kolaps/ranged"),
        ("fr", "Alice — unit_entered", "key unit_entered"),
        ("fr", "Entrées : {'db': 3, 'rank': 'veteran'}", "a Python dict"),
        ("fr", "Choose a chapter of this campaign.", "English: "),
        ("en", "Choisissez un chapitre de cette campagne.", "French: "),
        ("fr", "Gelé de peur 2.30e-10", "scientific notation"),
        ("en", "Frozen with fear 0.000", "raw float"),
        ("fr", "Moral 80.4", "decimal point"),
        ("fr", "Arme : pa-police-50", "slug pa-police-50"),
        ("en", "Weapon fa-f4", "slug fa-f4"),
        ("fr", "Équipement: lampe", "colon without its space"),
        ("en", "Speed: à pied", "French word 'à'"),
        ("en", "Action 18 annulée", "French word 'annulée'"),
        ("en", "Equipment: lamp, Réussite", "French word 'Réussite'"),
        ("en", "Terrain\nsur la route\nFlat out", "French words: 'sur la route'"),
        ("en", "Armour: DB -1 au tir", "French words"),
    ],
)
def test_it_sees_each_kind_of_problem(language, text, problem):
    sentences = _catalogue_sentences()[language]
    assert any(found.startswith(problem) for found in problems_in(text, language, sentences))


def test_it_lets_a_clean_page_through():
    text = "Section 4 du quai Saint-Antoine — 18 VU\nOf the Dead · Corps à corps 2"
    assert problems_in(text, "fr", _catalogue_sentences()["fr"]) == []


def test_it_lets_what_players_typed_and_the_catalogues_names_through_in_english():
    text = "Chapter: La rue Mercière\nWeapon: PA Police cal.50 · Corps à corps\nFrançais"
    entered = {"La rue Mercière"}
    assert problems_in(text, "en", _catalogue_sentences()["en"], entered) == []
    assert problems_in(text, "en", _catalogue_sentences()["en"]) != []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_demo_page_speaks_one_language(demo_pages, language):
    results, _reached = demo_pages
    failures = {
        f"{account} {path}": problems
        for (lang, account, path), problems in sorted(results.items())
        if lang == language and problems
    }
    assert len([key for key in results if key[0] == language]) > 40
    assert not failures, "\n".join(f"{page}: {problems}" for page, problems in failures.items())


def _post_only(name: str, path: str, client) -> bool:
    """A route that answers 405 to a GET (any id: the method is checked first)."""
    url = "/" + re.sub(r"<(?:\w+:)?(\w+)>", "1", path)
    return client.get(url).status_code == 405


@pytest.mark.django_db
def test_it_reaches_every_page_route(demo_pages):
    _results, reached = demo_pages
    client = Client()
    client.force_login(Player.objects.get(username="orga"))
    missing = {
        name
        for name, path in _page_routes().items()
        if name not in reached and name not in NOT_CRAWLED and not _post_only(name, path, client)
    }
    assert not missing, (
        f"page routes no demo page links to (add to NOT_CRAWLED with why): {sorted(missing)}"
    )

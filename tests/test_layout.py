"""The site layout (header, footer, the page's head) reads the same in every kind of visit:
French or English, logged in or not, each theme, whether its fixed parts are rendered or
taken from the cache. `layout_variants.json` holds what each variant showed when the parts
were kept by hand: the same elements, attributes and text, token and all."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
EXPECTED = Path(__file__).resolve().parent / "layout_variants.json"
LANGUAGES = ("fr", "en")
THEMES = ("light", "dark", None, "<b>")  # None: no cookie; "<b>": a strange one, as auto
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class _Structure(HTMLParser):
    """A page as its elements with their attributes, and its text: each run of white space
    read as one space, as a browser shows it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events: list[list] = []

    def handle_starttag(self, tag, attrs):
        self.events.append(["start", tag, sorted([name, value] for name, value in attrs)])

    def handle_endtag(self, tag):
        self.events.append(["end", tag])

    def handle_data(self, data):
        text = re.sub(r"\s+", " ", data)
        if text:
            self.events.append(["text", text])


def layout_of(html: str) -> list[list]:
    """The page outside its `<main>`, the request's token written as TOKEN."""
    html = html[: html.index('<main id="main">')] + html[html.index("</main>") :]
    token = TOKEN.search(html).group(1)
    structure = _Structure()
    structure.feed(html.replace(token, "TOKEN"))
    return structure.events


def variant_name(language: str, logged_in: bool, theme: str | None) -> str:
    return f"{language} {'in' if logged_in else 'out'} {theme or 'none'}"


def layouts(player) -> dict[str, list[list]]:
    """Each variant's layout, on the minimal page at an address with a query to escape."""
    path = reverse("password_reset_done") + '?x="<b>'
    found = {}
    for logged_in in (False, True):
        client = Client()
        if logged_in:
            client.force_login(player)
        for language in LANGUAGES:
            client.cookies["django_language"] = language
            for theme in THEMES:
                if theme is None:
                    client.cookies.pop("theme", None)
                else:
                    client.cookies["theme"] = theme
                client.get(path)  # rendered, or found in the cache by the next one
                page = client.get(path).content.decode()
                found[variant_name(language, logged_in, theme)] = layout_of(page)
    return found


def test_each_variant_of_the_layout_reads_as_before(player):
    expected = json.loads(EXPECTED.read_text())
    found = layouts(player)
    for name in expected:
        assert found[name] == expected[name], name
    assert found.keys() == expected.keys()


def test_a_strange_theme_reads_as_the_devices(player):
    found = layouts(player)
    for language in LANGUAGES:
        for logged_in in (False, True):
            strange = found[variant_name(language, logged_in, "<b>")]
            assert strange == found[variant_name(language, logged_in, None)]

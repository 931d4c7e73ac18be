"""French pages in French typography, and the language a first visit gets."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.history import event_sentence
from characters.typography import elide
from tests.factories import PlayerFactory

NBSP = "\u00a0"
FRENCH_PO = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def _french_sentences() -> list[str]:
    """Every msgstr of the French catalogue, its lines joined, its tags left out (an
    attribute or code is not French text)."""
    entries = FRENCH_PO.read_text(encoding="utf-8").split("\n\n")
    sentences = []
    for entry in entries:
        for found in re.finditer(r'^msgstr(?:\[\d+\])? "(.*)"((?:\n".*")*)', entry, re.M):
            text = found.group(1) + "".join(re.findall(r'\n"(.*)"', found.group(2)))
            sentences.append(re.sub(r"<[^>]*>", "", text))
    return sentences


def test_every_french_translation_holds_its_non_breaking_spaces():
    """A French sentence never breaks a line before its colon, question mark or closing
    guillemet: the translation holds a non-breaking space there, not a plain one."""
    sentences = _french_sentences()
    assert len(sentences) > 2000
    plain = [s for s in sentences if re.search(r"[ \t][:;?!»]|«[ \t]", s)]
    assert plain == []
    assert sum(NBSP in s for s in sentences) > 300


@pytest.mark.parametrize(
    ("text", "elided"),
    [
        ("Historique de Alice", "Historique d'Alice"),
        ("un jet de Émile", "un jet d'Émile"),
        ("parce que Alice joue", "parce qu'Alice joue"),
        ("Historique de Bruno", "Historique de Bruno"),
        ("la discipline de APC", "la discipline de APC"),  # an acronym: the translator's
        ("profil de Of the Dead", "profil de Of the Dead"),
        ("de A à Z", "de A à Z"),
        ("Historique de <bdi>Alice</bdi>", "Historique de <bdi>Alice</bdi>"),
    ],
)
def test_it_elides_french_before_a_name(text, elided):
    with translation.override("fr"):
        assert elide(text) == elided


def test_a_history_line_elides_before_the_name_written_in():
    """A sentence built in Python with a name (a campaign's history) is elided too."""
    with translation.override("fr"):
        line = event_sentence("Bruno", "vocation_released", {"player": "Alice"})
    assert line == "Bruno a libéré la vocation d'Alice"


def test_it_elides_nothing_in_english():
    with translation.override("en"):
        assert elide("a roll of de Alice") == "a roll of de Alice"


@pytest.mark.django_db
def test_a_french_page_has_non_breaking_spaces_and_elision_but_not_an_english_one(client):
    alice = PlayerFactory(username="alice", display_name="Alice")
    client.force_login(alice)
    french = client.get(reverse("profile-history", args=["alice"])).content.decode()
    assert "<title>Historique d'Alice · Chronique</title>" in french
    assert "<h1>Historique d'Alice</h1>" in french
    client.cookies["django_language"] = "en"
    english = client.get(reverse("profile-history", args=["alice"])).content.decode()
    assert "<h1>History of Alice</h1>" in english
    visitor = Client()
    french = visitor.get(reverse("login")).content.decode()
    assert f"Mot de passe oublié{NBSP}?" in french and f"Pas encore de compte{NBSP}?" in french
    visitor.cookies["django_language"] = "en"
    english = visitor.get(reverse("login")).content.decode()
    assert "Forgotten password?" in english and NBSP not in english


@pytest.mark.django_db
def test_it_keeps_scripts_and_attributes_as_written(client):
    html = client.get(reverse("login")).content.decode()
    assert '"selfRequestsOnly": true' in html  # the htmx configuration, in an attribute


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("en-GB,en;q=0.9,fr;q=0.8", "en"),
        ("fr-CA,fr;q=0.9,en;q=0.5", "fr"),
        ("de-DE,de;q=0.9,en;q=0.7", "en"),
        ("de-DE,es;q=0.5", "fr"),
        ("", "fr"),
    ],
)
def test_a_first_visit_follows_the_browser_and_else_speaks_french(client, header, language):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=header)
    assert f'<html lang="{language}">' in response.content.decode()


@pytest.mark.django_db
def test_the_switch_wins_over_the_browser_and_is_remembered(client):
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US,en").content.decode()
    assert '<html lang="fr">' in html

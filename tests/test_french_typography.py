"""French pages in French typography, and the language a first visit gets."""

import pytest
from django.urls import reverse

from characters.typography import french_typography, typeset, typeset_around
from tests.factories import PlayerFactory

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("text", "typeset"),
    [
        ("Points de survie : 0 sur 4", f"Points de survie{NBSP}: 0 sur 4"),
        ("Vraiment ? Oui ! Puis ; enfin", f"Vraiment{NBSP}? Oui{NBSP}! Puis{NBSP}; enfin"),
        ("« Le Havre »", f"«{NBSP}Le Havre{NBSP}»"),
        ("Historique de Alice", "Historique d'Alice"),
        ("un jet de Émile", "un jet d'Émile"),
        ("parce que Alice joue", "parce qu'Alice joue"),
        ("Historique de Bruno", "Historique de Bruno"),
        ("la discipline de APC", "la discipline de APC"),  # an acronym: the translator's
        ("profil de Of the Dead", "profil de Of the Dead"),
        ("de A à Z", "de A à Z"),
        ("https://chronique.example/?roll=3", "https://chronique.example/?roll=3"),
    ],
)
def test_it_typesets_french(text, typeset):
    assert french_typography(text) == typeset


HEADER = typeset("<header><a>Mes unités</a> <p>Thème : sombre</p></header>\n")
FOOTER = typeset("<footer>API</footer>")


@pytest.mark.parametrize(
    ("page", "pieces"),
    [
        (
            f"<title>Historique de Alice</title>{HEADER}<main>Points : 3</main>{FOOTER}",
            [HEADER, FOOTER],
        ),
        (f"{HEADER}{FOOTER}", [HEADER, FOOTER]),
        (f"<p>Rien</p>{HEADER}<main>« Le Havre »</main>", [HEADER, FOOTER]),  # a piece missing
        (f"<p>Jet de </p>{HEADER}", [HEADER]),
        (f"<p>Jet de {HEADER}", [HEADER]),  # text running into a piece
        ("<p>x</p><i>A</i> : y<p>z</p>", ["<i>A</i> "]),  # a colon after its space
        ("<p>x</p><b>y</b>de Alice<i>x</i>", ["<b>y</b>de"]),  # an elision across its edge
        (f"<p>a \ue002: b</p>{HEADER}", [HEADER]),
        (f"<pre>a : b</pre>{HEADER}<script>x ? y</script><p>a ? b</p>", [HEADER]),
    ],
)
def test_it_typesets_around_the_layout_as_it_typesets_the_whole_page(page, pieces):
    """The layout's parts are typeset once, when kept; a page is then read around them, and
    reads exactly as the whole page typeset."""
    assert typeset_around(page, pieces) == typeset(page)


@pytest.mark.django_db
def test_a_french_page_has_non_breaking_spaces_and_elision_but_not_an_english_one(client):
    alice = PlayerFactory(username="alice", display_name="Alice")
    client.force_login(alice)
    french = client.get(reverse("profile-history", args=["alice"])).content.decode()
    assert "Historique d'Alice" in french
    client.cookies["django_language"] = "en"
    english = client.get(reverse("profile-history", args=["alice"])).content.decode()
    assert "History of Alice" in english


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

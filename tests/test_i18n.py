"""French first, English second, every string translated and compiled."""

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def _entries(po_path: Path):
    """(msgid, msgstr, fuzzy) for each entry of a .po file, without extra dependencies."""
    entries, current, key, fuzzy = [], {}, None, False

    def flush():
        if current.get("msgid"):
            entries.append((current["msgid"], current.get("msgstr", ""), fuzzy))

    for raw in po_path.read_text().splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            flush()
            current, key = {"msgid": line[7:-1]}, "msgid"
        elif line.startswith("msgid_plural"):
            key = "plural"
        elif line.startswith("msgstr"):
            key = "msgstr"
            current["msgstr"] = current.get("msgstr", "") + line.split(" ", 1)[1][1:-1]
        elif line.startswith('"') and key:
            current[key] = current.get(key, "") + line[1:-1]
        elif not line:
            flush()
            current, key, fuzzy = {}, None, False
    flush()
    return entries


@pytest.mark.parametrize("language", ["fr", "en"])
def test_it_translates_every_string(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    entries = _entries(po)
    assert len(entries) > 50
    untranslated = [msgid for msgid, msgstr, _ in entries if not msgstr]
    fuzzy = [msgid for msgid, _, is_fuzzy in entries if is_fuzzy]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_translation_keeps_the_names_its_source_fills_in(language):
    """A translation that drops `%(n)s` shows a sentence without its number (or another
    sentence altogether: "created the campaign" once stood for "3 chapters in this
    campaign." in English); one that adds a name breaks the page."""
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    named = re.compile(r"%\((\w+)\)")
    wrong = [
        msgid
        for msgid, msgstr, _ in _entries(po)
        if set(named.findall(msgid)) != set(named.findall(msgstr))
    ]
    assert wrong == []


@pytest.mark.parametrize("language", ["fr", "en"])
def test_it_ships_compiled_catalogues_matching_the_sources(language, tmp_path):
    folder = LOCALE / language / "LC_MESSAGES"
    with open(folder / "django.mo", "rb") as mo:
        shipped = gettext.GNUTranslations(mo)
    assert shipped.gettext("Log in") == {"fr": "Se connecter", "en": "Log in"}[language]
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (gettext) absent: cannot recompile to compare")
    subprocess.run(
        ["msgfmt", "--check-format", "-o", tmp_path / "django.mo", folder / "django.po"],
        check=True,
    )
    with open(tmp_path / "django.mo", "rb") as mo:
        fresh = gettext.GNUTranslations(mo)
    assert shipped._catalog == fresh._catalog, "run `make messages` to recompile the catalogue"


@pytest.mark.django_db
def test_it_follows_the_browser_on_a_first_visit(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Create an account" in html
    assert response["Content-Language"] == "en"


@pytest.mark.django_db
def test_it_switches_to_english_and_remembers_it(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html
    assert "Create an account" in html
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert "Créer un compte" in client.get("/").content.decode()


@pytest.mark.django_db
def test_it_ignores_a_language_it_does_not_speak(client):
    client.cookies["django_language"] = "de"
    assert '<html lang="fr">' in client.get("/").content.decode()

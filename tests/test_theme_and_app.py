"""The dark theme on every page (device setting or a remembered switch) and the installable
web app: manifest, icons, favicon on print pages too."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from characters.kolaps import services as kolaps
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
STATIC = Path(settings.BASE_DIR) / "static"


def test_a_page_follows_the_device_until_the_switch_is_used(client):
    assert 'data-theme="auto"' in client.get(reverse("login")).content.decode()
    response = client.post(reverse("set_theme"), {"theme": "dark", "next": reverse("login")})
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert response.cookies["theme"].value == "dark"
    html = client.get(reverse("login")).content.decode()
    assert 'data-theme="dark"' in html
    assert 'value="dark" title="Thème sombre" aria-label="Thème sombre" aria-pressed="true"' in html
    client.post(reverse("set_theme"), {"theme": "auto", "next": "/"})
    assert 'data-theme="auto"' in client.get(reverse("login")).content.decode()


def test_the_switch_refuses_to_redirect_elsewhere_or_to_store_a_strange_value(client):
    response = client.post(reverse("set_theme"), {"theme": "<b>", "next": "https://evil.test/"})
    assert response["Location"] == "/"
    client.cookies["theme"] = '"><script>'
    assert 'data-theme="auto"' in client.get(reverse("login")).content.decode()


def test_the_stylesheet_has_a_dark_theme_for_the_device_and_for_the_switch():
    css = (STATIC / "css" / "chronique.css").read_text()
    assert "prefers-color-scheme: dark" in css
    assert 'body[data-theme="dark"]' in css


def test_every_page_links_the_manifest_and_the_manifest_names_its_icons(client):
    html = client.get(reverse("login")).content.decode()
    assert 'rel="manifest"' in html and 'name="theme-color"' in html
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = STATIC / icon["src"].removeprefix("/static/")
        assert path.exists(), icon["src"]


def test_a_print_page_has_its_favicon(client):
    player = PlayerFactory()
    unit = kolaps.unit_create(owner=player, name="Section")
    client.force_login(player)
    html = client.get(reverse("kolaps-unit-print", args=[unit.pk])).content.decode()
    assert 'rel="icon"' in html

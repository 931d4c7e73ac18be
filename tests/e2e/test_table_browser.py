"""Two phones on one live encounter, served over ASGI (daphne, as `make run` and compose do):
one applies a wound, the other shows it within a second without reloading. Screenshots of
both, light and dark, in test-output/."""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from playwright.sync_api import expect

from rules.table.models import Combatant
from tests.conftest import _database_url_for
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
BASE_DIR = Path(__file__).resolve().parent.parent.parent
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_server(tmp_path, transactional_db):
    """daphne serving config.asgi on the test database, its static files collected."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_"))},
        "DATABASE_URL": _database_url_for(connection.settings_dict["NAME"]),
        "DATABASE_POOL": "false",
        "STATIC_ROOT": str(tmp_path / "static"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CHANNEL_REDIS_URL": "",
        "REDIS_URL": "",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=BASE_DIR, env=env, check=True, timeout=300,
    )  # fmt: skip
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2)
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    yield base
    server.terminate()
    try:
        # daphne waits for the browser's sockets, still open until the contexts close.
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


def _phone(browser, base, player, scheme):
    client = Client()
    client.force_login(player)
    context = browser.new_context(viewport=PHONE, locale="en-US", color_scheme=scheme)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            },
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": base},
        ]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def test_a_wound_on_one_phone_shows_on_the_other_within_a_second(browser, asgi_server, output_dir):
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    target = Combatant.objects.get(encounter=encounter, name="Croc")
    url = f"{asgi_server}/table/{encounter.pk}/"
    organiser_phone = _phone(browser, asgi_server, organiser, "light")
    player_phone = _phone(browser, asgi_server, opponent, "dark")
    for page in (organiser_phone, player_phone):
        page.goto(url)
        expect(page.locator("#table-state")).to_be_visible()
        expect(page.locator("#live-status")).to_be_hidden()
    gauge = f"#combatant-{target.pk} .gauge-sante"
    assert player_phone.text_content(gauge).strip() == "6"

    organiser_phone.select_option("#id_kind", "wound")
    organiser_phone.select_option("#id_target", str(target.pk))
    organiser_phone.select_option("#id_wound", "benign")
    started = time.monotonic()
    organiser_phone.click("#act-button")
    expect(player_phone.locator(gauge)).to_have_text("4", timeout=1000)
    elapsed = time.monotonic() - started
    assert elapsed < 1.0, elapsed
    assert "benign" in player_phone.text_content("#table-log").lower()
    # The organiser's own page shows it too (its own write), without a reload either.
    expect(organiser_phone.locator(gauge)).to_have_text("4", timeout=1000)

    for page in (organiser_phone, player_phone):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        small = page.evaluate(
            """[...document.querySelectorAll(
                 '#table-page button, #table-page select, #table-page input:not([type=hidden])')]
               .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
               .map(e => e.outerHTML.slice(0, 80))"""
        )
        assert small == []
        assert page.errors == []
    dark = player_phone.evaluate("getComputedStyle(document.body).backgroundColor")
    light = organiser_phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert dark != light
    organiser_phone.screenshot(path=str(output_dir / "organiser-light.png"), full_page=True)
    player_phone.screenshot(path=str(output_dir / "player-dark.png"), full_page=True)
    organiser_phone.emulate_media(color_scheme="dark")
    player_phone.emulate_media(color_scheme="light")
    organiser_phone.screenshot(path=str(output_dir / "organiser-dark.png"), full_page=True)
    player_phone.screenshot(path=str(output_dir / "player-light.png"), full_page=True)


def test_a_phone_says_when_the_connection_is_lost(browser, asgi_server):
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    page = _phone(browser, asgi_server, organiser, "light")
    page.goto(f"{asgi_server}/table/{encounter.pk}/")
    expect(page.locator("#live-status")).to_be_hidden()
    page.context.set_offline(True)
    expect(page.locator("#live-status")).to_be_visible(timeout=5000)
    page.context.set_offline(False)
    expect(page.locator("#live-status")).to_be_hidden(timeout=15000)


def test_an_of_the_dead_bite_on_one_phone_shows_on_the_other_within_a_second(
    browser, asgi_server, output_dir
):
    """The Of the Dead encounter: the organiser's zombie bites Anna, dice typed by hand;
    Anna's phone shows her life markers fall without reloading."""
    from rules.table.services import encounter_advance, encounter_create_for_chapter
    from tests.rules.table.otd_fixtures import add_zombies, otd_chapter, pass_until

    chapter, organiser, anna, _boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    add_zombies(organiser, encounter, "zonard", 2)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    # O5, action phase: Anna and Boris (11) pass, then it is the zonards' turn (3).
    pass_until(organiser, encounter, "Zonard 1")
    zombie = Combatant.objects.get(encounter=encounter, name="Zonard 1")
    target = Combatant.objects.get(encounter=encounter, name="Anna")
    url = f"{asgi_server}/table/{encounter.pk}/"
    organiser_phone = _phone(browser, asgi_server, organiser, "light")
    player_phone = _phone(browser, asgi_server, anna, "dark")
    for page in (organiser_phone, player_phone):
        page.goto(url)
        expect(page.locator("#table-order")).to_be_visible()
    expect(organiser_phone.locator("#your-turn")).to_contain_text("Zonard 1")
    expect(player_phone.locator("#playing-now")).to_contain_text("Zonard 1")
    gauge = f"#combatant-{target.pk} .gauge-life"
    assert player_phone.text_content(gauge).strip().startswith("4")

    organiser_phone.select_option("#id_kind", "brawl")
    organiser_phone.select_option("#id_actor", str(zombie.pk))
    organiser_phone.select_option("#id_target", str(target.pk))
    organiser_phone.select_option("#id_roll", "hand")
    organiser_phone.fill("#id_attacker_dice", "5 4")
    organiser_phone.fill("#id_defender_dice", "1 2")
    started = time.monotonic()
    organiser_phone.click("#act-button")
    expect(player_phone.locator(gauge)).to_have_text("2/4", timeout=1000)
    elapsed = time.monotonic() - started
    assert elapsed < 1.0, elapsed
    for page in (organiser_phone, player_phone):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.errors == []
    organiser_phone.screenshot(
        path=str(output_dir / "of-the-dead-organiser-light.png"), full_page=True
    )
    player_phone.screenshot(path=str(output_dir / "of-the-dead-player-dark.png"), full_page=True)


def test_the_target_players_phone_chooses_the_stray_shots_figure_and_the_other_sees_it(
    browser, asgi_server, output_dir
):
    """Tir dans une mêlée, "2-3: Une figurine alliée de la cible reçoit une blessure légère.
    La figurine est choisie par le joueur contrôlant la cible": the organiser's Roux shot into
    the melee at Croc and missed, the stray die a 2; the opponent's phone offers Croc's allies,
    the choice is made there, and the organiser's phone shows the wound without a reload."""
    from itertools import product

    from rules.engine.registry import resolver_get
    from rules.table.kolaps.adapter import ADAPTER as kolaps
    from rules.table.services import ActionInput, encounter_act, encounter_advance

    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    c = {x.name: x for x in Combatant.objects.filter(encounter=encounter)}
    shot = ActionInput(
        kind="ranged",
        actor=c["Roux"].pk,
        target=c["Croc"].pk,
        distance_cm=20,
        options={"melee_figures": 3, "stray_ally": c["Martel"].pk},
    )
    encounter.live_combatants = list(c.values())
    _name, data = kolaps.resolver_input(encounter, c["Roux"], c["Croc"], shot)
    ranged = resolver_get("kolaps", "ranged")
    miss = next(
        list(faces)
        for faces in product(range(1, 7), repeat=ranged.odds(data)["dice_count"])
        if ranged.evaluate({**data, "dice": list(faces), "stray_die": [4], "temper_die": [6]})[
            "row"
        ]
        == "miss"
    )
    dice = {"dice": miss, "stray_die": [2]}
    action = ActionInput(**{**shot.__dict__, "dice": dice})
    encounter_act(actor=organiser, encounter=encounter, version=None, action=action)

    url = f"{asgi_server}/table/{encounter.pk}/"
    organiser_phone = _phone(browser, asgi_server, organiser, "light")
    player_phone = _phone(browser, asgi_server, opponent, "dark")
    for page in (organiser_phone, player_phone):
        page.goto(url)
        expect(page.locator("#stray-choice")).to_be_visible()
    assert player_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = player_phone.evaluate(
        """[...document.querySelectorAll(
             '#stray-form button, #stray-form input:not([type=hidden])')]
           .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
           .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert small == []
    player_phone.screenshot(path=str(output_dir / "stray-choice-dark.png"), full_page=True)

    player_phone.check(f'#stray-form input[name="ally"][value="{c["Griffe"].pk}"]')
    player_phone.click("#stray-button")
    gauge = f"#combatant-{c['Griffe'].pk} .gauge-sante"
    expect(organiser_phone.locator("#stray-choice")).to_have_count(0, timeout=2000)
    expect(organiser_phone.locator(gauge)).to_have_text("4", timeout=2000)
    assert "Stray shot on Croc's side: Griffe is hit" in organiser_phone.text_content("#table-log")
    assert player_phone.errors == [] and organiser_phone.errors == []

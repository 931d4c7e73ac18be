"""The live table's page kept as sent (rules/table/views.py `_kept_table`): phones poll it far
more often than the encounter changes. Every change shows on the very next request of every
device, a reader never receives a page kept for another, and a kept page is the page
rendered afresh (its CSRF token aside, each request's own)."""

import html
from itertools import product

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from characters.accounts.services import player_update
from characters.kolaps import services as kolaps
from rules.engine.registry import resolver_get
from rules.table.kolaps.adapter import ADAPTER as adapter
from rules.table.models import Combatant, Encounter
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_choose_stray,
    encounter_create_standalone,
    encounter_end,
    encounter_reveal,
    encounter_set_directive,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, police_unit

pytestmark = pytest.mark.django_db
STATE = {"HX-Request": "true", "HX-Target": "table-state"}


@pytest.fixture
def table():
    """Orga's pick-up game, in its speech phase: alice's police (Martel the Avatar, Roux,
    Blanc) against bruno's hunters (Croc the Avatar, Griffe, Dent)."""
    orga, alice, bruno = (PlayerFactory(username=n) for n in ("orga", "alice", "bruno"))
    police = police_unit(alice, "Brigade", ("Martel", "Roux", "Blanc"))
    hunters = hunter_unit(bruno, "Meute", ("Croc", "Griffe", "Dent"))
    police = kolaps.unit_share(actor=alice, unit=police, version=police.version)
    hunters = kolaps.unit_share(actor=bruno, unit=hunters, version=hunters.version)
    encounter = encounter_create_standalone(actor=orga, units=[police, hunters])
    return {"orga": orga, "alice": alice, "bruno": bruno, "encounter": encounter}


def _device(player=None, language="en") -> Client:
    client = Client()
    if player is not None:
        client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _by_name(encounter) -> dict[str, Combatant]:
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


def _stray_shot(t) -> None:
    """Alice's Blanc shoots bruno's Croc in a melee and misses; the stray die shows 2: one of
    Croc's allies is hit, whom bruno chooses (Tir dans une mêlée 2-3)."""
    encounter = t["encounter"]
    c = _by_name(encounter)
    shot = ActionInput(
        kind="ranged",
        actor=c["Blanc"].pk,
        target=c["Croc"].pk,
        distance_cm=20,
        options={"melee_figures": 3, "stray_ally": c["Roux"].pk},
    )
    encounter.live_combatants = list(c.values())
    _name, data = adapter.resolver_input(encounter, c["Blanc"], c["Croc"], shot)
    resolver = resolver_get("kolaps", "ranged")
    extra = {"stray_die": [2], "stray_death_die": [6], "temper_die": [6]}
    miss = next(
        list(faces)
        for faces in product(range(1, 7), repeat=resolver.odds(data)["dice_count"])
        if resolver.evaluate({**data, "dice": list(faces), **extra}).get("row") == "miss"
    )
    action = ActionInput(**{**shot.__dict__, "dice": {"dice": miss, **extra}})
    encounter_act(actor=t["alice"], encounter=encounter, version=None, action=action)


def _tokens_out(page: str) -> str:
    """The page without its CSRF tokens (each request's own)."""
    for mark in ('name="csrfmiddlewaretoken" value="', '"X-CSRFToken": "'):
        parts = page.split(mark)
        page = mark.join([parts[0], *(part.split('"', 1)[1] for part in parts[1:])])
    return page


def test_it_shows_every_change_on_the_next_request_of_every_device(table):
    t, encounter = table, table["encounter"]
    url = reverse("table-encounter", args=[encounter.pk])
    watch = reverse("table-watch", args=[encounter.spectator_token])
    devices = {
        "orga's phone": (_device(t["orga"]), url, {}),
        "orga's phone, the state it swaps in": (_device(t["orga"]), url, STATE),
        "orga's phone, the full log": (_device(t["orga"]), url + "?log=all", {}),
        "alice's phone": (_device(t["alice"]), url, {}),
        "bruno's phone, in French": (_device(t["bruno"], "fr"), url, STATE),
        "the screen beside the table": (_device(), watch, {}),
    }

    def every_device() -> dict[str, str]:
        version = Encounter.objects.get(pk=encounter.pk).version
        pages = {}
        for name, (client, address, headers) in devices.items():
            for _ in range(2):  # the second one kept
                response = client.get(address, headers=headers)
                assert response.status_code == 200, name
                page = response.content.decode()
                assert f'id="table-state" data-version="{version}"' in page, name
            pages[name] = page
        return pages

    c = _by_name(encounter)
    every_device()
    encounter_set_directive(
        actor=t["alice"], encounter=encounter, version=None, combatant=c["Martel"].pk,
        directive="offensive",
    )  # fmt: skip
    pages = every_device()
    assert "Martel receives the order: Offensive." in pages["alice's phone"]
    assert "Martel receives an order." in pages["the screen beside the table"]
    encounter_reveal(actor=t["alice"], encounter=encounter, version=None, combatant=c["Martel"].pk)
    pages = every_device()
    assert "Martel reveals the order: Offensive." in pages["the screen beside the table"]
    encounter_advance(actor=t["orga"], encounter=encounter, version=None)  # the next phase
    pages = every_device()
    assert '<span id="table-phase">Action</span>' in pages["alice's phone"]
    _stray_shot(t)
    pages = every_device()
    assert 'id="stray-form"' in pages["bruno's phone, in French"]
    assert "Waiting for Croc's player to choose." in pages["alice's phone"]
    encounter_choose_stray(actor=t["bruno"], encounter=encounter, version=None, ally=c["Dent"].pk)
    pages = every_device()
    assert 'id="stray-form"' not in pages["bruno's phone, in French"]
    assert 'id="stray-choice"' not in pages["the screen beside the table"]
    wound = ActionInput(kind="wound", target=c["Griffe"].pk, wound="benign")
    encounter_act(actor=t["orga"], encounter=encounter, version=None, action=wound)
    pages = every_device()
    assert "Santé 6 → 4" in pages["orga's phone"] and 'id="undo-button"' in pages["orga's phone"]
    encounter_undo(actor=t["orga"], encounter=encounter, version=None)
    pages = every_device()
    assert "(undone)" in pages["orga's phone, the full log"]
    assert "Santé 6 → 4" not in pages["alice's phone"].split('id="table-log"')[0]
    encounter_end(actor=t["orga"], encounter=encounter, version=None)
    pages = every_device()
    assert "The encounter is over." in pages["the screen beside the table"]
    assert 'id="action-form"' not in pages["alice's phone"]


def test_it_never_gives_a_reader_the_page_kept_for_another(table, settings):
    t, encounter = table, table["encounter"]
    c = _by_name(encounter)
    encounter_set_directive(
        actor=t["alice"], encounter=encounter, version=None, combatant=c["Martel"].pk,
        directive="offensive",
    )  # fmt: skip
    url = reverse("table-encounter", args=[encounter.pk])
    readers = {name: _device(t[name]) for name in ("orga", "alice", "bruno")}
    readers["a stranger"] = _device(PlayerFactory(username="stranger"))
    settings.TABLE_PAGE_CACHE_SECONDS = 0
    fresh = {
        name: _tokens_out(reader.get(url).content.decode()) for name, reader in readers.items()
    }
    settings.TABLE_PAGE_CACHE_SECONDS = 3600
    for _round in range(2):  # the first renders and keeps each page, the second reads it
        for name, client in readers.items():
            assert _tokens_out(client.get(url).content.decode()) == fresh[name], name
    # What differs between them: the organiser's tools, the hidden order, who may act.
    assert 'id="spectator-link"' in fresh["orga"]
    assert 'id="spectator-link"' not in fresh["alice"] + fresh["bruno"]
    assert "Offensive (hidden)" in fresh["alice"] and "order hidden" in fresh["bruno"]
    assert "Offensive (hidden)" not in fresh["bruno"]
    assert readers["a stranger"].get(url).status_code == 404


def test_a_kept_page_carries_this_requests_token_and_its_forms_post(table):
    t, encounter = table, table["encounter"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(t["orga"])
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    page = client.get(url).content.decode()  # kept
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert f'"X-CSRFToken": "{token}"' in page
    response = client.post(
        reverse("table-advance", args=[encounter.pk]),
        {"csrfmiddlewaretoken": token, "version": encounter.version},
    )
    assert response.status_code == 302
    assert '<span id="table-phase">Action</span>' in client.get(url).content.decode()


def test_it_shows_a_players_new_name_in_the_log_at_once(table, django_capture_on_commit_callbacks):
    t, encounter = table, table["encounter"]
    client = _device(t["alice"])
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    assert "— Orga</small>" in client.get(url).content.decode()  # kept
    with django_capture_on_commit_callbacks(execute=True):
        player_update(player=t["orga"], email=t["orga"].email, display_name="La Meneuse")
    page = client.get(url).content.decode()
    assert "— La Meneuse</small>" in page and "— Orga</small>" not in page


def test_it_shows_the_language_and_theme_the_reader_picks(table):
    t, encounter = table, table["encounter"]
    client = _device(t["orga"])
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    assert "The encounter begins" in client.get(url).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.get(url)
    assert "L'affrontement commence" in html.unescape(client.get(url).content.decode())
    client.cookies["theme"] = "dark"
    assert 'data-theme="dark"' in client.get(url).content.decode()
    del client.cookies["theme"]
    assert 'data-theme="auto"' in client.get(url).content.decode()


def test_a_page_with_a_message_to_show_is_rendered_for_it_alone(table):
    t, encounter = table, table["encounter"]
    client = _device(t["orga"])
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    client.get(url)  # kept
    # Saved on the account page (another tab): its message shows on the next page, once.
    saved = client.post(reverse("account"), {"email": "orga@example.com", "display_name": ""})
    assert saved.status_code == 302
    assert "Your account is saved." in client.get(url).content.decode()
    assert "Your account is saved." not in client.get(url).content.decode()

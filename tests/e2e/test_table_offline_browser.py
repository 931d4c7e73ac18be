"""The table when the network drops (docs/table.md, "Offline"): a phone goes offline, its
actions with dice rolled by hand wait on it, and once back they land once, in order, and the
other phone shows them; an action from the other phone in between stops the queue (409)
until the player sends it again or drops it; a reload without a network keeps the queue."""

import pytest
from playwright.sync_api import expect

from rules.table.models import Combatant, EncounterEntry, EntryKind
from tests.e2e import test_table_browser
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
asgi_server = test_table_browser.asgi_server  # daphne, as `make run` serves the table
_phone = test_table_browser._phone


def _open(page, url):
    page.goto(url)
    expect(page.locator("#table-state")).to_be_visible()
    # The service worker controls the page, and the page as shown is kept for it.
    for _ in range(100):  # (the CSP forbids wait_for_function's eval)
        if page.evaluate("() => !!navigator.serviceWorker.controller"):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("no service worker controls the table page")
    page.wait_for_timeout(400)


def _wound_by_hand(page, target):
    page.select_option("#id_kind", "wound")
    page.select_option("#id_target", str(target.pk))
    page.select_option("#id_wound", "superficial")
    page.select_option("#id_roll", "hand")
    page.click("#act-button")


def _actions(encounter):
    return list(
        EncounterEntry.objects.filter(encounter=encounter, kind=EntryKind.ACTION)
        .order_by("version")
        .values_list("target__name", flat=True)
    )


def _game():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    hunters = {c.name: c for c in Combatant.objects.filter(encounter=encounter, side="Meute")}
    return organiser, opponent, encounter, hunters


def test_three_actions_made_offline_land_once_in_order_and_the_other_phone_sees_them(
    browser, asgi_server
):
    organiser, opponent, encounter, hunters = _game()
    url = f"{asgi_server}/table/{encounter.pk}/"
    phone = _phone(browser, asgi_server, organiser, "light")
    other = _phone(browser, asgi_server, opponent, "dark")
    _open(phone, url)
    _open(other, url)

    phone.context.set_offline(True)
    expect(phone.locator("#live-status")).to_be_visible()
    for name in ("Croc", "Griffe", "Croc"):
        _wound_by_hand(phone, hunters[name])
    expect(phone.locator("#table-queue-list li")).to_have_count(3)
    expect(phone.locator("#table-queue-list")).to_contain_text("pending")
    assert _actions(encounter) == []

    # The server's roll cannot be faked offline: a sentence, nothing queued.
    phone.select_option("#id_roll", "server")
    phone.click("#act-button")
    expect(phone.locator("#table-queue-note")).to_contain_text("dice rolled by hand")
    expect(phone.locator("#table-queue-list li")).to_have_count(3)

    phone.context.set_offline(False)
    expect(phone.locator("#table-queue-list li")).to_have_count(0, timeout=10000)
    assert _actions(encounter) == ["Croc", "Griffe", "Croc"]
    # Sent again (a flaky network, a second flush) they would not act twice: keys.
    gauge = f"#combatant-{hunters['Croc'].pk} .gauge-sante"
    expect(other.locator(gauge)).to_have_text("4", timeout=5000)  # K8: -1 Santé each
    expect(phone.locator(gauge)).to_have_text("4", timeout=5000)
    assert phone.errors == [] and other.errors == []


def test_an_action_from_the_other_phone_in_between_stops_the_queue_until_sent_again(
    browser, asgi_server
):
    organiser, _opponent, encounter, hunters = _game()
    url = f"{asgi_server}/table/{encounter.pk}/"
    phone = _phone(browser, asgi_server, organiser, "light")
    other = _phone(browser, asgi_server, organiser, "light")
    _open(phone, url)
    _open(other, url)

    phone.context.set_offline(True)
    expect(phone.locator("#live-status")).to_be_visible()
    _wound_by_hand(phone, hunters["Croc"])
    _wound_by_hand(phone, hunters["Croc"])
    expect(phone.locator("#table-queue-list li")).to_have_count(2)
    _wound_by_hand(other, hunters["Griffe"])  # the other phone, online, first
    expect(other.locator("#table-queue-list li")).to_have_count(0)
    expect(other.locator(f"#combatant-{hunters['Griffe'].pk} .gauge-sante")).to_have_text("5")

    phone.context.set_offline(False)
    conflict = phone.locator("#table-queue-list li.conflict")
    expect(conflict).to_have_count(1, timeout=10000)
    expect(conflict).to_contain_text("The table changed")
    expect(phone.locator("#table-queue-list li")).to_have_count(2)  # the queue stopped
    assert _actions(encounter) == ["Griffe"]

    phone.click("[data-queue-again]")
    expect(phone.locator("#table-queue-list li")).to_have_count(0, timeout=10000)
    assert _actions(encounter) == ["Griffe", "Croc", "Croc"]

    # Dropping: one more offline action, met by another change, dropped.
    phone.context.set_offline(True)
    expect(phone.locator("#live-status")).to_be_visible()
    _wound_by_hand(phone, hunters["Croc"])
    other.reload()
    _wound_by_hand(other, hunters["Griffe"])
    # the other phone's action has reached the server before this one comes back online
    expect(other.locator(f"#combatant-{hunters['Griffe'].pk} .gauge-sante")).to_have_text("4")
    phone.context.set_offline(False)
    expect(phone.locator("#table-queue-list li.conflict")).to_have_count(1, timeout=10000)
    phone.click("[data-queue-drop]")
    expect(phone.locator("#table-queue-list li")).to_have_count(0)
    assert _actions(encounter) == ["Griffe", "Croc", "Croc", "Griffe"]


def test_a_reload_without_a_network_keeps_the_table_and_its_queue(browser, asgi_server):
    organiser, _opponent, encounter, hunters = _game()
    url = f"{asgi_server}/table/{encounter.pk}/"
    phone = _phone(browser, asgi_server, organiser, "light")
    _open(phone, url)

    phone.context.set_offline(True)
    expect(phone.locator("#live-status")).to_be_visible()
    _wound_by_hand(phone, hunters["Croc"])
    expect(phone.locator("#table-queue-list li")).to_have_count(1)
    phone.reload()  # the service worker answers with the page as last shown
    expect(phone.locator("#table-state")).to_be_visible()
    expect(phone.locator("#table-queue-list li")).to_have_count(1)
    assert _actions(encounter) == []

    phone.context.set_offline(False)
    expect(phone.locator("#table-queue-list li")).to_have_count(0, timeout=10000)
    assert _actions(encounter) == ["Croc"]

    # The screen beside the table (spectator link, no login) recovers the same way.
    screen = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    _open(screen, f"{asgi_server}/table/watch/{encounter.spectator_token}/")
    screen.context.set_offline(True)
    screen.reload()
    expect(screen.locator("#table-state")).to_be_visible()
    expect(screen.locator("#table-log")).to_contain_text("Croc")

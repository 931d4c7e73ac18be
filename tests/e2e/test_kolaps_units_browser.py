"""On a phone (390x844): build a Vétéran Agent de Police with Fusil 2 and Tir instinctif 1,
watch the PP left change as he is built, put him in a unit with a Novice Avatar, read the VU."""

import pytest
from playwright.sync_api import expect

from characters.kolaps.models import KolapsUnit
from tests.e2e.conftest import VIEWPORTS
from tests.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _pp_left(page) -> int:
    return int(page.get_by_test_id("pp-left").inner_text())


def _create_in_unit(page, name: str, rank: str) -> None:
    page.locator("details.new-character summary").click()
    page.get_by_label("Character name").fill(name)
    page.get_by_label("Archetype").select_option("agent-de-police")
    page.get_by_label("Rank").select_option(rank)
    page.get_by_role("button", name="Create the character").click()
    page.wait_for_url("**/kolaps/characters/*/")


def test_it_builds_a_veteran_and_values_his_unit_on_a_phone(browser, live_server, output_dir):
    PlayerFactory(username="agent")
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="en-US")
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("agent")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    page.wait_for_url("**/dashboard/")

    page.get_by_role("link", name="Units").click()
    page.get_by_label("Unit name").fill("Section 4")
    page.get_by_role("button", name="Create the unit").click()
    page.wait_for_url("**/kolaps/units/*/")

    _create_in_unit(page, "Dupont", "veteran")
    assert _pp_left(page) == 19  # K1: "Le Vétéran ... dispose de 19 PP"
    reason = page.get_by_test_id("reason-tir-instinctif")
    assert reason.inner_text() == "Requires Fusil 1 or Pistolet 1."
    assert page.get_by_test_id("raise-tir-instinctif").is_disabled()
    page.screenshot(path=str(output_dir / "phone-1-new-veteran.png"), full_page=True)

    page.get_by_test_id("raise-fusil").click()
    expect(page.get_by_test_id("pp-left")).to_have_text("18")
    page.get_by_test_id("raise-fusil").click()
    expect(page.get_by_test_id("pp-left")).to_have_text("17")
    assert page.get_by_test_id("level-fusil").inner_text() == "2"
    page.get_by_test_id("raise-tir-instinctif").click()
    expect(page.get_by_test_id("pp-left")).to_have_text("16")
    assert page.get_by_test_id("level-tir-instinctif").inner_text() == "1"
    value = int(page.get_by_test_id("value").inner_text())
    assert value == 3  # Fusil 2 and Tir instinctif 1 cost PP, no PU
    page.screenshot(path=str(output_dir / "phone-2-fusil-2-tir-instinctif-1.png"), full_page=True)

    page.get_by_role("link", name="Back to the unit").click()
    _create_in_unit(page, "Martin", "novice")
    assert _pp_left(page) == 7
    page.get_by_role("link", name="Back to the unit").click()
    unit = KolapsUnit.objects.get(name="Section 4")
    martin = unit.members.get(name="Martin")
    page.get_by_test_id(f"avatar-{martin.pk}").click()
    expect(page.get_by_test_id("status")).to_have_text("Valid")
    # K2: VU = the sum of character values: Vétéran 3 PU + Novice 1 PU + PU bought (none).
    assert page.get_by_test_id("vu").inner_text() == f"VU {4 + value - 3}"
    assert page.get_by_test_id("vu").inner_text() == "VU 4"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORTS["phone"]["width"]
    page.screenshot(path=str(output_dir / "phone-3-unit-vu-4.png"), full_page=True)
    assert errors == [], errors
    context.close()

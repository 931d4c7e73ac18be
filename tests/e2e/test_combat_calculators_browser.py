"""At the table, on a phone: Kirmann's shot in the ranged calculator, then a melee.

Fields are found by their ids, not their labels, so the test holds whether the new
labels are translated yet or not; the numbers are the rules'."""

import pytest

from rules.rolls.models import RollRecord
from tests.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, username):
    PlayerFactory(username=username)
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("main").locator("button[type=submit]").click()
    page.wait_for_url("**/dashboard/")


def test_it_shows_kirmanns_odds_takes_typed_dice_and_rolls_a_shot(page, live_server, output_dir):
    log_in(page, live_server, "shooter")
    page.goto(live_server.url + "/rules/kolaps/ranged/")
    # K11 worked example: expertise 2, semi-auto, helmet, metabolism +3, heavy cover.
    page.locator("#id_expertise").select_option("2")
    page.locator("#id_armour").select_option("tenue-legere-sti-europa")
    page.locator("#id_mode").select_option("semi-auto")
    page.locator("#id_cover").select_option("3")
    page.locator("#id_extra_protection").fill("3")
    page.locator("#id_extra_protection").dispatch_event("change")
    page.locator("#ranged-panel .dice-to-roll").filter(has_text="DB 5").wait_for()
    assert page.locator("#ranged-panel meter").count() >= 6
    assert page.locator("#target-dies").inner_text().endswith("%")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-ranged-odds.png"), full_page=True)

    page.locator("#id_dice").fill("3 4 5 6 3")
    page.locator("button[name=action][value=evaluate]").click()
    page.locator("#id_power_dice").wait_for()
    page.locator("#id_power_dice").fill("1 1")
    page.locator("button[name=action][value=evaluate]").click()
    page.locator("#id_death_die").wait_for()
    page.locator("#id_death_die").fill("4")
    page.locator("button[name=action][value=evaluate]").click()
    page.locator("#ranged-panel .row-label").filter(has_text="4").wait_for()
    page.screenshot(
        path=str(output_dir / f"{page.viewport_name}-ranged-judged.png"), full_page=True
    )

    page.locator("button[name=action][value=roll]").click()
    page.locator("#ranged-panel a[href^='/rolls/']").wait_for()
    record = RollRecord.objects.get(player__username="shooter")
    assert (record.resolver, len(record.dice)) == ("ranged", 5)
    assert page.console_errors == [], page.console_errors


def test_it_shows_who_strikes_in_a_melee(page, live_server, output_dir):
    page.goto(live_server.url + "/rules/kolaps/melee/")
    page.locator("#id_a_rank").select_option("veteran")
    page.locator("#id_a_rank").dispatch_event("change")
    page.locator("#a-dies").wait_for()
    page.locator("#id_a_dice").fill("4")
    page.locator("#id_b_dice").fill("1")
    page.locator("button[name=action][value=evaluate]").click()
    page.locator("#id_dice").wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-melee.png"), full_page=True)
    assert page.console_errors == [], page.console_errors

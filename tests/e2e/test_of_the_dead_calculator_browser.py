"""At the table, on a phone: an Of the Dead brawl in its calculator, the odds refreshed by a
change, then the dice typed in one roll after the other (the zeal reroll when asked for)."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_it_shows_a_brawls_odds_and_judges_typed_dice(page, live_server, output_dir):
    page.goto(live_server.url + "/rules/of-the-dead/brawl/")
    page.locator("#id_attacker_zeal").check()
    page.locator("#id_defender_combat").fill("1")
    page.locator("#id_defender_combat").dispatch_event("change")
    page.locator("#brawl-odds meter").first.wait_for()
    assert page.locator("#brawl-odds meter").count() >= 6
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    for button in page.locator("button").all():
        if button.is_visible():
            assert button.bounding_box()["height"] >= 44
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-brawl-odds.png"), full_page=True)

    page.locator("#id_attacker_dice").fill("2 5 6")
    page.locator("button[name=action][value=evaluate]").click()
    page.locator("#id_attacker_reroll").wait_for()
    page.locator("#id_attacker_reroll").fill("4")
    page.locator("#id_defender_dice").fill("3")
    page.locator("button[name=action][value=evaluate]").click()
    page.locator("#brawl-panel .outcome").filter(has_text="3").wait_for()
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-brawl-judged.png"), full_page=True)
    assert page.console_errors == [], page.console_errors

"""At the table on a phone: the Corporates shot calculator and the turn tracker."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_shot_calculator_follows_the_form_and_judges_typed_dice(page, live_server, output_dir):
    page.goto(live_server.url + "/rules/corporates/shot/?pool=4&range=medium")
    page.locator("#calculator-panel meter").first.wait_for()
    page.get_by_label("Surface visible de la cible").select_option("head")
    page.get_by_label("Surface visible de la cible").dispatch_event("change")
    page.locator("#calculator-panel dd", has_text="25").first.wait_for()
    page.get_by_label("Dés lancés", exact=True).fill("6 6 6 6")
    page.get_by_label("Bonus fixe").fill("5")
    page.get_by_role("button", name="Juger mes dés").click()
    page.locator("#calculator-panel .result").wait_for()
    # 6+6+6+6 + 5 = 29 against 15 (medium) + 10 (head): a hit by 4.
    result = page.locator("#calculator-panel .result").inner_text()
    assert "touché" in result
    assert "29" in result
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-shot.png"), full_page=True)
    assert page.console_errors == [], page.console_errors


def test_the_turn_tracker_fits_a_phone(page, live_server, output_dir):
    page.goto(live_server.url + "/rules/corporates/turn/")
    page.locator("#id_form-0-name").fill("Kay")
    page.locator("#id_form-0-declared").select_option("3")
    page.locator("#id_form-1-name").fill("Rook")
    page.get_by_role("button", name="Afficher le tour").click()
    page.locator("#turn-plan table").wait_for()
    assert "Kay" in page.locator("#turn-plan").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-turn.png"), full_page=True)

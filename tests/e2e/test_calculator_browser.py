"""At the table: the KOLAPS test calculator on a phone, odds first, then the dice."""

import pytest

from rules.rolls.models import RollRecord
from tests.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_it_shows_odds_judges_typed_dice_and_rolls_on_the_server(page, live_server, output_dir):
    PlayerFactory(username="table")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Nom d'utilisateur").fill("table")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Se connecter").click()
    page.wait_for_url("**/dashboard/")

    page.goto(live_server.url + "/rules/kolaps/test/")
    page.get_by_label("Rang").select_option("veteran")
    page.get_by_label("Difficulté (DB)").fill("3")
    page.get_by_label("Difficulté (DB)").dispatch_event("change")
    page.get_by_text("Lancer 3 dés").wait_for()
    assert page.locator("#test-panel meter").count() >= 4

    page.get_by_label("Dés lancés à la main").fill("3 4 5")
    page.get_by_role("button", name="Juger mes dés").click()
    page.locator("#test-panel .outcome").wait_for()
    assert page.locator("#test-panel .outcome").inner_text() == "Réussite"
    assert "dé référent 3" in page.locator("#test-panel").inner_text()
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-judged.png"), full_page=True)

    page.get_by_role("button", name="Lancer sur le serveur").click()
    page.get_by_text("enregistré").wait_for()
    record = RollRecord.objects.get(player__username="table")
    assert len(record.dice) == 3
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-rolled.png"), full_page=True)
    assert page.console_errors == [], page.console_errors

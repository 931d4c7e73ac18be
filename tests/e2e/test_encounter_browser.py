"""On a phone (390 x 844), one-handed at the table: a player opens the chapter being
played, follows the encounter log link, records a hit with the form (htmx swaps the log
in place, no reload) and sees the running totals; a too-large damage is refused with its
sentence and records nothing. Screenshots go to test-output/."""

import pytest

from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import EncounterEvent
from tests.e2e.test_chapter_browser import _phone_for
from tests.settlement_fixtures import of_the_dead_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_records_a_hit_from_the_phone(browser, live_server, output_dir):
    organiser, campaign, players = of_the_dead_table(players=3, prefix="table")
    chapter = chapter_start(
        actor=organiser, chapter=chapter_plan(actor=organiser, campaign=campaign, title="Arène")
    )
    page = _phone_for(browser, live_server, players[0])
    page.goto(f"{live_server.url}/chapters/{chapter.pk}/")
    page.get_by_role("link", name="Encounter log: record a roll").click()
    page.wait_for_url(f"{live_server.url}/chapters/{chapter.pk}/encounter/")
    form = page.locator("#encounter-form")
    # A player records for themself only.
    assert form.get_by_label("Who rolled").locator("option").all_inner_texts() == ["Table-0"]
    form.get_by_label("Target").select_option(label="Table-1")
    form.get_by_label("Damage").fill("3")
    page.evaluate("window.__kept = true")  # gone if the page reloads
    form.get_by_role("button", name="Record the roll").click()
    page.locator("#encounter-rows li[data-event]").first.wait_for()
    assert page.evaluate("window.__kept === true")  # swapped by htmx, not reloaded
    assert "Table-0 hits Table-1: 3 damage" in page.locator("#encounter-rows").inner_text()
    totals = page.locator("#encounter-totals").inner_text()
    assert "Table-0\t1\t3\t0" in totals and "Table-1\t0\t0\t3" in totals
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(output_dir / "encounter-1-recorded.png"), full_page=True)

    form = page.locator("#encounter-form")
    form.get_by_label("Damage").fill("500")
    # The browser's own check would stop the submit: the server's sentence is what counts.
    form.evaluate("f => f.noValidate = true")
    form.get_by_role("button", name="Record the roll").click()
    page.get_by_text("less than or equal to 100").wait_for()
    assert EncounterEvent.objects.count() == 1
    assert page.console_errors == []
    page.screenshot(path=str(output_dir / "encounter-2-refused.png"), full_page=True)

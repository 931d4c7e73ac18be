"""On a phone (390 x 844): the organiser opens a closed chapter, reads the preview of
every change its settlement makes, confirms, watches the progress and reads the outcome;
a participant's profile then shows the new survival points. Screenshots go to
test-output/.

Tasks run in-process in the tests (tests/conftest.py: `task_always_eager`). Here the
confirm's dispatch is held back, so the page is seen queued and polling; the test then
runs the task itself (`chapter_settle.apply`, what a worker would do) and the polled
region turns into the outcome."""

import pytest

from campaigns.models import ChapterSettlement, SettlementStatus
from campaigns.settlement.tasks import chapter_settle
from tests.e2e.test_chapter_browser import _phone_for
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_it_previews_confirms_and_shows_the_outcome(browser, live_server, output_dir, monkeypatch):
    organiser, campaign, players = of_the_dead_table(players=3, prefix="e2e")
    chapter = closed_chapter(organiser, campaign, players)
    survivor = players[0]  # wins and survives: +1 survived, +1 victory
    held: list[int] = []
    monkeypatch.setattr(chapter_settle, "delay_on_commit", lambda pk: held.append(pk))

    def shot(page, name):
        page.screenshot(path=str(output_dir / f"{name}.png"), full_page=True)

    orga = _phone_for(browser, live_server, organiser)
    chapter_url = f"{live_server.url}/chapters/{chapter.pk}/"
    orga.goto(chapter_url)
    assert orga.locator('[data-status="awaiting-settlement"]').is_visible()
    shot(orga, "1-closed-chapter")

    orga.get_by_role("link", name="Settle the chapter: preview every change").click()
    orga.wait_for_url(f"{chapter_url}settlement/")
    orga.get_by_role("heading", name="Preview of every change").wait_for()
    cards = orga.locator("ul.cards > li.card")
    assert cards.count() == 3
    first = cards.nth(0).inner_text()
    assert "victory" in first and "0 → 2 (+2)" in first  # survival points
    assert "Bras cassé 0" in first and "heals" in first
    second = cards.nth(1).inner_text()
    assert "defeat" in second and "becomes permanent" in second
    assert "the player will choose" in cards.nth(2).inner_text()  # the dead one
    assert orga.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    shot(orga, "2-preview")

    orga.get_by_role("button", name="Confirm and settle").click()
    progress = orga.locator("#settlement-progress")
    progress.get_by_text("Queued: the settlement starts in a moment.").wait_for()
    assert held == [chapter.pk]
    assert progress.get_attribute("hx-trigger") == "every 1s"  # htmx polls it
    shot(orga, "3-progress")

    assert chapter_settle.apply(args=[chapter.pk]).get() == "settled"
    progress = orga.locator("#settlement-progress")
    progress.get_by_text("Settled on").wait_for(timeout=10_000)
    assert "3 participants, 2 victories, 1 death," in progress.inner_text()
    shot(orga, "4-outcome")

    player = _phone_for(browser, live_server, survivor)
    player.goto(f"{live_server.url}/profile/")
    assert player.locator('[data-field="survival_points"]').inner_text() == "2"
    player.get_by_role("link", name="My history over chapters").click()
    player.wait_for_url(f"**/players/{survivor.username}/history/")
    shot(player, "5-participant-history")
    # The player who died sees the choice waiting for them first thing on their profile.
    dead = _phone_for(browser, live_server, players[2])
    dead.goto(f"{live_server.url}/profile/")
    alert = dead.locator("#death-choice-pending")
    assert alert.is_visible() and alert.bounding_box()["y"] < 400
    shot(dead, "6-death-choice-pending")
    dead.get_by_role("link", name="Make my choice").click()
    dead.wait_for_url("**/profile/death-choice/")
    assert not orga.console_errors and not player.console_errors and not dead.console_errors
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.DONE

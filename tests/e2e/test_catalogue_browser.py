"""The catalogues on a phone (390 x 844) and a desktop (1280 x 800): every system's page
fits the screen, the search narrows the list as one types (accents ignored), and an
organiser sets a vote's closing date that the player sees on the dashboard. Screenshots go
to test-output/."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from campaigns.chapters.services import chapter_plan
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.votes.services import vote_open
from rules.catalogue.cards import SYSTEMS_WITH_CATALOGUE
from tests.e2e.test_player_view_browser import _fits, _log_in, shot
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_every_catalogue_fits_and_its_search_narrows_as_one_types(page, live_server, output_dir):
    for system in SYSTEMS_WITH_CATALOGUE:
        page.goto(f"{live_server.url}/rules/{system}/catalogue/")
        assert page.locator("#catalogue-entries li").count() > 5, system
        _fits(page)
        shot(page, output_dir, f"catalogue-{system}")
    page.goto(f"{live_server.url}/rules/of-the-dead/catalogue/")
    page.get_by_label("Rechercher").fill("eclaireur")
    expect(page.locator(".catalogue-list > li")).to_have_count(1, timeout=5000)
    assert page.locator("#vocation-eclaireur").inner_text() == "Éclaireur"
    expect(page).to_have_url(re.compile(r"q=eclaireur"))  # the search is kept in the address
    _fits(page)
    shot(page, output_dir, "catalogue-search")
    assert page.console_errors == [], page.console_errors


def test_a_vote_closing_date_shows_on_the_dashboard(page, live_server, output_dir):
    organiser = PlayerFactory(username="close-orga", display_name="Morgane")
    alice = PlayerFactory(username="close-alice", display_name="Alice")
    campaign = campaign_create(organiser=organiser, name="Les quais", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    first = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    second = chapter_plan(actor=organiser, campaign=campaign, title="Le quai")
    vote_open(
        actor=organiser,
        campaign=campaign,
        kind="next_chapter",
        candidates=[first, second],
        closes_at=timezone.now() + timedelta(days=2),
    )
    _log_in(page, live_server, "close-alice")
    page.wait_for_url("**/dashboard/")
    assert "se clôt le" in page.locator(".vote-closes-at").inner_text()
    _fits(page)
    shot(page, output_dir, "dashboard-vote-closing")
    assert page.console_errors == [], page.console_errors

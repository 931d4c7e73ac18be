"""What a player sees, on a phone (390 x 844) and a desktop (1280 x 800): the dashboard after
logging in, an invitation that survives sign-up, the dark theme and its switch, and the
calculators' odds shown at once and after each change. Screenshots go to test-output/."""

import pytest

from campaigns.chapters.services import chapter_plan
from campaigns.models import Membership
from campaigns.services import campaign_add_participant, campaign_create, invitation_create
from campaigns.votes.services import vote_open
from characters.kolaps import services as kolaps
from tests.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shot(page, output_dir, name):
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-{name}.png"), full_page=True)


def _log_in(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Nom d'utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Se connecter").click()


def _fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"scrolls sideways: {width}px"


def test_the_dashboard_says_what_is_next(page, live_server, output_dir):
    organiser = PlayerFactory(username="dash-orga", display_name="Morgane")
    alice = PlayerFactory(username="dash-alice", display_name="Alice")
    campaign = campaign_create(organiser=organiser, name="Les quais", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont", place="Lyon 7e")
    vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)

    _log_in(page, live_server, "dash-alice")
    page.wait_for_url("**/dashboard/")
    assert page.get_by_role("heading", name="Bonjour Alice").is_visible()
    next_chapter = page.locator("#next-chapter")
    assert "Le pont" in next_chapter.inner_text() and "Lyon 7e" in next_chapter.inner_text()
    assert "profil Of the Dead" in next_chapter.inner_text()  # why she may not play yet
    assert page.get_by_role(
        "link", name="Voter pour les vocations de Le pont (Les quais)"
    ).is_visible()
    assert "Morgane a prévu le chapitre Le pont" in page.locator("#dashboard-history").inner_text()
    _fits(page)
    shot(page, output_dir, "dashboard")
    assert page.console_errors == [], page.console_errors


def test_an_invitation_survives_sign_up(page, live_server, output_dir):
    organiser = PlayerFactory(username="inv-orga")
    campaign = campaign_create(organiser=organiser, name="La rive", system="of-the-dead")
    invitation = invitation_create(actor=organiser, campaign=campaign)

    page.goto(f"{live_server.url}/join/{invitation.token}/")
    page.wait_for_url("**/accounts/login/**")
    page.get_by_role("main").get_by_role("link", name="S'inscrire").click()
    page.get_by_label("Nom d'utilisateur").fill("newcomer")
    page.get_by_label("Adresse e-mail").fill("newcomer@example.test")
    page.get_by_label("Mot de passe", exact=True).fill("une-longue-phrase-secrete")
    page.get_by_label("Mot de passe (encore)").fill("une-longue-phrase-secrete")
    page.get_by_role("button", name="S'inscrire").click()
    page.wait_for_url(f"**/join/{invitation.token}/")
    shot(page, output_dir, "invitation-after-sign-up")
    page.get_by_role("button", name="Rejoindre la campagne").click()
    page.wait_for_url(f"**/campaigns/{campaign.pk}/")
    assert Membership.objects.filter(campaign=campaign, player__username="newcomer").exists()
    shot(page, output_dir, "invitation-joined")
    assert page.console_errors == [], page.console_errors


def _background(page):
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_dark_theme_follows_the_device_and_the_switch(page, live_server, output_dir):
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + "/accounts/login/")
    dark = _background(page)
    assert dark == "rgb(22, 20, 15)", dark
    shot(page, output_dir, "dark-by-device")
    page.get_by_role("button", name="Thème clair").click()
    page.wait_for_load_state()
    assert _background(page) == "rgb(251, 248, 241)"
    page.reload()
    assert _background(page) == "rgb(251, 248, 241)"  # the switch is remembered
    page.emulate_media(color_scheme="light")
    page.get_by_role("button", name="Thème sombre").click()
    page.wait_for_load_state()
    assert _background(page) == dark
    page.goto(live_server.url + "/rules/kolaps/ranged/")
    assert _background(page) == dark  # every page
    _fits(page)
    shot(page, output_dir, "dark-by-switch")
    assert page.console_errors == [], page.console_errors


def test_the_calculator_shows_its_odds_at_once_and_after_each_change(page, live_server, output_dir):
    page.goto(live_server.url + "/rules/kolaps/ranged/")
    odds = page.locator("#ranged-odds")
    assert odds.locator("h2.dice-to-roll").is_visible()  # before touching anything
    assert odds.locator("table.odds:not(.modifiers)").is_visible()
    before = odds.inner_text()
    page.get_by_label("Distance (cm)").fill("75")
    page.wait_for_function(
        "before => document.querySelector('#ranged-odds').innerText !== before", arg=before
    )
    if page.viewport_name == "phone":
        # The form scrolls, the odds stay in view at the bottom of the screen.
        page.get_by_label("Distance (cm)").scroll_into_view_if_needed()
        box = odds.bounding_box()
        assert box is not None and box["y"] < page.viewport_size["height"]
    shot(page, output_dir, "calculator-live-odds")
    assert page.console_errors == [], page.console_errors


def test_the_forms_count_points_and_offer_only_allowed_ranks(page, live_server, output_dir):
    player = PlayerFactory(username="forms-player")
    unit = kolaps.unit_create(owner=player, name="Section")
    _log_in(page, live_server, "forms-player")
    page.wait_for_url("**/dashboard/")

    page.goto(live_server.url + "/profile/")
    counter = page.locator("#attribute-points")
    page.get_by_label("Physique").fill("3")
    page.get_by_label("Psychique").fill("3")
    page.get_by_label("Réflexes").fill("2")
    assert "1 point reste à répartir" in counter.inner_text()
    page.get_by_label("Combat").fill("1")
    assert "les 9 points sont répartis" in counter.inner_text()
    page.get_by_label("Combat").fill("3")
    assert "2 points de trop" in counter.inner_text()
    shot(page, output_dir, "profile-points")

    page.goto(f"{live_server.url}/kolaps/units/{unit.pk}/")
    page.get_by_text("Nouveau personnage dans cette unité").click()
    catalogue = kolaps.catalogue()
    for archetype in catalogue.archetypes.values():
        page.locator("#id_archetype").select_option(archetype.slug)
        offered = page.locator("#id_rank option:not([disabled])").evaluate_all(
            "options => options.map(o => o.value)"
        )
        assert offered == list(archetype.ranks), archetype.slug
    shot(page, output_dir, "rank-list")
    assert page.console_errors == [], page.console_errors

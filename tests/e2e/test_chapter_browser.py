"""On phones (390 x 844): an organiser plans chapters, two players join through the
invitation link, vote on the next chapter, take their vocations, and the organiser closes
the chapter with its epilogue. Screenshots go to test-output/."""

import pytest
from django.test import Client

from campaigns.models import Chapter, ChapterStatus, VocationAssignment
from characters.profiles.services import profile_create
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def _phone_for(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, locale="en-US")
    host = live_server.url.split("//")[1].split(":")[0]
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "domain": host,
                "path": "/",
            },
            {"name": "django_language", "value": "en", "domain": host, "path": "/"},
        ]
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    return page


def test_it_runs_a_chapter_from_planning_to_its_epilogue(browser, live_server, output_dir):
    organiser = PlayerFactory(username="orga", display_name="Morgane")
    alice = PlayerFactory(username="alice", display_name="Alice")
    bruno = PlayerFactory(username="bruno", display_name="Bruno")
    for player in (alice, bruno):
        profile_create(actor=player, player=player, physique=3, psychique=2, reflexes=2, combat=2)
    orga = _phone_for(browser, live_server, organiser)

    def shot(page, name):
        page.screenshot(path=str(output_dir / f"{name}.png"), full_page=True)

    # The organiser creates the campaign and plans two chapters.
    orga.goto(live_server.url + "/campaigns/new/")
    orga.get_by_label("Name").fill("La Chute de Lyon")
    orga.get_by_role("button", name="Create the campaign").click()
    orga.wait_for_url("**/campaigns/*/")
    campaign_url = orga.url
    for title in ("Le pont", "Le métro"):
        orga.get_by_role("link", name="Plan a chapter").click()
        orga.get_by_label("Title", exact=True).fill(title)
        orga.get_by_label("Place").fill("Lyon, quai Saint-Antoine")
        orga.get_by_label("Date and time").fill("2030-05-04T18:00")
        orga.get_by_role("button", name="Plan this chapter").click()
        orga.wait_for_url("**/chapters/*/")
        shot(orga, "1-organiser-chapter-planned")
        orga.goto(campaign_url)
    # The invitation link appears in place (htmx).
    orga.get_by_role("button", name="Create an invitation link").click()
    link = orga.locator("a.invitation-link").first
    link.wait_for()
    invitation_url = link.get_attribute("href")
    shot(orga, "2-organiser-invitation")

    # Both players join through the link.
    players = {}
    for user in (alice, bruno):
        page = _phone_for(browser, live_server, user)
        page.goto(invitation_url)
        page.get_by_role("button", name="Join the campaign").click()
        page.wait_for_url(campaign_url)
        assert page.get_by_text("You can play it.").first.is_visible()
        players[user.username] = page
    shot(players["bruno"], "3-player-joined")

    # The organiser opens a vote on the next chapter; both vote, the organiser closes it.
    orga.goto(campaign_url)
    orga.get_by_role("link", name="Open a vote").click()
    orga.get_by_label("Vote on").select_option("next_chapter")
    orga.get_by_label("1. Le pont").check()
    orga.get_by_label("2. Le métro").check()
    orga.get_by_role("button", name="Open the vote").click()
    orga.wait_for_url("**/votes/*/")
    vote_url = orga.url
    for name, choice in (("alice", "2. Le métro"), ("bruno", "2. Le métro")):
        page = players[name]
        page.goto(vote_url)
        page.get_by_label(choice).check()
        page.get_by_role("button", name="Vote", exact=True).click()
        page.wait_for_url(vote_url)
    shot(players["alice"], "4-player-voted")
    orga.goto(vote_url)
    orga.get_by_role("button", name="Close the vote").click()
    orga.wait_for_url(vote_url)
    assert "Next chapter: 2. Le métro" in orga.locator("#vote-winner").inner_text()
    shot(orga, "5-vote-closed")

    # Vocations: each one at most once in the chapter.
    chapter = Chapter.objects.get(title="Le métro")
    chapter_url = f"{live_server.url}/chapters/{chapter.pk}/"
    alice_page, bruno_page = players["alice"], players["bruno"]
    alice_page.goto(chapter_url)
    alice_page.get_by_label("Vocation").select_option("meneur")
    alice_page.get_by_role("button", name="Take this vocation").click()
    alice_page.locator('[data-vocation="meneur"]').wait_for()
    bruno_page.goto(chapter_url)
    bruno_page.get_by_label("Vocation").select_option("meneur")
    bruno_page.get_by_role("button", name="Take this vocation").click()
    bruno_page.get_by_text("Meneur is already held by Alice in this chapter.").wait_for()
    shot(bruno_page, "6-vocation-taken")
    bruno_page.get_by_label("Vocation").select_option("guerisseur")
    bruno_page.get_by_role("button", name="Take this vocation").click()
    bruno_page.locator('[data-vocation="guerisseur"]').wait_for()
    assert dict(VocationAssignment.objects.values_list("player__username", "vocation")) == {
        "alice": "meneur",
        "bruno": "guerisseur",
    }

    # The organiser closes the chapter with its epilogue.
    orga.goto(chapter_url)
    orga.get_by_role("link", name="Close the chapter").click()
    orga.get_by_label("Epilogue").fill("Le métro s'effondre derrière eux; Bruno ne ressort pas.")
    orga.locator(f"#id_p{alice.pk}_result").select_option("victory")
    orga.locator(f"#id_p{bruno.pk}_result").select_option("defeat")
    orga.locator(f"#id_p{bruno.pk}_died").check()
    orga.locator("details").first.click()
    orga.locator(f"#id_p{alice.pk}_kills_zonard").fill("3")
    shot(orga, "7-close-form")
    orga.get_by_role("button", name="Close the chapter").click()
    # The close leads to the settlement's preview; the chapter awaits its settlement.
    orga.wait_for_url(f"{chapter_url}settlement/")
    orga.get_by_role("heading", name="Preview of every change").wait_for()
    orga.goto(chapter_url)
    assert orga.locator("#awaiting-settlement").is_visible()
    assert "Bruno ne ressort pas" in orga.locator("#chapter-epilogue").inner_text()
    shot(orga, "8-chapter-closed")
    chapter.refresh_from_db()
    assert chapter.status == ChapterStatus.CLOSED and chapter.settled_at is None

    # Nothing scrolls sideways on a phone.
    for page in (orga, alice_page, bruno_page):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.console_errors == []

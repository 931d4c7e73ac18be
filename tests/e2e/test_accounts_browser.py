"""A newcomer signs up, logs in, switches to English and logs out, on a phone and a desktop."""

import pytest

from characters.models import Player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shot(page, output_dir, name):
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-{name}.png"), full_page=True)


def test_it_takes_a_newcomer_from_sign_up_to_log_out(page, live_server, output_dir):
    page.goto(live_server.url + "/")
    # French, as this browser asks.
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.get_by_role("link", name="Créer un compte").is_visible()
    shot(page, output_dir, "1-home-fr")

    page.get_by_role("link", name="Créer un compte").click()
    page.get_by_label("Nom d'utilisateur").fill("camille")
    page.get_by_label("Adresse e-mail").fill("camille@example.test")
    page.get_by_label("Mot de passe", exact=True).fill("une-longue-phrase-secrete")
    page.get_by_label("Mot de passe (encore)").fill("une-longue-phrase-differente")
    page.get_by_role("button", name="S'inscrire").click()
    # A mistake is a sentence beside the field, and nothing typed is lost.
    assert page.get_by_text("Les deux mots de passe diffèrent.").is_visible()
    assert page.get_by_label("Nom d'utilisateur").input_value() == "camille"
    shot(page, output_dir, "2-signup-error")

    page.get_by_label("Mot de passe", exact=True).fill("une-longue-phrase-secrete")
    page.get_by_label("Mot de passe (encore)").fill("une-longue-phrase-secrete")
    page.get_by_role("button", name="S'inscrire").click()
    page.wait_for_url("**/dashboard/")
    assert page.get_by_role("heading", name="Bonjour camille").is_visible()
    assert Player.objects.filter(username="camille").exists()
    shot(page, output_dir, "3-dashboard")

    # Logging out, then in again.
    _log_out(page, "Se déconnecter")
    page.get_by_role("link", name="Se connecter").first.click()
    page.get_by_label("Nom d'utilisateur").fill("camille")
    page.get_by_label("Mot de passe").fill("une-longue-phrase-secrete")
    page.get_by_role("main").get_by_role("button", name="Se connecter").click()
    page.wait_for_url("**/dashboard/")

    # The header switch turns the whole site English and stays so.
    page.get_by_role("button", name="EN", exact=True).click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", name="Hello camille").is_visible()
    page.goto(live_server.url + "/account/")
    assert page.get_by_role("heading", name="My account").is_visible()
    shot(page, output_dir, "4-account-en")

    # The htmx token button swaps only its section.
    page.goto(live_server.url + "/account/")
    page.get_by_role("button", name="Create a token").click()
    page.locator("code.token").wait_for()
    assert len(page.locator("code.token").inner_text()) == 40

    _log_out(page, "Log out")
    assert page.get_by_role("link", name="Log in").first.is_visible()
    page.goto(live_server.url + "/account/")
    assert "/accounts/login/" in page.url
    shot(page, output_dir, "5-logged-out")
    assert page.console_errors == [], page.console_errors


def _log_out(page, label):
    page.get_by_role("button", name=label).click()
    page.wait_for_load_state()


def test_it_fits_a_phone_screen(page, live_server, output_dir):
    """Nothing scrolls sideways at 390 px, and buttons are big enough for a thumb."""
    for path in ["/", "/accounts/login/", "/accounts/signup/"]:
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{path} scrolls sideways ({width}px)"
        for button in page.locator("button:visible").all():
            box = button.bounding_box()
            assert box["height"] >= 36, f"a button on {path} is {box['height']}px high"
    shot(page, output_dir, "signup")

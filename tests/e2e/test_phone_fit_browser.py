"""Every calculator on a 390 px phone: nothing wider than the screen, no two form controls
drawn over each other, a screenshot of each in test-output/. And the live table played with
the keyboard alone: every control of the action form reached by Tab, an action chosen and
resolved without a pointer, the change announced in the polite region without the focus
leaving the form."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from rules.calculators.cards import system_index_card
from rules.engine.systems import SYSTEMS
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}

# The pairs of visible form controls whose boxes overlap (a pixel of slack for borders).
OVERLAPS = """() => {
  const selector = 'main input, main select, main textarea, main button';
  const shown = e => e.type !== 'hidden' && e.offsetParent !== null;
  const controls = [...document.querySelectorAll(selector)].filter(shown);
  const boxes = controls.map(e => [e, e.getBoundingClientRect()]);
  const name = e => e.id || e.name || e.textContent.trim().slice(0, 20);
  const found = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, r] = boxes[i], [b, s] = boxes[j];
      const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (x > 1 && y > 1) found.push(name(a) + ' / ' + name(b));
    }
  }
  return found;
}"""


# The ids of the action form's visible controls.
ACTION_CONTROLS = """() => [...document.querySelectorAll('#action-form :is(select, input, button)')]
  .filter(e => e.type !== 'hidden' && e.offsetParent !== null).map(e => e.id).filter(Boolean)"""


def _signed_in_phone(browser, live_server, player):
    client = Client()
    client.force_login(player)
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context.new_page()


def test_every_calculator_fits_a_phone_without_overlapping_controls(
    browser, live_server, output_dir
):
    page = _signed_in_phone(browser, live_server, PlayerFactory())
    calculators = [
        link.url for system in SYSTEMS for link in system_index_card(system.slug).calculators
    ]
    assert len(calculators) > 25
    problems = []
    for url in calculators:
        page.goto(live_server.url + url)
        # The odds of the starting values, as a player asks first (the button under the form).
        odds = page.locator("form.calculator button[formmethod=get]").first
        if odds.count():
            odds.click()
            page.wait_for_load_state("networkidle")
        name = url.strip("/").replace("/", "_")
        page.screenshot(path=str(output_dir / f"{name}-390.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            problems.append(f"{url}: {width} px wide")
        overlapping = page.evaluate(OVERLAPS)
        if overlapping:
            problems.append(f"{url}: {overlapping[:3]}")
    assert not problems, problems


def _tab_to(page, element_id: str, limit: int = 120) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == element_id:
            return
    raise AssertionError(f"#{element_id} is never reached with Tab")


def _choose(page, value: str) -> None:
    """Pick `value` in the focused <select> with the arrow keys only."""
    page.keyboard.press("Home")
    for _ in range(60):
        if page.evaluate("document.activeElement.value") == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{value} cannot be chosen with the keyboard")


def test_the_live_table_is_played_with_the_keyboard_alone(browser, live_server, output_dir):
    organiser = PlayerFactory()
    encounter = pick_up_encounter(organiser)
    target = encounter.combatants.order_by("pk").first()
    page = _signed_in_phone(browser, live_server, organiser)
    page.goto(f"{live_server.url}/table/{encounter.pk}/")
    # Every control of the action form is reached by Tab from the top of the page.
    wanted = set(page.evaluate(ACTION_CONTROLS))
    reached = set()
    for _ in range(150):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id"))
        if wanted <= reached:
            break
    assert wanted <= reached, wanted - reached
    # An organiser's wound chosen and applied, keys only.
    page.goto(f"{live_server.url}/table/{encounter.pk}/")
    _tab_to(page, "id_kind")
    _choose(page, "wound")
    _tab_to(page, "id_target")
    _choose(page, str(target.pk))
    _tab_to(page, "id_wound")
    _choose(page, "benign")
    _tab_to(page, "act-button")
    page.keyboard.press("Enter")
    announcer = page.locator("#table-announce")
    expect(announcer).to_contain_text(target.name)
    assert announcer.get_attribute("aria-live") == "polite"
    # The announcement took no focus: the keyboard is still on the form's button.
    assert page.evaluate("document.activeElement.id") == "act-button"
    page.screenshot(path=str(output_dir / "table-keyboard-390.png"), full_page=True)

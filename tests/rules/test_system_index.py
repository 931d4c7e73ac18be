"""Each game system's index at /rules/<system>/ (calculators, catalogue, table) and its API
twin; the calculators' addresses in kebab-case, the old ones redirected."""

import pytest
from django.urls import reverse

SYSTEMS = ("kolaps", "of-the-dead", "rapid40k", "corporates", "modern-rpg")


@pytest.mark.django_db
@pytest.mark.parametrize("system", SYSTEMS)
def test_it_lists_every_calculator_of_each_system_and_its_catalogue(client, system):
    page = client.get(f"/rules/{system}/")
    api = client.get(f"/api/v1/rules/{system}/")
    assert page.status_code == 200
    assert api.status_code == 200
    listed = api.json()
    assert listed["system"] == system
    assert len(listed["calculators"]) >= 3
    for link in listed["calculators"]:
        assert f'href="{link["url"]}"'.encode() in page.content
        assert client.get(link["url"]).status_code in (200, 302)  # the chase tracker: log in
        assert "_" not in link["url"]
    assert f'href="{listed["catalogue"]}"'.encode() in page.content


@pytest.mark.django_db
def test_it_lists_the_calculators_a_system_has():
    from rules.calculators.cards import system_index_card

    rapid = {link.slug for link in system_index_card("rapid40k").calculators}
    assert {"melee", "morale", "shooting", "cost"} <= rapid
    corporates = system_index_card("corporates")
    assert "covering-fire" in {link.slug for link in corporates.calculators}
    shot = next(link for link in corporates.calculators if link.slug == "shot")
    assert shot.api == "/api/v1/rules/corporates/shot/odds"


@pytest.mark.django_db
def test_an_unknown_system_has_no_index(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/api/v1/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_the_dice_menu_reaches_all_five_systems(client):
    content = client.get(reverse("kolaps-test")).content.decode()
    for system in SYSTEMS:
        assert f'href="/rules/{system}/"' in content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/rules/corporates/covering_fire/", "/rules/corporates/covering-fire/"),
        ("/rules/modern-rpg/cold_blood/", "/rules/modern-rpg/cold-blood/"),
        ("/rules/modern-rpg/chase_test/", "/rules/modern-rpg/chase-test/"),
    ],
)
def test_an_old_calculator_address_redirects_for_good_to_the_new_one(client, old, new):
    response = client.get(old, {"characteristic": "8"})
    assert response.status_code == 301
    assert response["Location"] == f"{new}?characteristic=8"
    assert client.get(new).status_code == 200


@pytest.mark.django_db
def test_the_api_keeps_the_resolver_names(client):
    response = client.post(
        "/api/v1/rules/corporates/covering_fire/odds",
        {"firearm_level": 4, "weapons": ["free"]},
        content_type="application/json",
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_a_campaign_links_its_settings_calculators_when_its_system_declares_them(client):
    """The campaign page's "calculators with this campaign's settings" follows the system's
    declaration (`GameSystem.index.reads_campaign_settings`), not its name."""
    from campaigns.services import campaign_create
    from rules.engine.systems import system_get
    from tests.factories import PlayerFactory

    organiser = PlayerFactory()
    client.force_login(organiser)
    for slug in ("corporates", "modern-rpg", "rapid40k", "kolaps"):
        campaign = campaign_create(organiser=organiser, name=f"C {slug}", system=slug)
        html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        shown = 'id="campaign-calculators-link"' in html
        assert shown == system_get(slug).index.reads_campaign_settings, slug
        assert shown == (slug in ("corporates", "modern-rpg")), slug

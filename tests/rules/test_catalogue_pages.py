"""The catalogue of each system to browse, with its search (case and accents ignored),
linked from the builders, sheets and calculators and from the home page."""

import pytest
from django.urls import reverse

from rules.catalogue.cards import SYSTEMS_WITH_CATALOGUE, catalogue_card, folded
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return response.content.decode().replace("\u00a0", " ").replace("\u202f", " ")


def test_it_lists_archetypes_with_their_affiliation_talents_weapons_and_armours(client):
    html = client.get(reverse("catalogue", args=["kolaps"])).content.decode()
    archetypes = html[html.index('id="catalogue-archetypes"') :]
    assert "Agent de Police</strong> · APC" in archetypes
    assert 'id="talent-discipline"' in html
    assert 'id="catalogue-weapons"' in html and 'id="catalogue-armours"' in html
    assert "Discipline de commandement de l&#x27;APC" in html  # summaries in French


def test_its_search_keeps_only_what_matches_and_says_how_many(client):
    url = reverse("catalogue", args=["kolaps"])
    html = client.get(url, {"q": "vampire"}).content.decode()
    assert 'id="archetype-chasseur"' in html
    assert 'id="archetype-agent-de-police"' not in html
    partial = client.get(
        url, {"q": "zzz-nothing"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="catalogue-entries"
    ).content.decode()
    assert "<html" not in partial and "0 entrée trouvée." in partial


def test_its_api_twin_serves_the_same_card_and_refuses_a_system_without_one(client):
    body = client.get(reverse("api-catalogue", args=["kolaps"]), {"q": "fusil"}).json()
    talents = next(s for s in body["sections"] if s["key"] == "talents")
    assert any(t["slug"] == "fusil" for t in talents["entries"])
    refused = client.get(reverse("api-catalogue", args=["chess"]))
    assert refused.status_code == 404 and "catalogue" in refused.json()["detail"]
    assert client.get(reverse("catalogue", args=["chess"])).status_code == 404


def test_the_of_the_dead_catalogue_holds_vocations_zombies_and_its_tables(client):
    """RULES-NOTES O5: "careful 6 cm, normal 12, run 18 (2 noise, 1 zeal), sprint 24";
    O3: "cover (more than half hidden) +2, hidden: cannot be attacked"."""
    html = _text(client.get(reverse("catalogue", args=["of-the-dead"])))
    assert 'id="vocation-eclaireur"><strong>Éclaireur</strong>' in html
    assert 'id="zombie-mastard"><strong>Mastard</strong>' in html
    assert 'id="trauma-psychic"><strong>Trauma psychique</strong> · temporaire / définitif' in html
    assert "<strong>Course</strong> · 18 cm · bruit 2 · zèle 1" in html
    assert "<strong>À couvert (plus de la moitié cachée)</strong> · +2 dés de défense" in html
    assert "<strong>Caché</strong> · ne peut pas être attaqué" in html
    english = _text(
        client.get(reverse("catalogue", args=["of-the-dead"]), HTTP_ACCEPT_LANGUAGE="en")
    )
    client.cookies.clear()
    assert "<strong>Run</strong> · 18 cm · noise 2 · zeal 1" in english


def test_the_rapid40k_catalogue_holds_weapons_vehicles_and_the_annex_armies(client):
    """Véhicules blindés: the Rhino costs 186 points, the battle tank 230 (annex)."""
    html = _text(client.get(reverse("catalogue", args=["rapid40k"])))
    assert "<strong>Rhino / transport de troupe</strong> · Qualité 3+ · Combat 3 · 186 points" in (
        html
    )
    assert "Armes : Canon, Mitrailleuse" in html
    for army in ("space_marines", "orks", "tau"):
        assert f'id="catalogue-army-{army}"' in html
    assert "<strong>Capitaine space marine</strong> · Qualité 2+ · Combat 3 · 123 points" in html


def test_the_corporates_and_modern_catalogues_hold_their_tables(client):
    """Corporates, Les tirs: "mur de béton" protection 20; modern RPG, Protections: the
    class IV vest is the sixth level."""
    corporates = _text(client.get(reverse("catalogue", args=["corporates"])))
    assert "<strong>Mur en béton</strong> · protection 20" in corporates
    assert 'id="catalogue-criticals"' in corporates and 'id="catalogue-cyber-effects"' in corporates
    modern = _text(client.get(reverse("catalogue", args=["modern-rpg"])))
    assert "<strong>Gilet de classe IV</strong> · protection 6" in modern
    assert 'id="catalogue-chase-events"' in modern and 'id="catalogue-attitudes"' in modern


def test_the_search_ignores_accents_and_case(client):
    assert folded("  ÉCLAIREUR  Vétéran ") == "eclaireur veteran"
    card = catalogue_card("of-the-dead", "ECLAIREUR")
    assert [e.label for s in card.sections for e in s.entries] == ["Éclaireur"]
    html = _text(client.get(reverse("catalogue", args=["rapid40k"]), {"q": "blinde"}))
    assert "Blindé" in html and "Pistolet" not in html


@pytest.mark.parametrize("system", SYSTEMS_WITH_CATALOGUE)
def test_every_catalogue_page_costs_the_same_queries_whatever_it_shows(
    client, django_assert_num_queries, system
):
    """Everything is read from the catalogue data files, and the session and the user from
    the cache after the first request: the page reads nothing from the database, for the
    whole catalogue and for a search with one hit alike."""
    client.force_login(PlayerFactory())
    url = reverse("catalogue", args=[system])
    client.get(url)
    with django_assert_num_queries(0):
        whole = client.get(url)
    with django_assert_num_queries(0):
        narrow = client.get(url, {"q": "zzz"})
    assert whole.status_code == narrow.status_code == 200


def test_the_builders_sheets_calculators_and_home_link_to_them(client):
    home = client.get(reverse("home")).content.decode()
    for system in SYSTEMS_WITH_CATALOGUE:
        assert reverse("catalogue", args=[system]) in home
    client.force_login(PlayerFactory())
    pages = {
        "kolaps": reverse("kolaps-list"),
        "rapid40k": reverse("rapid40k-list"),
        "modern-rpg": reverse("modern-list"),
        "corporates": reverse("corporates-turn"),
        "of-the-dead": reverse("of-the-dead-calculator", args=["brawl"]),
    }
    for system, page in pages.items():
        assert reverse("catalogue", args=[system]) in client.get(page).content.decode(), page
    for system in ("corporates", "modern-rpg"):
        html = client.get(reverse("dice-calculators", args=[system])).content.decode()
        assert reverse("catalogue", args=[system]) in html

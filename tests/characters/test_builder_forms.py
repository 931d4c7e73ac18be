"""Forms that don't fight: the rank list follows the archetype, PP read alike on the unit
page and its print sheet, the Of the Dead attributes count their 9 points, and an
invitation link survives signing up."""

import re

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.services import campaign_create, invitation_create
from characters.kolaps import services as kolaps
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_each_archetype_names_its_ranks_and_affiliation_for_the_rank_list(client):
    player = PlayerFactory()
    unit = kolaps.unit_create(owner=player, name="Section")
    client.force_login(player)
    html = client.get(reverse("kolaps-unit", args=[unit.pk])).content.decode()
    assert 'data-rank-list="#id_rank"' in html
    catalogue = kolaps.catalogue()
    for archetype in catalogue.archetypes.values():
        option = re.search(rf'<option value="{archetype.slug}" data-ranks="([^"]*)">([^<]*)<', html)
        assert option is not None, archetype.slug
        assert option.group(1).split() == list(archetype.ranks)
        affiliation = catalogue.affiliations[archetype.affiliation].label
        assert option.group(2).endswith(affiliation)


def test_pp_read_spent_over_budget_on_the_unit_page_and_the_print_sheet(client):
    player = PlayerFactory()
    unit = kolaps.unit_create(owner=player, name="Section")
    character = kolaps.character_create(
        owner=player, name="Dupont", archetype="agent-de-police", rank="veteran", unit=unit
    )
    kolaps.character_raise(
        actor=player, character=character, version=character.version, talent="fusil"
    )
    client.force_login(player)
    page = client.get(reverse("kolaps-unit", args=[unit.pk])).content.decode()
    sheet = client.get(reverse("kolaps-unit-print", args=[unit.pk])).content.decode()
    spent_budget = re.search(r"(\d+)/(\d+) PP", page).group(0)
    assert spent_budget in sheet
    spent, budget = (int(n) for n in spent_budget.removesuffix(" PP").split("/"))
    assert 0 < spent < budget  # spent, not what is left


def test_the_profile_form_counts_its_attribute_points(client):
    client.force_login(PlayerFactory())
    html = client.get(reverse("profile-mine")).content.decode()
    assert 'id="attribute-points"' in html and 'data-total="9"' in html
    assert html.count('data-points="attributes"') == 4


def test_an_invitation_survives_sign_up(client):
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="La rive", system="of-the-dead")
    join = reverse(
        "campaign-join", args=[invitation_create(actor=organiser, campaign=campaign).token]
    )
    login = client.get(join)["Location"]
    assert login.startswith(reverse("login"))
    login_page = client.get(login).content.decode()
    signup_link = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', login_page).group(1)
    signup_page = client.get(signup_link.replace("&amp;", "&")).content.decode()
    assert f'name="next" value="{join}"' in signup_page
    response = client.post(
        signup_link.replace("&amp;", "&"),
        {
            "username": "newcomer",
            "email": "newcomer@example.test",
            "display_name": "",
            "password": "a-long-new-passphrase-9",
            "password_again": "a-long-new-passphrase-9",
            "next": join,
        },
    )
    assert response["Location"] == join
    client.post(join)
    assert Membership.objects.filter(campaign=campaign, player__username="newcomer").exists()


def test_sign_up_never_sends_the_newcomer_to_another_site(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.test",
            "display_name": "",
            "password": "a-long-new-passphrase-9",
            "password_again": "a-long-new-passphrase-9",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == reverse("dashboard")


def test_a_refused_rank_keeps_what_was_typed_and_names_the_allowed_ones(client):
    player = PlayerFactory()
    unit = kolaps.unit_create(owner=player, name="Section")
    client.force_login(player)
    response = client.post(
        reverse("kolaps-character-create"),
        {"name": "Sergent Morel", "archetype": "sous-officier", "rank": "novice", "unit": unit.pk},
    )
    html = response.content.decode()
    assert 'class="refusal"' in html and "Vétéran" in html and "Expert" in html
    assert 'value="Sergent Morel"' in html
    assert '<details class="new-character" open>' in html
    assert 'value="sous-officier" data-ranks="veteran expert" selected' in html

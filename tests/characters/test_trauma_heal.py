"""A player heals one of their temporary traumas by hand, from the profile page or the API."""

import pytest
from django.urls import reverse

from characters.models import ProfileEvent, Trauma
from characters.profiles.services import profile_create, trauma_add
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def wounded():
    player = PlayerFactory(username="alice")
    profile = profile_create(actor=player, player=player, physique=3, psychique=2, reflexes=2,
                             combat=2)  # fmt: skip
    arm = trauma_add(actor=player, profile=profile, name="Bras cassé", kind="physical",
                     effect={"physique": -1})  # fmt: skip
    deaf = trauma_add(actor=player, profile=profile, name="Sourd", kind="physical",
                      permanence="permanent")  # fmt: skip
    return player, profile, arm, deaf


def test_it_heals_a_temporary_trauma_from_the_page_with_its_fragment(client, wounded):
    player, profile, arm, deaf = wounded
    client.force_login(player)
    html = client.get(reverse("profile-mine")).content.decode()
    assert f'data-heal="{arm.pk}"' in html and f'data-heal="{deaf.pk}"' not in html
    response = client.post(
        reverse("profile-trauma-heal", args=[arm.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="profile-traumas",
    )
    html = response.content.decode()
    assert "<html" not in html and html.strip().startswith('<section id="profile-traumas"')
    assert "healed on" in html
    arm.refresh_from_db()
    profile.refresh_from_db()
    assert not arm.active and profile.life_markers == 6  # Physique 3 again: 2 x 3 (O1)
    assert ProfileEvent.objects.filter(profile=profile, verb="trauma_healed").count() == 1


def test_a_permanent_trauma_stays_with_its_sentence(client, wounded):
    player, _profile, _arm, deaf = wounded
    client.force_login(player)
    response = client.post(reverse("api-profile-trauma-heal", args=[deaf.pk]))
    assert response.status_code == 400
    assert response.json() == {"trauma": ["A permanent trauma does not heal."]}
    response = client.post(reverse("profile-trauma-heal", args=[deaf.pk]), follow=True)
    assert "A permanent trauma does not heal." in response.content.decode()
    assert Trauma.objects.get(pk=deaf.pk).active


def test_the_api_heals_and_answers_with_the_profile(client, wounded):
    player, _profile, arm, _deaf = wounded
    client.force_login(player)
    body = client.post(reverse("api-profile-trauma-heal", args=[arm.pk])).json()
    healed = next(t for t in body["traumas"] if t["id"] == arm.pk)
    assert healed["active"] is False and body["life_markers"] == 6

"""A JSON body that is not an object (a list, a string) is bad input, never a 500: found by
the API fuzzer (`[null, null]` posted to the token endpoint)."""

import pytest
from django.urls import reverse

from campaigns.services import campaign_create
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", ["[null, null]", '"alice"', "3"])
def test_the_token_endpoint_answers_a_body_that_is_not_an_object_with_a_400(client, body):
    answer = client.post(reverse("api-token"), body, content_type="application/json")
    assert answer.status_code == 400


@pytest.mark.parametrize("method", ["post", "delete"])
def test_naming_a_co_organiser_with_a_list_body_is_refused_not_a_crash(client, method):
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Les quais", system="of-the-dead")
    client.force_login(organiser)
    url = reverse("api-campaign-co-organisers", args=[campaign.pk])
    answer = getattr(client, method)(url, "[null]", content_type="application/json")
    assert 400 <= answer.status_code < 500
    assert answer.json()

"""Bad input gets a clear error and loses nothing: never a 500, whatever is sent."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters.models import Player

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3)
    ),
    max_leaves=8,
)
bodies = st.dictionaries(
    st.sampled_from(["username", "email", "password", "display_name", "other"]),
    json_values,
    max_size=5,
)
hypothesis_settings = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.django_db
@hypothesis_settings
@given(body=bodies)
def test_it_answers_any_signup_body_with_a_4xx_or_an_account(client, body):
    cache.clear()  # the sign-up throttle would answer 429 after 20 examples
    before = Player.objects.count()
    response = client.post(reverse("api-signup"), body, content_type="application/json")
    assert response.status_code in {201, 400}, response.content
    if response.status_code == 400:
        assert response.json(), "a 400 names what is wrong"
        assert Player.objects.count() == before


@pytest.mark.django_db
@hypothesis_settings
@given(body=bodies)
def test_it_answers_any_account_change_with_a_4xx_or_the_account(client, player, body):
    client.force_login(player)
    response = client.patch(reverse("api-me"), body, content_type="application/json")
    assert response.status_code in {200, 400}, response.content


@pytest.mark.django_db
@hypothesis_settings
@given(
    data=st.dictionaries(
        st.sampled_from(["username", "email", "password", "password_again", "display_name"]),
        st.text(max_size=200),
    )
)
def test_it_redisplays_any_bad_signup_form_with_its_messages(client, data):
    before = Player.objects.count()
    response = client.post(reverse("signup"), data)
    assert response.status_code in {200, 302}
    if response.status_code == 200:
        assert response.context["form"].errors
        assert Player.objects.count() == before


def test_it_refuses_malformed_json_with_a_sentence(client, db):
    response = client.post(reverse("api-signup"), "{not json", content_type="application/json")
    assert response.status_code == 400
    assert "detail" in response.json()

"""A new password ends what the old one opened: the API token is replaced and every other
session is logged out; the page or request that changed it keeps its own session."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

NEW = "brand-new-pass-77"


def _script(token: str) -> APIClient:
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return script


def _logged_in(player) -> Client:
    other = Client()
    other.force_login(player)
    assert other.get(reverse("account")).status_code == 200
    return other


def test_it_replaces_the_token_and_ends_other_sessions_on_an_api_password_change(
    client, player, password
):
    old = Token.objects.create(user=player).key
    assert _script(old).get(reverse("api-me")).status_code == 200
    elsewhere = _logged_in(player)
    client.force_login(player)
    response = client.post(
        reverse("api-password"),
        {"old_password": password, "new_password": NEW},
        content_type="application/json",
    )
    assert response.status_code == 204
    assert _script(old).get(reverse("api-me")).status_code == 401
    new = Token.objects.get(user=player).key
    assert new != old
    assert _script(new).get(reverse("api-me")).status_code == 200
    assert elsewhere.get(reverse("account")).status_code == 302  # to the login page
    assert client.get(reverse("account")).status_code == 200


def test_it_ends_the_token_used_to_change_the_password(player, password):
    old = Token.objects.create(user=player).key
    response = _script(old).post(
        reverse("api-password"), {"old_password": password, "new_password": NEW}, format="json"
    )
    assert response.status_code == 204
    assert _script(old).get(reverse("api-me")).status_code == 401


def test_it_replaces_the_token_and_ends_other_sessions_on_the_password_page(
    client, player, password
):
    old = Token.objects.create(user=player).key
    elsewhere = _logged_in(player)
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {"old_password": password, "password": NEW, "password_again": NEW},
    )
    assert response.status_code == 302
    assert _script(old).get(reverse("api-me")).status_code == 401
    assert elsewhere.get(reverse("account")).status_code == 302
    assert client.get(reverse("account")).status_code == 200


def test_it_replaces_the_token_and_ends_every_session_on_a_reset(client, player):
    old = Token.objects.create(user=player).key
    elsewhere = _logged_in(player)
    client.post(reverse("password_reset"), {"email": "alice@example.test"})
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    form_url = client.get(link.group(1), follow=True).redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert _script(old).get(reverse("api-me")).status_code == 401
    assert elsewhere.get(reverse("account")).status_code == 302


def test_a_player_without_a_token_gets_none_from_a_password_change(client, player, password):
    client.force_login(player)
    client.post(
        reverse("api-password"),
        {"old_password": password, "new_password": NEW},
        content_type="application/json",
    )
    assert not Token.objects.filter(user=player).exists()

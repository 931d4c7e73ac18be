"""Sign up, log in and out, lockout, passwords, the account page and its API twin."""

import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.authtoken.models import Token

from characters.models import Player

pytestmark = pytest.mark.django_db

SIGNUP = {
    "username": "camille",
    "email": "camille@example.test",
    "display_name": "Camille",
    "password": "une-longue-phrase-secrete",
    "password_again": "une-longue-phrase-secrete",
}


def test_it_signs_up_logs_in_and_sends_one_welcome_email(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(reverse("signup"), SIGNUP)
    # the e-mail waits for the commit (the others forget the new player's cached row again)
    assert [getattr(c, "func", c).__name__ for c in callbacks].count("delay") == 1
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    player = Player.objects.get(username="camille")
    assert player.check_password("une-longue-phrase-secrete")
    assert player.password.startswith("md5$")  # the fast hasher exists only in tests
    assert client.session["_auth_user_id"] == str(player.pk)
    assert [m.subject for m in mail.outbox] == ["Bienvenue sur Chronique"]
    assert Player.objects.get(pk=player.pk).welcomed_at is not None


def test_it_hashes_passwords_with_argon2_outside_tests():
    from config import settings as project_settings

    assert project_settings.PASSWORD_HASHERS[0] == "config.hashers.Argon2idHasher"


@pytest.mark.parametrize(
    ("change", "field", "sentence"),
    [
        ({"password_again": "autre-chose-encore"}, "password_again", "diffèrent"),
        ({"password": "123", "password_again": "123"}, "password", "trop court"),
        ({"email": "pas-une-adresse"}, "email", "adresse e-mail valide"),
        ({"username": "alice"}, "username", "déjà pris"),
        ({"email": "ALICE@example.test"}, "email", "utilise déjà"),
    ],
)
def test_it_explains_each_signup_mistake_beside_its_field(client, player, change, field, sentence):
    response = client.post(reverse("signup"), {**SIGNUP, **change})
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors.get(field, []))
    assert sentence in errors
    assert Player.objects.count() == 1  # nothing saved
    assert 'value="' + {**SIGNUP, **change}["username"] + '"' in response.content.decode()


def test_it_gives_a_new_session_key_at_login_and_none_after_logout(client, player, password):
    client.get(reverse("login"))
    client.session.save()
    before = client.session.session_key
    response = client.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 302
    after = client.session.session_key
    assert after and after != before
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=after).exists()


def test_it_locks_the_account_out_after_five_failures_from_one_address(client, player, password):
    for _ in range(4):
        response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
        assert response.status_code == 200
        assert "mot de passe valides" in response.content.decode()
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 429
    assert "bloquée pendant 15 minutes" in response.content.decode()
    # Even the right password is refused until the window passes.
    response = client.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_does_not_lock_out_another_account_or_address(client, player, other_player, password):
    for _ in range(5):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "bruno", "password": password})
    assert response.status_code == 302
    from django.test import Client

    elsewhere = Client(REMOTE_ADDR="10.9.8.7")
    response = elsewhere.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 302


def test_it_counts_login_failures_by_the_connection_not_a_forwarded_for_header(
    client, player, password
):
    """The visitor's address is the one the server sets (REMOTE_ADDR, from the proxy): a
    client that sends a new X-Forwarded-For with each guess is still locked out."""
    for n in range(5):
        client.post(
            reverse("login"),
            {"username": "alice", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )
    response = client.post(
        reverse("login"),
        {"username": "alice", "password": password},
        HTTP_X_FORWARDED_FOR="203.0.113.99",
    )
    assert response.status_code == 429


def test_it_lets_the_lockout_pass_after_fifteen_minutes(client, player, password):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(5):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = client.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 302


def test_it_locks_out_the_api_token_endpoint_too(client, player, password):
    url = reverse("api-token")
    for _ in range(5):
        client.post(
            url, {"username": "alice", "password": "wrong"}, content_type="application/json"
        )
    response = client.post(
        url, {"username": "alice", "password": password}, content_type="application/json"
    )
    assert response.status_code == 429
    assert "bloquée pendant 15 minutes" in response.json()["detail"]
    assert not Token.objects.exists()


def test_it_changes_the_password_and_keeps_the_session(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "password": "x-new-pass-99z", "password_again": "x-new-pass-99z"},
    )
    assert "Votre mot de passe actuel est incorrect." in response.content.decode()
    response = client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "password": "x-new-pass-99z",
            "password_again": "x-new-pass-99z",
        },
    )
    assert response.status_code == 302
    assert Player.objects.get(pk=player.pk).check_password("x-new-pass-99z")
    assert client.get(reverse("account")).status_code == 200


def test_it_resets_a_forgotten_password_through_the_emailed_link(client, player):
    response = client.post(reverse("password_reset"), {"email": "alice@example.test"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    response = client.get(link.group(1), follow=True)
    assert "Choisissez un nouveau mot de passe" in response.content.decode()
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "reset-pass-4242", "new_password2": "reset-pass-4242"}
    )
    assert response.status_code == 302
    assert Player.objects.get(pk=player.pk).check_password("reset-pass-4242")


def test_it_sends_no_reset_email_for_an_unknown_address(client, player):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.test"})
    assert response.status_code == 302  # the same answer: addresses are not revealed
    assert mail.outbox == []


def test_it_saves_the_account_page_and_refuses_a_taken_address(client, player, other_player):
    client.force_login(player)
    response = client.post(reverse("account"), {"email": "bruno@example.test", "display_name": "A"})
    assert response.status_code == 200
    assert "Un compte utilise déjà cette adresse e-mail." in response.content.decode()
    assert Player.objects.get(pk=player.pk).email == "alice@example.test"
    response = client.post(reverse("account"), {"email": "a2@example.test", "display_name": "Al"})
    assert response.status_code == 302
    assert Player.objects.get(pk=player.pk).display_name == "Al"


def test_it_swaps_only_the_token_section_for_htmx(client, player):
    client.force_login(player)
    response = client.post(
        reverse("account-token"),
        {"action": "rotate"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="api-token",
    )
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="api-token"' in html
    assert Token.objects.get(user=player).key in html
    full = client.get(reverse("account")).content.decode()
    assert "<html" in full and Token.objects.get(user=player).key in full


# --- The API twin -------------------------------------------------------------------------


def test_it_signs_up_through_the_api_and_answers_field_errors(client, player):
    url = reverse("api-signup")
    response = client.post(
        url,
        {"username": "alice", "email": "new@example.test", "password": "long-enough-pass-1"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json() == {"username": ["Ce nom d'utilisateur est déjà pris."]}
    response = client.post(url, {"username": "zoe"}, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == {"email", "password"}
    response = client.post(
        url,
        {"username": "zoe", "email": "zoe@example.test", "password": "long-enough-pass-1"},
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.json()["username"] == "zoe"
    assert "password" not in response.json()


def test_it_speaks_english_to_an_api_client_that_asks(client, player):
    response = client.post(
        reverse("api-signup"),
        {"username": "alice", "email": "new@example.test", "password": "long-enough-pass-1"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.json() == {"username": ["This username is already taken."]}


def test_it_authenticates_a_script_by_token(client, player, password):
    response = client.post(
        reverse("api-token"),
        {"username": "alice", "password": password},
        content_type="application/json",
    )
    token = response.json()["token"]
    from rest_framework.test import APIClient

    script = APIClient()
    assert script.get(reverse("api-me")).status_code == 401
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = script.get(reverse("api-me"))
    assert me.status_code == 200
    assert me.json()["username"] == "alice"
    response = script.patch(reverse("api-me"), {"display_name": "Alice B."}, format="json")
    assert response.status_code == 200
    assert Player.objects.get(pk=player.pk).display_name == "Alice B."
    response = script.patch(reverse("api-me"), {"email": "nope"}, format="json")
    assert response.status_code == 400 and "email" in response.json()
    assert script.delete(reverse("api-token")).status_code == 204
    assert script.get(reverse("api-me")).status_code == 401


def test_it_changes_the_password_through_the_api(client, player, password):
    client.force_login(player)
    url = reverse("api-password")
    response = client.post(
        url, {"old_password": "bad", "new_password": "x"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "old_password" in response.json()
    response = client.post(
        url,
        {"old_password": password, "new_password": "brand-new-pass-77"},
        content_type="application/json",
    )
    assert response.status_code == 204
    assert Player.objects.get(pk=player.pk).check_password("brand-new-pass-77")

"""Passwords: argon2id at OWASP's minimum, old hashes upgraded at login, a bounded number
of hashes at once, and a bounded number of login attempts per address."""

import threading
import time

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher
from django.urls import reverse

from characters.models import Player
from config.hashers import Argon2idHasher

pytestmark = pytest.mark.django_db

OWASP_MINIMUM = "m=19456,t=2,p=1"


@pytest.fixture
def argon2(settings):
    settings.PASSWORD_HASHERS = ["config.hashers.Argon2idHasher"]


def test_it_hashes_with_argon2id_at_owasps_minimum(argon2, player):
    player.set_password("une-longue-phrase-secrete")
    assert player.password.startswith("argon2$argon2id$v=19$" + OWASP_MINIMUM + "$")


def test_it_upgrades_a_hash_of_djangos_defaults_at_the_next_login(argon2, client, player):
    old = Argon2PasswordHasher()
    player.password = old.encode("une-longue-phrase-secrete", old.salt())
    player.save(update_fields=["password"])
    assert "m=102400,t=2,p=8" in player.password
    response = client.post(
        reverse("login"), {"username": "alice", "password": "une-longue-phrase-secrete"}
    )
    assert response.status_code == 302
    stored = Player.objects.get(pk=player.pk).password
    assert OWASP_MINIMUM in stored
    assert Player.objects.get(pk=player.pk).check_password("une-longue-phrase-secrete")


def test_it_computes_no_more_hashes_at_once_than_the_setting_allows(settings, monkeypatch):
    settings.PASSWORD_HASHES_AT_ONCE = 2
    running, most = 0, 0
    lock = threading.Lock()

    def slow_verify(self, password, encoded):
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return True

    monkeypatch.setattr(Argon2PasswordHasher, "verify", slow_verify)
    hasher = Argon2idHasher()
    threads = [threading.Thread(target=hasher.verify, args=("pw", "x")) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 2


def test_it_slows_an_address_trying_many_names_on_the_login_page(settings, client, player):
    settings.LOGIN_ATTEMPTS_PER_MINUTE = 3
    for name in ("a1", "a2", "a3"):
        response = client.post(reverse("login"), {"username": name, "password": "x"})
        assert response.status_code == 200
    response = client.post(reverse("login"), {"username": "a4", "password": "x"})
    assert response.status_code == 429
    assert "Trop de tentatives de connexion depuis votre adresse" in response.content.decode()
    # the right password too waits: the address is slowed, whatever it sends
    response = client.post(
        reverse("login"), {"username": "alice", "password": "une-longue-phrase-secrete"}
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_slows_an_address_trying_many_names_for_a_token(settings, client, player):
    settings.LOGIN_ATTEMPTS_PER_MINUTE = 2
    for name in ("a1", "a2"):
        response = client.post(
            reverse("api-token"), {"username": name, "password": "x"}, "application/json"
        )
        assert response.status_code == 400
    response = client.post(
        reverse("api-token"), {"username": "a3", "password": "x"}, "application/json"
    )
    assert response.status_code == 429
    assert "Trop de tentatives de connexion" in response.json()["detail"]


def test_another_address_is_not_slowed(settings, client, player):
    settings.LOGIN_ATTEMPTS_PER_MINUTE = 1
    client.post(reverse("login"), {"username": "a1", "password": "x"})
    assert client.post(reverse("login"), {"username": "a2", "password": "x"}).status_code == 429
    response = client.post(
        reverse("login"), {"username": "a3", "password": "x"}, REMOTE_ADDR="10.0.0.9"
    )
    assert response.status_code == 200

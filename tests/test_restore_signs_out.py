"""`make restore` ends every session and API token, in the database and in a running
server that keeps its cache in its own memory (config/backup.py, RestoreStampMiddleware)."""

from unittest import mock

from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from characters.models import Player
from config.backup import signed_out_everywhere
from tests.factories import PlayerFactory

ME = "/api/v1/me/"


def test_a_restore_signs_out_a_running_server_with_its_own_cache(db, settings, tmp_path):
    settings.RESTORE_STAMP = tmp_path / "restore-stamp"
    gone = PlayerFactory(username="gone")
    token = Token.objects.create(user=gone)
    browser, device = Client(), Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    browser.force_login(gone)
    assert browser.get(ME).status_code == device.get(ME).status_code == 200  # now cached
    # The restore runs in another process: the server's own cache is out of its reach. The
    # restored database does not hold the account, and its id goes to a new one.
    elsewhere = LocMemCache("the-restore-process", {})
    with mock.patch("config.backup.cache", elsewhere), mock.patch("config.models.cache", elsewhere):
        signed_out_everywhere()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM characters_player WHERE id = %s", [gone.pk])
    newcomer = Player.objects.create_user(username="newcomer", password="x", id=gone.pk)
    theirs = Client()
    theirs.force_login(newcomer)
    assert theirs.get(ME).json()["username"] == "newcomer"
    assert device.get(ME).status_code == 401  # the old token names nobody
    assert browser.get(ME).status_code in (401, 403)  # nor does the old session
    assert not Token.objects.exists()


def test_a_restore_ends_the_sessions_and_tokens_it_brings_back(db, settings, tmp_path):
    settings.RESTORE_STAMP = tmp_path / "restore-stamp"
    player = PlayerFactory()
    Token.objects.create(user=player)
    Client().force_login(player)
    signed_out_everywhere()
    from django.contrib.sessions.models import Session

    assert not Session.objects.exists() and not Token.objects.exists()
    assert (tmp_path / "restore-stamp").exists()

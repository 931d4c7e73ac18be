"""`make backup` / `make restore`: a dump of the demo restored into an empty database holds
every row of every table."""

import os
import sqlite3
import subprocess
import sys
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent


def counts(cursor) -> dict[str, int]:
    cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    tables = [row[0] for row in cursor.fetchall()]
    found = {}
    for table in tables:
        cursor.execute(f'SELECT count(*) FROM "{table}"')
        found[table] = cursor.fetchone()[0]
    return found


def test_a_dump_of_the_demo_restores_into_an_empty_database(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump and pg_restore are PostgreSQL's")
    call_command("demo_load", stdout=StringIO())
    dump = tmp_path / "demo.dump"
    call_command("backup", output=dump, stdout=StringIO())
    with connection.cursor() as cursor:
        before = counts(cursor)
    assert before["campaigns_campaign"] >= 2 and before["characters_kolapscharacter"] >= 6

    db = settings.DATABASES["default"]
    empty = f"{db['NAME']}_restore"
    admin = {
        "host": db["HOST"] or None,
        "port": db["PORT"] or None,
        "user": db["USER"] or None,
        "password": db["PASSWORD"] or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    with psycopg.connect(**admin) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{empty}"')
        conn.execute(f'CREATE DATABASE "{empty}"')
    try:
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{empty}"
        env = {**os.environ, "DATABASE_URL": url}
        restored = subprocess.run(
            [sys.executable, "manage.py", "restore", str(dump)],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert restored.returncode == 0, restored.stderr
        with psycopg.connect(**{**admin, "dbname": empty}) as conn, conn.cursor() as cursor:
            after = counts(cursor)
    finally:
        with psycopg.connect(**admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{empty}" WITH (FORCE)')
    assert after == before


def test_the_embedded_default_backs_up_and_restores_its_sqlite_file(tmp_path):
    """The same commands on SQLite (the `make run` default), in a process of its own."""
    database = tmp_path / "chronique.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "CELERY_BROKER_URL": ""}

    def manage(*args):
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    manage("migrate", "-v", "0")
    manage("demo_load")
    copy = tmp_path / "copy.sqlite3"
    manage("backup", "--output", str(copy))
    database.unlink()
    manage("migrate", "-v", "0")  # an empty database of the same schema
    manage("restore", str(copy))

    with sqlite3.connect(database) as restored, sqlite3.connect(copy) as original:
        query = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        tables = [row[0] for row in original.execute(query)]
        for table in tables:
            row_count = f'SELECT count(*) FROM "{table}"'
            assert restored.execute(row_count).fetchone() == original.execute(row_count).fetchone()
    assert "campaigns_campaign" in tables


def test_it_forgets_the_kept_pages_after_a_restore(tmp_path, monkeypatch):
    """Kept pages are keyed by rows' ids and versions, which restored rows may reuse with
    other content: a restore empties the cache (the database's part mocked here; the two
    tests above restore for real)."""
    from django.core.cache import cache

    from config import backup

    restored = []
    monkeypatch.setattr(backup, "_restore", restored.append)
    dump = tmp_path / "some.dump"
    dump.write_bytes(b"-")
    cache.set("table-page:1:v7", "a page of the encounter before the restore")
    backup.restore(dump)
    assert restored == [dump]
    assert cache.get("table-page:1:v7") is None

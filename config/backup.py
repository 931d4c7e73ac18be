"""Backups of the database `DATABASE_URL` names: `pg_dump` / `pg_restore` (custom format)
on PostgreSQL, SQLite's online backup API on the embedded default. `make backup` and
`make restore FILE=...` call the `backup` and `restore` commands, which call these."""

import os
import secrets
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connections
from rest_framework.authtoken.models import Token


class BackupError(Exception):
    pass


def _database(alias: str = "default") -> dict:
    return settings.DATABASES[alias]


def _vendor(alias: str = "default") -> str:
    return connections[alias].vendor


def _pg_env_and_args(db: dict) -> tuple[dict, list[str]]:
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    return env, args


def default_path(directory: Path | None = None) -> Path:
    directory = directory or Path(settings.BASE_DIR) / "var" / "backups"
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    suffix = "dump" if _vendor() == "postgresql" else "sqlite3"
    return directory / f"chronique-{stamp}.{suffix}"


def backup(path: Path) -> Path:
    """Write a consistent copy of the whole database to `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = _database()
    if _vendor() == "postgresql":
        if shutil.which("pg_dump") is None:
            raise BackupError("pg_dump is not installed (apt-get install postgresql-client).")
        env, args = _pg_env_and_args(db)
        command = ["pg_dump", "--format=custom", "--no-owner", "--file", str(path), *args]
        subprocess.run([*command, str(db["NAME"])], env=env, check=True)
        return path
    connection = connections["default"]
    connection.ensure_connection()
    with sqlite3.connect(path) as target:
        connection.connection.backup(target)
    return path


def restore(path: Path) -> None:
    """Replace the database's content with the backup at `path` (same schema version), then
    empty the cache: the pages it keeps are keyed by rows' ids and versions, which the
    restored rows may reuse with other content (sessions fall back to the database)."""
    if not path.exists():
        raise BackupError(f"No backup at {path}.")
    _restore(path)
    signed_out_everywhere()
    cache.clear()


def signed_out_everywhere() -> None:
    """After a restore, every session and API token of the restored rows ends (everyone
    signs in again), and the restore stamp tells the servers that keep their cache in
    their own memory to empty it (`config.middleware.RestoreStampMiddleware`): they would
    otherwise keep serving the sessions, tokens and players of the database replaced, and
    a restored id may belong to someone else now."""
    Session.objects.all().delete()
    Token.objects.all().delete()
    stamp = Path(settings.RESTORE_STAMP)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(secrets.token_hex(16))


def _restore(path: Path) -> None:
    db = _database()
    if _vendor() == "postgresql":
        if shutil.which("pg_restore") is None:
            raise BackupError("pg_restore is not installed (apt-get install postgresql-client).")
        env, args = _pg_env_and_args(db)
        connections["default"].close()
        subprocess.run(
            ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
             "--exit-on-error", *args, "--dbname", str(db["NAME"]), str(path)],
            env=env,
            check=True,
        )  # fmt: skip
        return
    connection = connections["default"]
    connection.ensure_connection()
    with sqlite3.connect(path) as source:
        source.backup(connection.connection)

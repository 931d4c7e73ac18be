"""`manage.py backup [--output PATH]`: a copy of the database (see config/backup.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from config.backup import BackupError, backup, default_path


class Command(BaseCommand):
    help = "Back the database up: pg_dump on PostgreSQL, the SQLite backup API otherwise."

    def add_arguments(self, parser):
        parser.add_argument("--output", type=Path, help="where to write it")

    def handle(self, *args, output=None, **options):
        try:
            path = backup(output or default_path())
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Backup written: {path}")

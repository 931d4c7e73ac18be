"""`manage.py restore PATH`: replace the database's content with a backup."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from config.backup import BackupError, restore


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into the configured database."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path, **options):
        try:
            restore(path)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored from {path}")

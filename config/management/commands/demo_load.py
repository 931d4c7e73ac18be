"""Load the demo data `make run` shows: an organiser, two players and their campaigns.

Idempotent: running it again changes nothing and keeps whatever the demo users did (the
demo finds its rows by stable keys, `config.demo.keys`).
Everything is written through the services, as a user would. The areas live in
`config/demo/`, one module each; add a new one there and call it from `load_demo`.
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from config.demo import DEMO_USERS, load_demo


class Command(BaseCommand):
    help = "Load the demo organiser, players and campaign (idempotent)."

    def handle(self, *args, **options):
        with transaction.atomic():
            load_demo(self.stdout)
        # After the commit, so the welcome e-mails printed by the console backend come first.
        self.stdout.write("Demo accounts (username / password):")
        for username, display_name, password, role in DEMO_USERS:
            self.stdout.write(f"  {role:<9} {username:<6} / {password}   ({display_name})")

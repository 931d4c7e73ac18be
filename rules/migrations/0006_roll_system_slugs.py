"""Rolls made through an address spelt with underscores (`/rules/of_the_dead/…`, before
the kebab-case addresses of 2026-11-24) stored that spelling as their system; every system
is found by its slug (`of-the-dead`, `modern-rpg`), so their pages could not name it."""

from django.db import migrations
from django.db.models import Value
from django.db.models.functions import Replace


def slugs(apps, schema_editor):
    RollRecord = apps.get_model("rules", "RollRecord")
    RollRecord.objects.filter(system__contains="_").update(
        system=Replace("system", Value("_"), Value("-"))
    )


class Migration(migrations.Migration):
    dependencies = [("rules", "0005_table_write_idempotency_key")]

    operations = [migrations.RunPython(slugs, migrations.RunPython.noop)]

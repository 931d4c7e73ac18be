"""RollRecord moves from `campaigns` to `rules` (rules/migrations/0001): the encounter log
points at `rules.RollRecord`. State only: the table, its rows and the foreign key's
constraint stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0010_statistics_per_campaign_only"),
        ("rules", "0001_roll_record_from_campaigns"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="encounterevent",
                    name="roll",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="rules.rollrecord",
                    ),
                ),
                migrations.DeleteModel(name="RollRecord"),
            ],
        ),
    ]

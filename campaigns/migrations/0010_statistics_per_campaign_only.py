"""Statistics are stored per (player, campaign) only: overall figures are summed from them
when a leaderboard is read (campaigns.stats.leaderboard), so the overall rows go."""

import django.db.models.deletion
from django.db import migrations, models


def drop_overall_rows(apps, schema_editor):
    apps.get_model("campaigns", "CharacterStatistics").objects.filter(
        campaign__isnull=True
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0009_statistics_derived_without_constraints"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="characterstatistics", name="stats_overall_once"),
        migrations.RemoveConstraint(model_name="characterstatistics", name="stats_campaign_once"),
        migrations.RunPython(drop_overall_rows, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="characterstatistics",
            name="campaign",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="campaigns.campaign",
            ),
        ),
        migrations.AddConstraint(
            model_name="characterstatistics",
            constraint=models.UniqueConstraint(
                fields=("campaign", "player"), name="stats_campaign_once"
            ),
        ),
    ]

"""ChapterUnitResult.unit becomes a real foreign key to characters.KolapsUnit (step 1 of 3).

The plain integer column `unit_id` is renamed `legacy_unit` (kept until 0006 has copied
it into the new foreign key), and the VU at the close gets its column.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0004_chapters_votes_outcomes"),
        ("characters", "0003_merge_0002_kolaps_0002_otd_profile"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="chapterunitresult", name="unit_result_unique"),
        migrations.RenameField(
            model_name="chapterunitresult", old_name="unit_id", new_name="legacy_unit"
        ),
        migrations.AlterField(
            model_name="chapterunitresult",
            name="legacy_unit",
            field=models.PositiveBigIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="chapterunitresult",
            name="unit",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="chapter_results",
                to="characters.kolapsunit",
            ),
        ),
        migrations.AddField(
            model_name="chapterunitresult",
            name="vu",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="unit value (VU)"),
        ),
    ]

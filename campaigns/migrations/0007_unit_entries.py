"""Step 3 of 3: drop the old number, one result per unit and chapter; units entered into
chapters (`ChapterUnitEntry`)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0006_unit_result_data"),
        ("characters", "0003_merge_0002_kolaps_0002_otd_profile"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveField(model_name="chapterunitresult", name="legacy_unit"),
        migrations.AddConstraint(
            model_name="chapterunitresult",
            constraint=models.UniqueConstraint(
                fields=("chapter", "unit"), name="unit_result_unique"
            ),
        ),
        migrations.CreateModel(
            name="ChapterUnitEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("side", models.CharField(blank=True, max_length=80, verbose_name="side")),
                ("entered_at", models.DateTimeField(auto_now_add=True)),
                (
                    "chapter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="unit_entries",
                        to="campaigns.chapter",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "unit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chapter_entries",
                        to="characters.kolapsunit",
                    ),
                ),
            ],
            options={
                "verbose_name": "unit entered",
                "verbose_name_plural": "units entered",
                "ordering": ["chapter", "entered_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(fields=("chapter", "unit"), name="unit_entry_unique"),
                    models.UniqueConstraint(
                        fields=("chapter", "player"), name="one_unit_per_player"
                    ),
                ],
            },
        ),
    ]

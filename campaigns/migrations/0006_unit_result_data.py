"""Step 2 of 3: copy the old unit numbers into the foreign key, losses into {id, name}.

A number that names an existing KOLAPS unit becomes the link; one that does not (rows
typed by hand before the units existed) leaves the link empty: the row keeps its
`unit_name`, result and losses. Losses were names; they become `{"id": None, "name": ...}`
(no character can be matched by a name alone). Alone in its migration so PostgreSQL's
deferred foreign-key checks are done before 0007 alters the table.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    result_model = apps.get_model("campaigns", "ChapterUnitResult")
    unit_model = apps.get_model("characters", "KolapsUnit")
    rows = list(result_model.objects.all())
    existing = set(
        unit_model.objects.filter(pk__in={row.legacy_unit for row in rows}).values_list(
            "pk", flat=True
        )
    )
    for row in rows:
        row.unit_id = row.legacy_unit if row.legacy_unit in existing else None
        row.losses = [
            loss if isinstance(loss, dict) else {"id": None, "name": str(loss)}
            for loss in row.losses or []
        ]
        row.save(update_fields=["unit", "losses"])


def backwards(apps, schema_editor):
    result_model = apps.get_model("campaigns", "ChapterUnitResult")
    for row in result_model.objects.all():
        row.legacy_unit = row.unit_id or 0
        row.losses = [loss["name"] if isinstance(loss, dict) else loss for loss in row.losses]
        row.save(update_fields=["legacy_unit", "losses"])


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0005_unit_result_fk")]

    operations = [migrations.RunPython(forwards, backwards)]

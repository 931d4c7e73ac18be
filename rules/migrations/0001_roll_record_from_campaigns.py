"""RollRecord moves from `campaigns` to `rules` (server rolls are how an encounter resolves).

State only: the table `campaigns_rollrecord` and its rows stay where they are.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("campaigns", "0010_statistics_per_campaign_only"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
        migrations.CreateModel(
            name='RollRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(auto_now_add=True)),
                ('system', models.CharField(max_length=40)),
                ('resolver', models.CharField(max_length=40)),
                ('inputs', models.JSONField()),
                ('seed', models.BigIntegerField()),
                ('dice', models.JSONField()),
                ('outcome', models.JSONField()),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rolls', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'campaigns_rollrecord',
                'ordering': ['-at', '-pk'],
                'indexes': [models.Index(fields=['player', '-at'], name='campaigns_r_player__03458a_idx')],
            },
        ),
        ],
        ),
    ]

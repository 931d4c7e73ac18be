"""Migrations 0005-0007 wire ChapterUnitResult.unit to KOLAPS units, keeping the data:
a number naming an existing unit becomes the link, losses typed as names keep their names."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("campaigns", "0004_chapters_votes_outcomes"),
    ("characters", "0003_merge_0002_kolaps_0002_otd_profile"),
]
AFTER = [("campaigns", "0007_unit_entries")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_it_links_the_old_unit_numbers_and_keeps_names_and_losses():
    latest = list(MigrationExecutor(connection).loader.graph.leaf_nodes())
    try:
        old = _migrate(BEFORE)
        player = old.get_model("characters", "Player").objects.create(
            username="alice", email="alice@example.test"
        )
        unit = old.get_model("characters", "KolapsUnit").objects.create(
            owner=player, name="Nord", catalogue_version="1"
        )
        campaign = old.get_model("campaigns", "Campaign").objects.create(
            name="K", system="kolaps", organiser=player
        )
        chapter = old.get_model("campaigns", "Chapter").objects.create(
            campaign=campaign, number=1, title="La gare", status="closed"
        )
        results = old.get_model("campaigns", "ChapterUnitResult").objects
        results.create(chapter=chapter, unit_id=unit.pk, unit_name="Nord", result="victory",
                       losses=["Caporal Vidal"])  # fmt: skip
        results.create(chapter=chapter, unit_id=unit.pk + 999, unit_name="Shéol",
                       result="defeat", losses=[])  # fmt: skip
        new = _migrate(AFTER)
        rows = new.get_model("campaigns", "ChapterUnitResult").objects.order_by("pk")
        assert [(r.unit_id, r.unit_name, r.result, r.losses) for r in rows] == [
            (unit.pk, "Nord", "victory", [{"id": None, "name": "Caporal Vidal"}]),
            (None, "Shéol", "defeat", []),
        ]
    finally:
        _migrate(latest)

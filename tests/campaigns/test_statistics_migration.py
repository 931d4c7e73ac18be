"""Migration 0010 keeps statistics per (player, campaign) only: the stored overall rows go
(overall figures are summed when read) and a campaign becomes required."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("campaigns", "0009_statistics_derived_without_constraints")]
AFTER = [("campaigns", "0010_statistics_per_campaign_only")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_it_drops_the_overall_rows_and_keeps_the_campaign_rows():
    latest = list(MigrationExecutor(connection).loader.graph.leaf_nodes())
    try:
        old = _migrate(BEFORE)
        player = old.get_model("characters", "Player").objects.create(
            username="alice", email="alice@example.test"
        )
        campaign = old.get_model("campaigns", "Campaign").objects.create(
            name="Lyon", system="of-the-dead", organiser=player
        )
        stats = old.get_model("campaigns", "CharacterStatistics").objects
        stats.create(player=player, campaign=campaign, chapters_played=2, reputation=7)
        stats.create(player=player, campaign=None, chapters_played=2, reputation=7)
        new = _migrate(AFTER)
        rows = new.get_model("campaigns", "CharacterStatistics").objects
        assert list(rows.values_list("player_id", "campaign_id", "chapters_played")) == [
            (player.pk, campaign.pk, 2)
        ]
        with pytest.raises(IntegrityError), transaction.atomic():
            rows.create(player_id=player.pk, campaign_id=campaign.pk)  # once per campaign
    finally:
        _migrate(latest)

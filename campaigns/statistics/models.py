"""Statistics per player and campaign (overall figures are their sums), rebuilt from the
settlement ledger by `campaigns.statistics.services`, never edited."""

from django.conf import settings
from django.db import models

from campaigns.statistics.columns import COUNTED, RECORDED


class SummedColumns(models.Model):
    """The figures a ledger row records for one chapter and a statistics row sums over a
    campaign, for `campaigns.settlement.models.SettlementEntry` and `CharacterStatistics`
    alike: one field per database column of `columns.RECORDED`."""

    class Meta:
        abstract = True


class CountedColumns(models.Model):
    """The statistics that count ledger rows (chapters played, won...): one field per
    column of `columns.COUNTED`."""

    class Meta:
        abstract = True


def _add_fields(model, columns) -> None:
    for column in columns:
        for name, field in column.model_fields():
            model.add_to_class(name, field)


_add_fields(SummedColumns, RECORDED)
_add_fields(CountedColumns, COUNTED)


class CharacterStatistics(CountedColumns, SummedColumns):
    """A player's statistics in one campaign (overall: the sum of them). Derived: rebuilt
    from the ledger by campaigns.statistics.services.statistics_recompute, never edited."""

    # No index of their own: the unique index below serves every lookup, and
    # fewer indexes make the set-based rebuild cheaper. No foreign-key constraint in the
    # database either (db_constraint=False): these rows are derived from the ledger, whose
    # own foreign keys are checked, and a constraint would cost two checks per rebuilt row
    # at commit. Django still cascades deletions of a player or a campaign to them.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    reputation = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "player"], name="stats_campaign_once"),
        ]
        # No ranking index: a campaign's rows are found by stats_campaign_once and sorted
        # (a few hundred at most); the overall ranking sums and sorts its rows once per
        # page. Every rebuilt row would otherwise pay for one more index entry.

    def __str__(self) -> str:
        return f"statistics of {self.player_id} in campaign {self.campaign_id}"

"""Statistics per player and campaign (overall figures are their sums), rebuilt from the
settlement ledger by `campaigns.statistics.services`, never edited."""

from django.conf import settings
from django.db import models

# The statistics' kill columns, one per zombie type of the rule text (settlement ledger and
# statistics alike).
ZOMBIE_KILL_FIELDS = (
    "kills_zonard",
    "kills_braillard",
    "kills_vicelard",
    "kills_soudard",
    "kills_mastard",
    "kills_charognard",
)


class SummedColumns(models.Model):
    """The figures a ledger row records for one chapter and a statistics row sums over a
    campaign: declared once, for `campaigns.settlement.models.SettlementEntry` and
    `CharacterStatistics` alike, and read by `campaigns.statistics.services`."""

    survival_points = models.IntegerField(default=0)
    kills_total = models.PositiveIntegerField(default=0)
    traumas_gained = models.PositiveIntegerField(default=0)
    traumas_healed = models.PositiveIntegerField(default=0)
    traumas_permanent = models.PositiveIntegerField(default=0)
    # Null when the chapter's encounters were not played in Chronique.
    damage_dealt = models.PositiveIntegerField(null=True, blank=True)
    damage_taken = models.PositiveIntegerField(null=True, blank=True)
    rolls = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        abstract = True


for _kills in ZOMBIE_KILL_FIELDS:
    SummedColumns.add_to_class(_kills, models.PositiveIntegerField(default=0))


class CharacterStatistics(SummedColumns):
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
    chapters_played = models.PositiveIntegerField(default=0)
    chapters_survived = models.PositiveIntegerField(default=0)
    chapters_won = models.PositiveIntegerField(default=0)
    deaths = models.PositiveIntegerField(default=0)
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

"""Rapid 40000 army lists, their squads and their append-only history.

Squads hold choices (profiles as Quality, Combat, a weapon slug and special-rule slugs; a
vehicle slug), with the catalogue version the army records; never copies of costs. What a
list is worth is computed by `rules.engine.systems.rapid40k.costing`; `points` and `status`
on the army and `points` on a squad are kept so lists and pages show them without pricing
again, and `characters.rapid40k.services` recomputes them from scratch on every write.

`version` is the optimistic-concurrency counter: every write sends the version it was
shown, and a stale one is refused with the current state.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from characters.rosters.models import Roster, RosterChange, owner_field


class Rapid40kArmy(Roster):
    owner = owner_field("rapid40k_armies")
    # The annex army whose profiles the builder offers first ("" for none).
    faction = models.CharField(_("army"), max_length=40, blank=True)
    points_limit = models.PositiveIntegerField(_("points limit"), null=True, blank=True)
    points = models.PositiveIntegerField(_("points"), default=0)

    class Meta(Roster.Meta):
        verbose_name = _("Rapid 40000 army")
        verbose_name_plural = _("Rapid 40000 armies")


class Rapid40kSquad(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py
    army = models.ForeignKey(Rapid40kArmy, on_delete=models.CASCADE, related_name="squads")
    position = models.PositiveIntegerField(default=0)
    name = models.CharField(_("name"), max_length=80)
    slot = models.CharField(_("role"), max_length=20)
    vehicle = models.CharField(_("vehicle"), max_length=40, blank=True)
    # {"quality", "combat", "weapon", "special_rules"} or null (a vehicle, or no leader yet).
    leader = models.JSONField(null=True, blank=True)
    # [{"quality", "combat", "weapon", "special_rules", "count"}]: fighters by profile.
    fighters = models.JSONField(default=list, blank=True)
    points = models.PositiveIntegerField(_("points"), default=0)

    class Meta:
        ordering = ["position", "pk"]
        indexes = [models.Index(fields=["army", "position"])]

    def __str__(self) -> str:
        return self.name


class Rapid40kChange(RosterChange):
    """A line of the army's history."""

    army = models.ForeignKey(Rapid40kArmy, on_delete=models.CASCADE, related_name="changes")

    class Meta(RosterChange.Meta):
        indexes = [models.Index(fields=["army", "-at"])]

"""KOLAPS characters, units and their append-only history.

Models hold choices (catalogue slugs and levels, with the catalogue version they were made
under), never copies of catalogue numbers: what a character is worth is computed by
`rules.engine.systems.kolaps.costing`. The unit's stored `vu` and `status` are the one exception,
kept so lists can show them without costing every unit; `characters.kolaps.services`
recomputes them from scratch on every write, and nothing else writes them.

`version` on a character and on a unit is the optimistic-concurrency counter: every write
sends the version it was shown, and a stale one is refused with the current state.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from characters.rosters.models import Roster, RosterChange, Versioned, owner_field

GAUGE_MIN = 1
GAUGE_MAX = 6


class KolapsUnit(Roster):
    owner = owner_field("kolaps_units")
    vu = models.PositiveIntegerField(_("unit value (VU)"), default=0)

    class Meta(Roster.Meta):
        verbose_name = _("KOLAPS unit")
        verbose_name_plural = _("KOLAPS units")


class KolapsCharacter(Versioned):
    owner = owner_field("kolaps_characters")
    unit = models.ForeignKey(
        KolapsUnit,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("unit"),
    )
    position = models.PositiveIntegerField(default=0)
    is_avatar = models.BooleanField(_("Avatar"), default=False)
    affiliation = models.CharField(_("affiliation"), max_length=40)
    archetype = models.CharField(_("archetype"), max_length=60)
    rank = models.CharField(_("rank"), max_length=20)
    # {talent slug: level}: base talents (from 0), specialisations and options (from 1).
    talents = models.JSONField(default=dict)
    # One item slug per equipment choice group of the archetype, in order.
    equipment = models.JSONField(default=list)
    sante = models.PositiveSmallIntegerField(_("Santé"), default=GAUGE_MAX)
    souffle = models.PositiveSmallIntegerField(_("Souffle"), default=GAUGE_MAX)
    moral = models.PositiveSmallIntegerField(_("Moral"), default=GAUGE_MAX)
    # Died in a chapter (RULES-NOTES CL1: "the dead leave their unit for good"): set by
    # `unit_remove_lost`, cleared when the chapter's settlement is reopened.
    dead = models.BooleanField(_("dead"), default=False)

    class Meta(Versioned.Meta):
        verbose_name = _("KOLAPS character")
        verbose_name_plural = _("KOLAPS characters")
        ordering = ["position", "pk"]
        constraints = [
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{gauge}__gte": GAUGE_MIN, f"{gauge}__lte": GAUGE_MAX}),
                    name=f"kolaps_character_{gauge}_1_6",
                )
                for gauge in ("sante", "souffle", "moral")
            ),
            models.CheckConstraint(
                condition=Q(is_avatar=False) | Q(unit__isnull=False),
                name="kolaps_character_avatar_in_a_unit",
            ),
            models.UniqueConstraint(
                fields=["unit"],
                condition=Q(is_avatar=True),
                name="kolaps_unit_one_avatar",
            ),
        ]
        indexes = [models.Index(fields=["unit", "position"])]


class KolapsChange(RosterChange):
    """A line of a unit's or a character's history (`target`); a character's change made
    while it is in a unit also names the unit, so the unit's history and undo see it."""

    class Target(models.TextChoices):
        CHARACTER = "character"
        UNIT = "unit"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    unit = models.ForeignKey(
        KolapsUnit, on_delete=models.CASCADE, null=True, related_name="changes"
    )
    character = models.ForeignKey(
        KolapsCharacter, on_delete=models.CASCADE, null=True, related_name="changes"
    )
    target = models.CharField(max_length=10, choices=Target.choices)

    class Meta(RosterChange.Meta):
        indexes = [
            models.Index(fields=["unit", "-at"]),
            models.Index(fields=["character", "-at"]),
        ]

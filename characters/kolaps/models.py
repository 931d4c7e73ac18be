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

GAUGE_MIN = 1
GAUGE_MAX = 6


class KolapsUnitQuerySet(models.QuerySet):
    def owned_by(self, user) -> "KolapsUnitQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class KolapsUnit(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        VALID = "valid", _("Valid")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="kolaps_units",
        verbose_name=_("owner"),
    )
    name = models.CharField(_("name"), max_length=80)
    vu = models.PositiveIntegerField(_("unit value (VU)"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    catalogue_version = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = KolapsUnitQuerySet.as_manager()

    class Meta:
        verbose_name = _("KOLAPS unit")
        verbose_name_plural = _("KOLAPS units")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_valid(self) -> bool:
        return self.status == self.Status.VALID


class KolapsCharacterQuerySet(models.QuerySet):
    def owned_by(self, user) -> "KolapsCharacterQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class KolapsCharacter(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="kolaps_characters",
        verbose_name=_("owner"),
    )
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
    name = models.CharField(_("name"), max_length=80)
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
    catalogue_version = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = KolapsCharacterQuerySet.as_manager()

    class Meta:
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

    def __str__(self) -> str:
        return self.name


class KolapsChange(models.Model):
    """One line of history: who changed what, when, and the state before and after.

    Rows are only ever added. An undo is a new row pointing at the row it undoes
    (`undoes`), restoring that row's `before`.
    """

    class Target(models.TextChoices):
        CHARACTER = "character"
        UNIT = "unit"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    unit = models.ForeignKey(
        KolapsUnit, on_delete=models.CASCADE, null=True, related_name="changes"
    )
    character = models.ForeignKey(
        KolapsCharacter, on_delete=models.CASCADE, null=True, related_name="changes"
    )
    target = models.CharField(max_length=10, choices=Target.choices)
    verb = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    undoes = models.OneToOneField(
        "self", on_delete=models.CASCADE, null=True, related_name="undone_by"
    )

    class Meta:
        ordering = ["at", "pk"]
        indexes = [
            models.Index(fields=["unit", "-at"]),
            models.Index(fields=["character", "-at"]),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.verb}"

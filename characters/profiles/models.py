"""Of the Dead: the player's own character (the profile), kept across campaigns, its
traumas and its append-only history.

Writes go through `characters.profiles.services`; these models only hold data and one-row
invariants.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# RULES-NOTES O1: "Attributes Physique, Psychique, Réflexes, Combat: 9 points at creation, at
# least 1 each. Life markers = 2 x Physique; Moral = 2 x Psychique." The numbers that follow
# from the attributes (effective attributes, life markers, Moral) are recomputed from scratch
# by `rules.engine.systems.of_the_dead.effects.sheet_numbers` on every write, never adjusted
# by deltas.


class Vocation(models.TextChoices):
    """The ten vocations of the rule text, in its order (a tie rule relies on the order)."""

    BAROUDEUR = "baroudeur", "Baroudeur"
    BRICOLEUR = "bricoleur", "Bricoleur"
    ECLAIREUR = "eclaireur", "Éclaireur"
    GUERISSEUR = "guerisseur", "Guérisseur"
    GUETTEUR = "guetteur", "Guetteur"
    INSTIGATEUR = "instigateur", "Instigateur"
    MARAUDEUR = "maraudeur", "Maraudeur"
    MENEUR = "meneur", "Meneur"
    PROTECTEUR = "protecteur", "Protecteur"
    VADROUILLEUR = "vadrouilleur", "Vadrouilleur"


class ProfileStatus(models.TextChoices):
    ALIVE = "alive", _("alive")
    DEAD = "dead", _("dead")
    ZOMBIE = "zombie", _("zombie")
    REINCARNATED = "reincarnated", _("reincarnated")


class ProfileQuerySet(models.QuerySet):
    def public(self) -> "ProfileQuerySet":
        return self.filter(is_public=True)


class Profile(models.Model):
    """One Of the Dead character per player: the sheet *is* the account (rule text, intro).

    `physique`, `psychique`, `reflexes`, `combat` are the attributes as created or as
    edited by their owner; traumas with an effect change the *effective* attributes, from
    which `life_markers` and `moral` are derived. `survival_points` is written by the
    post-chapter settlement only, recomputed from the settled chapters.
    """

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="otd_profile",
        verbose_name=_("player"),
    )
    physique = models.PositiveSmallIntegerField(_("Physique"))
    psychique = models.PositiveSmallIntegerField(_("Psychique"))
    reflexes = models.PositiveSmallIntegerField(_("Réflexes"))
    combat = models.PositiveSmallIntegerField(_("Combat"))
    # Derived, recomputed on every write (see rules.engine.systems.of_the_dead.effects).
    life_markers = models.PositiveSmallIntegerField(_("life markers"))
    moral = models.PositiveSmallIntegerField(_("Moral"))
    portrait_url = models.URLField(_("portrait"), blank=True)
    description = models.TextField(_("description"), blank=True)
    # Lists of short names, matched case-insensitively against chapter requirements.
    equipment = models.JSONField(_("equipment carried"), default=list, blank=True)
    cards = models.JSONField(_("cards carried"), default=list, blank=True)
    survival_points = models.PositiveIntegerField(_("survival points"), default=0)
    status = models.CharField(
        _("status"), max_length=16, choices=ProfileStatus.choices, default=ProfileStatus.ALIVE
    )
    # What the public profile page shows; the name, status and campaigns played are
    # shown whenever the profile is public.
    is_public = models.BooleanField(_("public profile"), default=False)
    show_attributes = models.BooleanField(_("show attributes"), default=True)
    show_description = models.BooleanField(_("show portrait and description"), default=True)
    show_traumas = models.BooleanField(_("show traumas"), default=False)
    show_equipment = models.BooleanField(_("show equipment and cards"), default=False)
    show_statistics = models.BooleanField(_("show statistics and reputation"), default=True)
    show_campaigns = models.BooleanField(_("show campaigns played"), default=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = ProfileQuerySet.as_manager()

    class Meta:
        verbose_name = _("Of the Dead profile")
        verbose_name_plural = _("Of the Dead profiles")

    def __str__(self) -> str:
        return str(self.player)

    @property
    def base_attributes(self) -> dict[str, int]:
        return {
            "physique": self.physique,
            "psychique": self.psychique,
            "reflexes": self.reflexes,
            "combat": self.combat,
        }


class TraumaKind(models.TextChoices):
    PHYSICAL = "physical", _("physical")
    PSYCHIC = "psychic", _("psychic")


class TraumaPermanence(models.TextChoices):
    TEMPORARY = "temporary", _("temporary")
    PERMANENT = "permanent", _("permanent")


class Trauma(models.Model):
    """A wound of body or mind. `effect` maps attribute names to a change, e.g.
    {"physique": -1}, or is null. An active trauma counts in the sheet's numbers; a
    healed one (`active` false, `healed_at` set) stays as history."""

    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="traumas")
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=16, choices=TraumaKind.choices)
    permanence = models.CharField(
        _("permanence"),
        max_length=16,
        choices=TraumaPermanence.choices,
        default=TraumaPermanence.TEMPORARY,
    )
    chapter = models.ForeignKey(
        "campaigns.Chapter",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="traumas",
        verbose_name=_("chapter"),
    )
    effect = models.JSONField(_("effect on attributes"), null=True, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    active = models.BooleanField(_("active"), default=True)
    healed_at = models.DateTimeField(_("healed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("trauma")
        verbose_name_plural = _("traumas")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name


class ProfileEvent(models.Model):
    """One line of a profile's history: who changed what, when. Never updated or deleted."""

    profile = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["profile", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.verb}"

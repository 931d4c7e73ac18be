"""What every system's roster and sheet share: abstract bases, so each keeps its own table.

A KOLAPS unit, a Rapid 40000 army and a Corporates or modern RPG sheet are each a thing a
player owns, names, builds against one catalogue version and changes through a service that
compares the `version` the client was shown (optimistic concurrency). Their history rows are
alike too: who, when, what (`verb`), the state before and after. What differs (the figures,
the numbers kept for lists, what a history row points at) stays in each system's models.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def owner_field(related_name: str) -> models.ForeignKey:
    """The owner of a roster or sheet; each system names its reverse (`user.kolaps_units`)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name=related_name,
        verbose_name=_("owner"),
    )


class OwnedQuerySet(models.QuerySet):
    def owned_by(self, user) -> "OwnedQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class Versioned(models.Model):
    """A player's named thing, built under a catalogue version, written only by a service
    that moves `version` on every write. Its name is one line (characters/one_line.py)."""

    ONE_LINE_FIELDS = ("name",)
    name = models.CharField(_("name"), max_length=80)
    catalogue_version = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Roster(Versioned):
    """A list of figures: a draft until the rules find no problem in it, shareable by a link
    anyone can read. Its stored total and `status` are recomputed by its service on every
    write, never edited by hand."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        VALID = "valid", _("Valid")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)

    class Meta(Versioned.Meta):
        abstract = True

    @property
    def is_valid(self) -> bool:
        return self.status == self.Status.VALID


class History(models.Model):
    """One line of history, only ever added: who changed it, when, how (`verb`), and its
    state before and after, so an undo puts `before` back (recompute, never delta)."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)

    class Meta:
        abstract = True


class RosterChange(History):
    """A roster's history line, oldest first. An undo is a new row pointing at the row it
    undoes (`undoes`), restoring that row's `before`."""

    data = models.JSONField(default=dict, blank=True)
    undoes = models.OneToOneField(
        "self", on_delete=models.CASCADE, null=True, related_name="undone_by"
    )

    class Meta:
        abstract = True
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.verb}"


class SheetEvent(History):
    """A character sheet's history line, newest first."""

    # Where a carried change came from (a chapter's settlement names itself here).
    source = models.CharField(max_length=80, blank=True)
    # What a reader calls that source (a chapter's title), written beside it.
    source_label = models.CharField(max_length=200, blank=True)

    class Meta:
        abstract = True
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.verb} {self.character_id}"  # type: ignore[attr-defined]

    @property
    def source_chapter_id(self) -> int | None:
        """The chapter a settlement's line names in its source ("chapter:12"), if any."""
        kind, _, pk = self.source.partition(":")
        return int(pk) if kind == "chapter" and pk.isdigit() else None

"""The player account.

Writes go through `characters.accounts.services`; these models only hold data and one-row
invariants.
"""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(AbstractUser):
    """A person using Chronique: player, organiser or both."""

    ONE_LINE_FIELDS = ("display_name",)  # characters/one_line.py

    email = models.EmailField(_("e-mail address"), unique=True)
    display_name = models.CharField(
        _("display name"),
        max_length=80,
        blank=True,
        help_text=_("Shown to the other players; your username when empty."),
    )
    welcomed_at = models.DateTimeField(_("welcome e-mail sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

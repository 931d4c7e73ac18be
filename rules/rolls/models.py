"""Server rolls: the record of every roll the server made, replayable from its seed.

Written only by `rules.rolls.services.roll_on_server`; never changed.
"""

from django.conf import settings
from django.db import models


class RollQuerySet(models.QuerySet):
    def for_user(self, user) -> "RollQuerySet":
        """A player sees their own server rolls."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(player=user)


class RollRecord(models.Model):
    """A roll made by the server: who, when, which resolver, the inputs, the seed, the dice.

    Replaying `seed` through the same resolver and inputs gives the same dice and outcome.
    Records are never changed.
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rolls"
    )
    at = models.DateTimeField(auto_now_add=True)
    system = models.CharField(max_length=40)
    resolver = models.CharField(max_length=40)
    inputs = models.JSONField()
    seed = models.BigIntegerField()
    dice = models.JSONField()
    outcome = models.JSONField()

    objects = RollQuerySet.as_manager()

    class Meta:
        # The table the model had when it lived in `campaigns`: moving it kept every row.
        db_table = "campaigns_rollrecord"
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["player", "-at"])]

    def __str__(self) -> str:
        return f"{self.system}/{self.resolver} {self.dice}"

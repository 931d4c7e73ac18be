"""The project's own bookkeeping: what the demo created, under keys users never see."""

from django.contrib.contenttypes.models import ContentType
from django.db import models


class DemoObject(models.Model):
    """One object `demo_load` made, found again by `key` whatever users did to it since
    (renamed, moved, another of the same name made): the demo never looks its rows up by a
    name users can change. The row stays when users delete the object, so the demo does not
    make it again."""

    key = models.CharField(max_length=80, unique=True)
    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    object_id = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key

"""How the demo finds what it made: a stable key per object (`config.models.DemoObject`),
never a name users can edit.

`once(key, model, make)` answers the object made under `key` (and makes it, through
`make`, the first time). A demo loaded before the keys existed is adopted once by `adopt`,
the lookup that found it then. An object users deleted stays deleted: `once` answers None
and the area that needed it is skipped.
"""

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.contenttypes.models import ContentType
from django.db import models

from config.models import DemoObject

M = TypeVar("M", bound=models.Model)


def made(key: str) -> bool:
    return DemoObject.objects.filter(key=key).exists()


def remember(key: str, obj: models.Model) -> None:
    DemoObject.objects.update_or_create(
        key=key,
        defaults={
            "content_type": ContentType.objects.get_for_model(obj),
            "object_id": obj.pk,
        },
    )


def recall(key: str, model: type[M]) -> M | None:
    row = DemoObject.objects.filter(key=key).first()
    return None if row is None else model._default_manager.filter(pk=row.object_id).first()


def once(
    key: str,
    model: type[M],
    make: Callable[[], M],
    *,
    adopt: dict[str, Any] | None = None,
) -> M | None:
    """The demo's object under `key`, made the first time; None once users deleted it."""
    if made(key):
        return recall(key, model)
    found = model._default_manager.filter(**adopt).order_by("pk").first() if adopt else None
    obj = found if found is not None else make()
    remember(key, obj)
    return obj

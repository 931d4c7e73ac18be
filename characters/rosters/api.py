"""What the API of every system's character sheets shares: a creation and a change read
from their serializer and handed to the sheet's service, and the history as lines."""

from collections.abc import Callable
from typing import TypeVar

Written = TypeVar("Written")


def sheet_create_from(request, serializer, create: Callable[..., Written]) -> Written:
    """A new sheet of the requester's, from `serializer`'s checked data (400 otherwise)."""
    data = serializer(data=request.data)
    data.is_valid(raise_exception=True)
    return create(owner=request.user, **data.validated_data)


def sheet_change_from(request, serializer, update: Callable[..., Written], character) -> Written:
    """A change of `character` from `serializer`'s checked data, at the version sent."""
    data = serializer(data=request.data)
    data.is_valid(raise_exception=True)
    changes = dict(data.validated_data)
    version = changes.pop("version")
    return update(actor=request.user, character=character, version=version, **changes)


def history_lines(events, extra: Callable[[object], dict] = lambda event: {}) -> list[dict]:
    """The sheet's history, newest first: who (None: a chapter's settlement), when, what,
    where a carried change came from (and what a reader calls it: the chapter's title), the
    sheet before and after; `extra` adds a system's
    own fields of a line."""
    return [
        {
            "id": event.pk,
            "at": event.at,
            "actor": event.actor.username if event.actor else None,
            "verb": event.verb,
            "source": event.source,
            "source_label": event.source_label,
            "before": event.before,
            "after": event.after,
            **extra(event),
        }
        for event in events.select_related("actor")
    ]

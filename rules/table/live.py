"""The live encounter's fan-out: after a service commits, every device watching the
encounter is told its new version (Django Channels' group of the encounter); each then asks
the server-rendered state (`rules.table.consumers`). Read-only: nothing here writes.

Across several server processes the channel layer is Redis (`CHANNEL_REDIS_URL` or
`REDIS_URL`); without it, the in-process layer of `make run`'s single server.
"""

import asyncio
import hashlib
import logging
import threading
from concurrent.futures import Future

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

logger = logging.getLogger(__name__)
_fanout_loop: asyncio.AbstractEventLoop | None = None
_fanout_lock = threading.Lock()


def group_of(encounter_id: int) -> str:
    return f"encounter-{encounter_id}"


def spectators_of(encounter_id: int) -> str:
    """The screens watching the encounter through its spectator link (in its group too)."""
    return f"encounter-{encounter_id}-spectators"


def session_group(session_key: str) -> str:
    """The players' devices opened with one login session (its key hashed: the key itself
    opens the session)."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:48]


@receiver(user_logged_out, dispatch_uid="table-session-ended")
def session_ended(sender, request, user, **kwargs) -> None:
    """On logout (Django's `user_logged_out`): close the table's sockets of that session."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        _send(0, session_group(session_key), {"type": "session.ended"})


def _fanout() -> asyncio.AbstractEventLoop:
    """The process's fan-out loop, in a thread of its own: a write hands its message over
    and answers at once, instead of waiting for the server's event loop (busy with every
    device's socket) to send it."""
    global _fanout_loop
    with _fanout_lock:
        if _fanout_loop is None or _fanout_loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="table-fanout", daemon=True).start()
            _fanout_loop = loop
        return _fanout_loop


def _sent(future: Future, encounter_id: int) -> None:
    if future.exception() is not None:
        logger.warning("the live update of encounter %s did not go out", encounter_id)


def encounter_changed(encounter_id: int, version: int) -> None:
    """Tell the encounter's watchers it changed; a layer that is down costs the live view,
    never the change (the pages catch up when they reconnect)."""
    _send(encounter_id, group_of(encounter_id), {"type": "encounter.changed", "version": version})


def spectators_revoked(encounter_id: int) -> None:
    """Tell the screens watching through a spectator link that a link was revoked: each
    checks its own again and closes if it is the one (a new link's screens stay)."""
    _send(encounter_id, spectators_of(encounter_id), {"type": "spectator.revoked"})


def _send(encounter_id: int, group: str, message: dict) -> None:
    """Across processes (Redis) the message leaves from the fan-out thread, in the order of
    the writes; the in-process layer of `make run` keeps its queues on the server's loop, so
    it is sent from there."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:
            logger.warning("the live update of encounter %s did not go out", encounter_id)
        return
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _fanout())
    future.add_done_callback(lambda done: _sent(done, encounter_id))

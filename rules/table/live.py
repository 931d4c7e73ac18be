"""The live encounter's fan-out: after a service commits, every device watching the
encounter is told its new version (Django Channels' group of the encounter); each then asks
the server-rendered state (`rules.table.consumers`). Read-only: nothing here writes.

Across several server processes the channel layer is Redis (`CHANNEL_REDIS_URL` or
`REDIS_URL`); without it, the in-process layer of `make run`'s single server.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_of(encounter_id: int) -> str:
    return f"encounter-{encounter_id}"


def encounter_changed(encounter_id: int, version: int) -> None:
    """Tell the encounter's watchers it changed; a layer that is down costs the live view,
    never the change (the pages catch up when they reconnect)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_of(encounter_id), {"type": "encounter.changed", "version": version}
        )
    except Exception:
        logger.warning("the live update of encounter %s did not go out", encounter_id)

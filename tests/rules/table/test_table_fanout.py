"""The live table's fan-out across server processes: Redis publish/subscribe, the message
handed to the process's fan-out thread (a write answers without waiting for it), heard in the
order of the writes by a device of another process."""

import asyncio

import pytest
from channels.layers import channel_layers
from django.conf import settings
from django.test import override_settings

from rules.table import live


def _redis_url() -> str:
    broker = settings.CELERY_BROKER_URL or ""
    if not broker.startswith("redis://"):
        pytest.skip("no Redis to publish through")
    return broker


def test_the_changes_reach_a_watcher_of_another_loop_in_order():
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [_redis_url()]},
        }
    }
    with override_settings(CHANNEL_LAYERS=layers):
        channel_layers.backends.clear()
        try:

            async def watch() -> list[int]:
                # The watcher's own layer: another process's, as far as Redis knows.
                layer = channel_layers.make_backend("default")
                channel = await layer.new_channel()
                await layer.group_add(live.group_of(4242), channel)
                await asyncio.sleep(0.2)  # subscribed before anything is published
                await asyncio.to_thread(lambda: [live.encounter_changed(4242, v) for v in (7, 8)])
                heard = [
                    (await asyncio.wait_for(layer.receive(channel), 5))["version"] for _ in range(2)
                ]
                await layer.group_discard(live.group_of(4242), channel)
                await layer.flush()
                return heard

            heard = asyncio.run(watch())
        finally:
            channel_layers.backends.clear()
    assert heard == [7, 8]

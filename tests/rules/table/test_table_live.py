"""The live encounter's WebSocket (Channels' testing communicator): a device watching an
encounter hears each committed change, catches up when it reconnects, and a stranger is
turned away."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client, override_settings

from config.asgi import application
from rules.table.models import Combatant
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_revoke_spectator_link,
    encounter_rotate_spectator_link,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db(transaction=True)
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _headers(player=None):
    headers = [(b"origin", b"http://localhost")]
    if player is not None:
        client = Client()
        client.force_login(player)
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()))
    return headers


def _wound(organiser, encounter, target):
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=None,
        action=ActionInput(kind="wound", target=target, wound="benign"),
    )


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_a_watching_device_hears_each_change_and_catches_up():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    target = Combatant.objects.filter(encounter=encounter).last().pk
    signed_in = _headers(opponent)

    async def scenario():
        phone = WebsocketCommunicator(application, f"/ws/table/{encounter.pk}/", headers=signed_in)
        connected, code = await phone.connect()
        assert connected, code
        await sync_to_async(_wound)(organiser, encounter, target)
        assert await phone.receive_json_from(timeout=2) == {"version": 2}
        await phone.disconnect()
        # Away while a change commits; back, it asks what it missed.
        await sync_to_async(_wound)(organiser, encounter, target)
        again = WebsocketCommunicator(application, f"/ws/table/{encounter.pk}/", headers=signed_in)
        assert (await again.connect())[0]
        await again.send_json_to({"since": 2})
        assert await again.receive_json_from(timeout=2) == {"version": 3}
        await again.disconnect()

    async_to_sync(scenario)()


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_the_spectator_link_watches_and_a_stranger_is_turned_away():
    organiser = PlayerFactory(username="orga")
    stranger = PlayerFactory(username="stranger")
    encounter = pick_up_encounter(organiser)
    target = Combatant.objects.filter(encounter=encounter).first().pk
    strangers = (_headers(stranger), _headers())

    async def scenario():
        screen = WebsocketCommunicator(
            application, f"/ws/table/watch/{encounter.spectator_token}/", headers=_headers()
        )
        assert (await screen.connect())[0]
        await sync_to_async(_wound)(organiser, encounter, target)
        assert await screen.receive_json_from(timeout=2) == {"version": 2}
        await screen.disconnect()
        for headers in strangers:
            intruder = WebsocketCommunicator(
                application, f"/ws/table/{encounter.pk}/", headers=headers
            )
            connected, _code = await intruder.connect()
            assert not connected
        wrong = WebsocketCommunicator(application, "/ws/table/watch/nope/", headers=_headers())
        assert not (await wrong.connect())[0]

    async_to_sync(scenario)()


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_it_closes_a_screen_on_a_revoked_spectator_link_at_once():
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    first = encounter.spectator_token

    async def watch(token):
        screen = WebsocketCommunicator(application, f"/ws/table/watch/{token}/", headers=_headers())
        assert (await screen.connect())[0]
        return screen

    async def scenario():
        old_screen = await watch(first)
        await sync_to_async(encounter_rotate_spectator_link)(actor=organiser, encounter=encounter)
        assert await old_screen.receive_json_from(timeout=2) == {"version": 2}
        assert await old_screen.receive_output(timeout=2) == {
            "type": "websocket.close",
            "code": 4404,
        }
        await encounter.arefresh_from_db()
        second = encounter.spectator_token
        new_screen = await watch(second)
        assert not (
            await WebsocketCommunicator(
                application, f"/ws/table/watch/{first}/", headers=_headers()
            ).connect()
        )[0]
        await sync_to_async(encounter_revoke_spectator_link)(actor=organiser, encounter=encounter)
        assert await new_screen.receive_json_from(timeout=2) == {"version": 3}
        assert (await new_screen.receive_output(timeout=2))["code"] == 4404
        assert not (
            await WebsocketCommunicator(
                application, f"/ws/table/watch/{second}/", headers=_headers()
            ).connect()
        )[0]

    async_to_sync(scenario)()

"""The live table's socket: closed when the login session ends, refused cleanly on an
address that names no encounter; the table turns away a player who left the campaign."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client, override_settings

from config.asgi import application
from rules.table.models import Combatant
from rules.table.services import ActionInput, encounter_act
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db(transaction=True)
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _signed_in(player) -> tuple[Client, list]:
    client = Client()
    client.force_login(player)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookie = f"{settings.SESSION_COOKIE_NAME}={key}".encode()
    return client, [(b"origin", b"http://localhost"), (b"cookie", cookie)]


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_a_logout_closes_the_sockets_of_that_session_only():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    target = Combatant.objects.filter(encounter=encounter).last().pk
    phone_client, phone_headers = _signed_in(opponent)
    _tablet_client, tablet_headers = _signed_in(opponent)

    def wound():
        encounter_act(
            actor=organiser,
            encounter=encounter,
            version=None,
            action=ActionInput(kind="wound", target=target, wound="benign"),
        )

    async def scenario():
        path = f"/ws/table/{encounter.pk}/"
        phone = WebsocketCommunicator(application, path, headers=phone_headers)
        tablet = WebsocketCommunicator(application, path, headers=tablet_headers)
        assert (await phone.connect())[0] and (await tablet.connect())[0]
        await sync_to_async(phone_client.post)("/accounts/logout/")
        assert await phone.receive_output(timeout=2) == {"type": "websocket.close", "code": 4401}
        await sync_to_async(wound)()
        assert await tablet.receive_json_from(timeout=2) == {"version": 2}
        await tablet.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize(
    "path",
    ["/ws/table/-1/", "/ws/table/watch//", "/ws/x/", "/ws/table/99999999999999999999999/"],
)
@override_settings(CHANNEL_LAYERS=IN_MEMORY)
def test_an_address_naming_no_encounter_is_refused_at_the_handshake(path):
    _client, headers = _signed_in(PlayerFactory())

    async def scenario():
        socket = WebsocketCommunicator(application, path, headers=headers)
        connected, code = await socket.connect()
        assert not connected
        assert code == 4404

    async_to_sync(scenario)()

"""The live encounter's WebSocket: read-only fan-out of what the services committed.

A device joins its encounter's group (a player or organiser through their session, a screen
through the spectator link) and is sent `{"version": N}` whenever a change commits
(`rules.table.live.encounter_changed`); it then fetches the server-rendered state. A device
that reconnects sends `{"since": N}` and is told the current version, so it catches up on
what it missed. A screen on a spectator link the organiser revoked (or replaced) is closed
with 4404, as a link that never was; a player's device is closed with 4401 when the login
session it was opened with ends (`rules.table.live.session_ended`, on logout). An address
under /ws/ that names no encounter is refused at the handshake (`NoSuchSocket`), never a
server error. Nothing is written here: writes go through `rules.table.services`.
"""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import PermissionDenied
from django.http import Http404

from characters.bounds import ID_MAX
from characters.permissions import Refusal
from rules.table.live import group_of, session_group, spectators_of
from rules.table.models import Encounter
from rules.table.selectors import encounter_get_by_token, encounter_get_for_user


@database_sync_to_async
def _authorised(user, pk: int | None, token: str | None) -> int | None:
    try:
        if token is not None:
            return encounter_get_by_token(token).pk
        return encounter_get_for_user(user, pk).pk
    except (Http404, Refusal, PermissionDenied):
        return None


@database_sync_to_async
def _version(pk: int) -> int:
    return Encounter.objects.filter(pk=pk).values_list("version", flat=True).first() or 0


class EncounterConsumer(AsyncJsonWebsocketConsumer):
    encounter_id: int | None = None
    token: str | None = None
    session: str | None = None

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        user = self.scope.get("user")
        pk = kwargs.get("pk")
        token = kwargs.get("token")
        if token is None and (user is None or not user.is_authenticated):
            await self.close(code=4401)
            return
        if pk is not None and pk > ID_MAX:
            await self.close(code=4404)
            return
        self.encounter_id = await _authorised(user, pk, token)
        if self.encounter_id is None:
            await self.close(code=4404)
            return
        self.token = token
        if token is None:
            session = self.scope.get("session")
            self.session = getattr(session, "session_key", None)
        for group in self._groups():
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    def _groups(self) -> list[str]:
        if self.encounter_id is None:
            return []
        if self.token is None:
            mine = [session_group(self.session)] if self.session else []
            return [group_of(self.encounter_id), *mine]
        return [group_of(self.encounter_id), spectators_of(self.encounter_id)]

    async def disconnect(self, code):
        for group in self._groups():
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        """`{"since": N}`: the current version, so a device that was away catches up."""
        if isinstance(content, dict) and "since" in content and self.encounter_id is not None:
            await self.send_json({"version": await _version(self.encounter_id)})

    async def encounter_changed(self, event):
        await self.send_json({"version": event["version"]})

    async def spectator_revoked(self, event):
        """A spectator link was revoked or replaced: this screen's, if it no longer opens."""
        if self.token is not None and await _authorised(None, None, self.token) is None:
            await self.close(code=4404)

    async def session_ended(self, event):
        """The login session this device was opened with ended (a logout)."""
        await self.close(code=4401)


class NoSuchSocket(AsyncJsonWebsocketConsumer):
    """Any other address under /ws/ (`/ws/table/-1/`, `/ws/table/watch//`): refused at the
    handshake, as an encounter that does not exist."""

    async def connect(self):
        await self.close(code=4404)

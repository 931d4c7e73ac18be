"""API twins of the table's pages: the encounter log, and the live encounter (its state,
the spectator's, the odds, each write). The same cards, services and permission checks."""

import copy
import re
from dataclasses import asdict, fields, is_dataclass
from datetime import UTC, datetime
from functools import cache

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.chapters.services import MAX_DAMAGE, encounter_event_record
from campaigns.selectors import chapter_get_for_user
from characters.bounds import VERSION_MAX, VERSION_MIN
from characters.kolaps.models import KolapsUnit
from characters.models import Player
from characters.rapid40k.models import Rapid40kArmy
from characters.serializers import CardSerializer, id_field, version_field
from rules.rolls.models import RollRecord
from rules.table.cards import (
    EncounterCard,
    EncounterRow,
    TableCard,
    encounter_card,
    table_card,
    written_line,
)
from rules.table.idempotency import HEADER, REPLAYED, kept_body, write_key, write_once
from rules.table.kolaps.combatants import DIRECTIVE_LABELS
from rules.table.models import Encounter
from rules.table.selectors import encounter_get_by_token, encounter_get_for_user
from rules.table.services import (
    QUICK_SYSTEMS,
    ActionInput,
    NewCombatants,
    Stale,
    encounter_act_by_id,
    encounter_add_combatants,
    encounter_advance,
    encounter_choose_stray,
    encounter_create_armies,
    encounter_create_for_chapter,
    encounter_create_quick,
    encounter_create_quick_party,
    encounter_create_standalone,
    encounter_end,
    encounter_odds,
    encounter_reveal,
    encounter_revoke_spectator_link,
    encounter_rotate_spectator_link,
    encounter_set_directive,
    encounter_undo,
    encounter_undo_by_id,
)
from rules.table.systems import adapter_for, all_kinds


class EncounterRowSerializer(CardSerializer):
    class Meta:
        dataclass = EncounterRow
        # The log gives its times in UTC ("...Z"), as it always has.
        extra_kwargs = {"at": {"default_timezone": UTC}}


class EncounterLogSerializer(CardSerializer):
    chapter_id = serializers.IntegerField(source="chapter.pk")
    status = serializers.CharField(source="chapter.status")
    can_record = serializers.BooleanField()

    class Meta:
        dataclass = EncounterCard
        fields = ("chapter_id", "status", "can_record", "rows")


class EncounterRollSerializer(serializers.Serializer):
    """Ids; a refusal of the service names the same fields."""

    player = id_field(required=False, help_text="Who rolled; yourself if absent.")
    target = id_field(required=False, allow_null=True)
    damage = serializers.IntegerField(min_value=0, max_value=MAX_DAMAGE, default=0)
    roll = id_field(
        required=False, allow_null=True, help_text="One of the rolling player's server rolls."
    )


def _log(card: EncounterCard) -> dict:
    return EncounterLogSerializer(card).data


def _found(model, pk, field: str, sentence: str):
    if pk is None:
        return None
    found = model.objects.filter(pk=pk).first()
    if found is None:
        raise serializers.ValidationError({field: [sentence]})
    return found


class ChapterEncounterAPI(APIView):
    """A chapter's encounter log (organisers and participants); POST records a roll while
    the chapter is being played (an organiser for any player, a player for themself)."""

    @extend_schema(responses=EncounterLogSerializer)
    def get(self, request, pk: int):
        return Response(_log(encounter_card(request.user, chapter_get_for_user(request.user, pk))))

    @extend_schema(request=EncounterRollSerializer, responses={201: EncounterRowSerializer})
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk)
        serializer = EncounterRollSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        unknown_player = _("Choose a player of this campaign.")
        event = encounter_event_record(
            actor=request.user,
            chapter=chapter,
            player=_found(Player, data.get("player"), "player", unknown_player) or request.user,
            target=_found(Player, data.get("target"), "target", unknown_player),
            damage=data["damage"],
            roll=_found(
                RollRecord,
                data.get("roll"),
                "roll",
                _("Choose one of the rolling player's own server rolls."),
            ),
        )
        row = next(row for row in encounter_card(request.user, chapter).rows if row.id == event.pk)
        return Response(asdict(row), status=status.HTTP_201_CREATED)


# --- The live encounter -----------------------------------------------------------------------


class TableCardSerializer(CardSerializer):
    class Meta:
        dataclass = TableCard


class _SharedFields:
    # A serializer whose fields are shallow copies of its declared ones. DRF deep-copies a
    # serializer's declared fields for every instance, that is every request (0.16 ms of an
    # action's 2.4 ms of CPU; 0.06 ms shallow), so that a view may change them; the table's
    # writes never do, and their fields hold no state while validating (each copy is bound
    # to its own serializer; the choices, validators and child fields they share are only
    # read). A comment, not a docstring: the schema describes a serializer by its docstring,
    # which a subclass without one inherits.

    def get_fields(self):
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}


class TableActionSerializer(_SharedFields, serializers.Serializer):
    """An action: who acts (none for a wound an organiser applies), the target, what it
    does; `dice` absent: the server rolls and records it; present: the faces rolled by hand,
    by the resolver's field names ("dice", "a_dice", "b_dice", "power_dice", "death_die")."""

    # Never null: `null` read as "no version" let a write skip the stale check (409).
    version = version_field(required=False, help_text="The encounter's version you saw.")
    kind = serializers.ChoiceField(choices=all_kinds())
    actor = id_field(required=False, allow_null=True)
    target = id_field()
    weapon = serializers.CharField(required=False, allow_blank=True, default="")
    distance_cm = serializers.FloatField(
        min_value=0,
        max_value=1000,
        required=False,
        allow_null=True,
        default=None,
        help_text="KOLAPS shot: 20 if absent; Of the Dead move: the declared move's allowance.",
    )
    cover = serializers.IntegerField(min_value=0, max_value=4, default=0)
    wound = serializers.CharField(required=False, allow_blank=True, default="")
    dice = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=12)),
        required=False,
        allow_null=True,
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text=(
            "What a system's action needs besides (its adapter reads them). KOLAPS: "
            '"allies_near", the ids of the target\'s allies within 25 cm (none if absent); '
            '"armed_fist" (true: a melee with a pistol, K18 Poing armé); "melee_figures", the '
            'figures in the melee a shot goes into; "stray_ally", the id of the shooter\'s ally '
            "a stray shot on the shooter's side hits (needed when it has one). Of the Dead: "
            '"move", "range", "otd_cover", "item", "size", "surrounded_by"; "out_of_turn" '
            "(true, organisers only: the figure acts now whatever the initiative order, O5). Rapid "
            '40000: "squad_weapon" (a weapon slug its figures carry), "aimed", "charged", '
            '"power_attack", "chef_nearby" (booleans), "vehicle_attack" ("missile" or '
            '"explosive_charge").'
        ),
    )

    def action(self) -> ActionInput:
        data = self.validated_data
        return ActionInput(
            kind=data["kind"],
            actor=data.get("actor"),
            target=data["target"],
            weapon=data["weapon"],
            distance_cm=data["distance_cm"],
            cover=data["cover"],
            wound=data["wound"],
            dice=data.get("dice"),
            options=dict(data.get("options") or {}),
        )


class TableVersionSerializer(_SharedFields, serializers.Serializer):
    """A write on the encounter as you saw it: `version`, the encounter's version your
    device shows (a change made since is refused with 409 and the new state; absent, the
    write applies to the encounter as it is)."""

    version = version_field(
        required=False, default=None, help_text="The encounter's version you saw."
    )


class TableCombatantSerializer(TableVersionSerializer):
    """A write on one combatant of the encounter: `combatant`, its id (yours, or any for an
    organiser), and the `version` you saw."""

    combatant = id_field()


class TableDirectiveSerializer(TableCombatantSerializer):
    """The order directive given to a combatant in the speech phase (KOLAPS): `directive`,
    one of the orders; hidden from the other side until it is revealed."""

    directive = serializers.ChoiceField(choices=list(DIRECTIVE_LABELS))


class TableStraySerializer(TableVersionSerializer):
    """KOLAPS, Tir dans une mêlée 2-3 and 6: the figure a stray shot hits on the target's
    side (`ally`, the id of one of the target's living allies; null: nobody, when the face
    asks for an ally in the melee and none is there). `dice`: its death roll typed in by hand
    (`{"death_die": [4]}`); absent, the server rolls it."""

    ally = id_field(allow_null=True)
    dice = serializers.DictField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=6), min_length=1, max_length=1
        ),
        required=False,
        allow_null=True,
        default=None,
    )

    def validate_dice(self, value):
        if value is not None and set(value) - {"death_die"}:
            raise serializers.ValidationError(_("Only the death roll is typed: death_die."))
        return value


class TableStandaloneSerializer(serializers.Serializer):
    """KOLAPS: two units, `units` (ids of your own) and `shared_units` (the share tokens of
    units shared with you by link: another player's unit is never taken by its number).
    Rapid 40000: two army lists, `armies` and `shared_armies`, the same way. Corporates or
    the modern RPG: `system`, two `sides` and each side's `fighters` (names); Corporates
    also `sheets`, the ids of your character sheets drawn for each side."""

    system = serializers.ChoiceField(
        choices=["kolaps", "rapid40k", *QUICK_SYSTEMS], required=False, default="kolaps"
    )
    units = serializers.ListField(child=id_field(), min_length=0, max_length=2, required=False)
    shared_units = serializers.ListField(
        child=serializers.CharField(max_length=64), max_length=2, required=False, default=list
    )
    armies = serializers.ListField(child=id_field(), min_length=0, max_length=2, required=False)
    shared_armies = serializers.ListField(
        child=serializers.CharField(max_length=64), max_length=2, required=False, default=list
    )
    sides = serializers.ListField(
        child=serializers.CharField(max_length=80), min_length=2, max_length=2, required=False
    )
    fighters = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=80), max_length=12),
        min_length=2,
        max_length=2,
        required=False,
    )
    sheets = serializers.ListField(
        child=serializers.ListField(child=id_field(), max_length=12),
        min_length=2,
        max_length=2,
        required=False,
        help_text="Corporates: ids of your character sheets each side's fighters are drawn from",
    )
    title = serializers.CharField(required=False, allow_blank=True, default="", max_length=160)

    # The systems whose sides are two rosters, and the fields naming them.
    ROSTERS = {"kolaps": ("units", "shared_units"), "rapid40k": ("armies", "shared_armies")}

    def validate(self, attrs):
        rosters = self.ROSTERS.get(attrs["system"])
        if rosters is not None:
            own, shared = rosters
            if len(attrs.get(own, [])) + len(attrs[shared]) != 2:
                sentence = _("Choose two units.") if own == "units" else _("Choose two army lists.")
                raise serializers.ValidationError({own: sentence})
        else:
            for name in ("sides", "fighters"):
                if name not in attrs:
                    raise serializers.ValidationError({name: _("This field is required.")})
        return attrs


class TableOpenSerializer(serializers.Serializer):
    title = serializers.CharField(required=False, allow_blank=True, default="", max_length=160)


APPLIED = "X-Encounter-Version"


_AT = serializers.DateTimeField()


@cache
def _field_names(card_class: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(card_class))


def _plain(value):
    """A card as `TableCardSerializer` answers it (its declared schema), built directly: the
    live table answers every write and every device's fetch with it, and DRF's field-by-field
    serialisers cost more than the rest of an action (the bench's throughput target).
    `test_the_card_built_directly_is_the_serializers_answer` keeps them equal."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, datetime):
        return _AT.to_representation(value)
    if is_dataclass(value):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    return str(value)


def table_card_data(card: TableCard) -> dict:
    return _plain(card)


def _state(request, encounter, spectator: bool = False, log_since: int | None = None, **written):
    card = table_card(request.user, encounter, spectator=spectator, log_since=log_since, **written)
    return table_card_data(card)


def _write(request, encounter, service, **kwargs) -> Response:
    """Run a write once per idempotency key (rules.table.idempotency): the same key again
    is answered with the first answer, its version in the same header, and acts no more."""
    key = write_key(request)
    if key is None:
        return _write_now(request, encounter, service, **kwargs)
    if isinstance(encounter, Encounter):
        pk = encounter.pk
    else:  # who may not see it hears 404 before anything is locked
        pk = encounter_get_for_user(request.user, encounter).pk

    def applied(response: Response, _before: int) -> tuple[int, object] | None:
        if response.status_code >= 300:
            return None
        return int(response[APPLIED]), response.data

    def replay(write) -> Response:
        response = Response(kept_body(write))
        response[APPLIED] = str(write.version)
        response[REPLAYED] = "true"
        return response

    return write_once(
        user=request.user,
        encounter_pk=pk,
        key=key,
        run=lambda: _write_now(request, encounter, service, **kwargs),
        applied=applied,
        replay=replay,
    )


def _write_now(request, encounter, service, **kwargs) -> Response:
    """Run a write. The answer is the new state with the log's lines since the version the
    device sent (the line this write made when it sent none: GET gives the whole log), and
    the version this write made in the `X-Encounter-Version` header; a stale version answers
    409 with the sentence and the new state."""
    seen = kwargs.get("version")
    try:
        if isinstance(encounter, Encounter):
            made = service(actor=request.user, encounter=encounter, **kwargs)
        else:  # its number: the service fetches and authorises it with its lock
            made = service(actor=request.user, pk=encounter, **kwargs)
    except Stale as stale:
        if isinstance(encounter, Encounter):
            encounter.refresh_from_db()
        else:
            encounter = encounter_get_for_user(request.user, encounter, need="act")
        body = {"detail": str(stale.message), "state": _state(request, encounter, log_since=seen)}
        return Response(body, status=status.HTTP_409_CONFLICT)
    # The state as this write left it (a later write shows in the next answer or message).
    written = getattr(made, "encounter", made)
    if not isinstance(encounter, Encounter):
        encounter = written  # locked, authorised: its viewer's roles and chapter are set
    encounter.version, encounter.turn, encounter.phase = (
        written.version,
        written.turn,
        written.phase,
    )
    encounter.attacker_side, encounter.status = written.attacker_side, written.status
    encounter.spectator_token = written.spectator_token
    since = seen if seen is not None else made.version - 1
    written = {}
    combatants = getattr(made, "written_combatants", None)
    if combatants is not None and since == made.version - 1:
        # The answer is what this write wrote: nothing to read again.
        written = {"combatants": combatants, "lines": [written_line(made, request.user)]}
    response = Response(_state(request, encounter, log_since=since, **written))
    response[APPLIED] = str(made.version)
    return response


_SINCE = OpenApiParameter(
    "since",
    {"type": "integer", "minimum": VERSION_MIN, "maximum": VERSION_MAX},
    description="A version you have: 304 when nothing changed since (another: ignored).",
)


_KEY = OpenApiParameter(
    HEADER,
    {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"},
    location=OpenApiParameter.HEADER,
    description="A key your device made for this write: the same key sent again (a retry, "
    "an offline queue sent once back) gets the first answer and acts once.",
)


class TableAPI(APIView):
    """A live encounter's state: sides, gauges, directives you may see, the log by turn.
    `?since=<version>`: 304 when nothing changed, else the state with the log's lines after
    that version (a reconnecting device catches up)."""

    @extend_schema(parameters=[_SINCE], responses={200: TableCardSerializer, 304: None})
    def get(self, request, pk: int):
        encounter = encounter_get_for_user(request.user, pk)
        raw = request.query_params.get("since", "")
        since = int(raw) if re.fullmatch(r"[0-9]{1,10}", raw) else None
        if since is not None and since > VERSION_MAX:
            since = None
        if since is not None and since == encounter.version:
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return Response(_state(request, encounter, log_since=since))


class TableWatchAPI(APIView):
    """The spectator link's state: read-only, revealed directives only."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(responses=TableCardSerializer)
    def get(self, request, token: str):
        return Response(_state(request, encounter_get_by_token(token), spectator=True))


class TableOddsAPI(APIView):
    """The exact odds of an action before its dice (the resolver's `odds` answer)."""

    @extend_schema(request=TableActionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        encounter = encounter_get_for_user(request.user, pk, need="act")
        serializer = TableActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(encounter_odds(encounter=encounter, action=serializer.action()))


class TableActAPI(APIView):
    """Make an action: the organiser for anyone, a player for their own combatants."""

    @extend_schema(
        request=TableActionSerializer, responses={200: TableCardSerializer}, parameters=[_KEY]
    )
    def post(self, request, pk: int):
        serializer = TableActionSerializer(data=request.data)
        if not serializer.is_valid():
            # Who may not see the encounter or act on it hears so first (404, 403).
            encounter_get_for_user(request.user, pk, need="act")
            raise serializers.ValidationError(serializer.errors)
        # The encounter fetched, authorised and locked in one statement by the service.
        return _write(
            request,
            pk,
            encounter_act_by_id,
            version=serializer.validated_data.get("version"),
            action=serializer.action(),
        )


def _simple_api(service, serializer_class, doc: str, need: str = "act", by_id=None):
    """A write's API class. `by_id`: the service's twin that fetches and authorises the
    encounter with its lock (`encounter_undo_by_id`), a query and its building saved."""

    class WriteAPI(APIView):
        @extend_schema(
            request=serializer_class, responses={200: TableCardSerializer}, parameters=[_KEY]
        )
        def post(self, request, pk: int):
            if by_id is not None:
                serializer = serializer_class(data=request.data)
                if not serializer.is_valid():
                    # Who may not see the encounter or act on it hears so first (404, 403).
                    encounter_get_for_user(request.user, pk, need=need)
                    raise serializers.ValidationError(serializer.errors)
                return _write(request, pk, by_id, **serializer.validated_data)
            encounter = encounter_get_for_user(request.user, pk, need=need)
            serializer = serializer_class(data=request.data)
            serializer.is_valid(raise_exception=True)
            return _write(request, encounter, service, **serializer.validated_data)

    WriteAPI.__doc__ = doc
    WriteAPI.__name__ = WriteAPI.__qualname__ = service.__name__.title().replace("_", "") + "API"
    return WriteAPI


TableStrayAPI = _simple_api(
    encounter_choose_stray,
    TableStraySerializer,
    "KOLAPS: choose the figure a stray shot hits on the target's side (its player or an "
    "organiser); its death roll by the server, or typed in `dice`.",
)
TableUndoAPI = _simple_api(
    encounter_undo,
    TableVersionSerializer,
    "Undo the last action (its author or an organiser).",
    by_id=encounter_undo_by_id,
)
TableDirectiveAPI = _simple_api(
    encounter_set_directive, TableDirectiveSerializer, "Give a combatant its order directive."
)
TableRevealAPI = _simple_api(
    encounter_reveal, TableCombatantSerializer, "Reveal a combatant's directive."
)
TableAdvanceAPI = _simple_api(
    encounter_advance,
    TableVersionSerializer,
    "Move on: speech to action; action to the end phase (K14, K15) and the next turn.",
    need="manage",
)
TableEndAPI = _simple_api(
    encounter_end, TableVersionSerializer, "End the encounter (organisers).", need="manage"
)


def _link_api(service, name: str, doc: str):
    class LinkAPI(APIView):
        @extend_schema(request=None, responses={200: TableCardSerializer}, parameters=[_KEY])
        def post(self, request, pk: int):
            encounter = encounter_get_for_user(request.user, pk, need="manage")
            return _write(request, encounter, service)

    LinkAPI.__doc__ = doc
    LinkAPI.__name__ = LinkAPI.__qualname__ = name
    return LinkAPI


TableLinkRevokeAPI = _link_api(
    encounter_revoke_spectator_link,
    "TableLinkRevokeAPI",
    "Revoke the spectator link (organisers): it answers 404 at once, live or ended, until a "
    "new one is made. An ended encounter keeps its link until it is revoked.",
)
TableLinkRotateAPI = _link_api(
    encounter_rotate_spectator_link,
    "TableLinkRotateAPI",
    "A new spectator link (organisers), in `spectator_token`: the old one answers 404 at once.",
)


class TableNewAPI(APIView):
    """A pick-up game: two KOLAPS units or two Rapid 40000 army lists (yours or shared with
    you), or two sides of named Corporates or modern RPG fighters."""

    @extend_schema(request=TableStandaloneSerializer, responses={201: TableCardSerializer})
    def post(self, request):
        if not request.user.is_authenticated:
            raise NotAuthenticated
        serializer = TableStandaloneSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data["system"] in QUICK_SYSTEMS:
            encounter = encounter_create_quick(
                actor=request.user,
                system=data["system"],
                sides=data["sides"],
                fighters=data["fighters"],
                sheets=data.get("sheets"),
                title=data["title"],
            )
            encounter = encounter_get_for_user(request.user, encounter.pk)
            return Response(_state(request, encounter), status=status.HTTP_201_CREATED)
        if adapter_for(data["system"]).PICKUP_ARMIES:
            armies = _rosters(Rapid40kArmy, request.user, data["armies"], data["shared_armies"])
            encounter = encounter_create_armies(
                actor=request.user, armies=armies, title=data["title"]
            )
        else:
            units = _rosters(KolapsUnit, request.user, data.get("units", []), data["shared_units"])
            encounter = encounter_create_standalone(
                actor=request.user, units=units, title=data["title"]
            )
        encounter = encounter_get_for_user(request.user, encounter.pk)
        return Response(_state(request, encounter), status=status.HTTP_201_CREATED)


def _rosters(model, user, ids: list[int], tokens: list[str]) -> list:
    """Rosters by the numbers of the user's own and the share tokens of others' (another
    player's roster is never taken by its number, which is easy to guess); None for one not
    found, which the service refuses."""
    own = {r.pk: r for r in model.objects.filter(pk__in=ids, owner=user)}
    found = model.objects.filter(share_token__in=[t for t in tokens if t])
    shared = {r.share_token: r for r in found}
    return [*(own.get(pk) for pk in ids), *(shared.get(t) for t in tokens)]


class ChapterTableAPI(APIView):
    """An organiser opens the live encounter of the chapter being played (KOLAPS, Rapid
    40000: the units or armies entered; the other systems the table plays: its adapter's)."""

    @extend_schema(request=TableOpenSerializer, responses={201: TableCardSerializer})
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage")
        serializer = TableOpenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        encounter = encounter_create_for_chapter(
            actor=request.user, chapter=chapter, title=serializer.validated_data["title"]
        )
        encounter = encounter_get_for_user(request.user, encounter.pk)
        return Response(_state(request, encounter), status=status.HTTP_201_CREATED)


class TableAddSerializer(TableVersionSerializer):
    """Zombies of a type (`count` of them), or one non-player character, with their
    attributes; a refusal of the service names the same fields."""

    kind = serializers.ChoiceField(choices=["zombie", "npc"])
    zombie_type = serializers.CharField(required=False, allow_blank=True, default="")
    count = serializers.IntegerField(min_value=1, max_value=20, default=1)
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=70)
    side = serializers.CharField(required=False, allow_blank=True, default="", max_length=20)
    reflexes = serializers.IntegerField(min_value=0, max_value=12)
    combat = serializers.IntegerField(min_value=0, max_value=12)
    physique = serializers.IntegerField(min_value=0, max_value=12, default=1)
    life = serializers.IntegerField(min_value=1, max_value=40)
    moral = serializers.IntegerField(min_value=0, max_value=40, default=0)


class TableAddAPI(APIView):
    """The organiser adds zombies of a type, or a non-player character (Of the Dead)."""

    @extend_schema(
        request=TableAddSerializer, responses={200: TableCardSerializer}, parameters=[_KEY]
    )
    def post(self, request, pk: int):
        encounter = encounter_get_for_user(request.user, pk, need="manage")
        serializer = TableAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        version = data.pop("version", None)
        return _write(
            request,
            encounter,
            encounter_add_combatants,
            version=version,
            spec=NewCombatants(**data),
        )


class TableQuickPartyAPI(APIView):
    """A pick-up Of the Dead game: your living character; add the zombies afterwards."""

    @extend_schema(request=TableOpenSerializer, responses={201: TableCardSerializer})
    def post(self, request):
        if not request.user.is_authenticated:
            raise NotAuthenticated
        serializer = TableOpenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        encounter = encounter_create_quick_party(
            actor=request.user, title=serializer.validated_data["title"]
        )
        encounter = encounter_get_for_user(request.user, encounter.pk)
        return Response(_state(request, encounter), status=status.HTTP_201_CREATED)

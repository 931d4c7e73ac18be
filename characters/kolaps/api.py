"""API twins of the KOLAPS pages: the same cards, services and permission helper.

Every write sends the `version` it was shown; a stale one answers 409 with the current
state under `current`, so a second device never overwrites the first silently.
"""

from dataclasses import replace

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.kolaps import cards, reads, services, undo
from characters.kolaps import unit_file as kolaps_io
from characters.kolaps.cards import (
    ChangeLine,
    CharacterCard,
    ComparisonCard,
    UnitCard,
    UnitSummary,
)
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.serializers import CardSerializer, card_serializer, id_field, version_field

# --- Serializers (output) --------------------------------------------------------------------


class GaugesSerializer(CardSerializer):
    class Meta:
        dataclass = CharacterCard
        fields = ("sante", "souffle", "moral")
        extra_kwargs = {gauge: {"min_value": 1, "max_value": 6} for gauge in fields}


class CharacterSerializer(CardSerializer):
    # The API names the stored choices where the sheet has its own lines.
    unit = serializers.IntegerField(source="unit_id", allow_null=True)
    talents = serializers.DictField(child=serializers.IntegerField(), source="talent_levels")
    equipment = serializers.ListField(child=serializers.CharField(), source="equipment_slugs")
    gauges = GaugesSerializer(source="*")

    class Meta:
        dataclass = CharacterCard
        fields = (
            "id",
            "name",
            "version",
            "unit",
            "affiliation",
            "archetype",
            "rank",
            "is_avatar",
            "talents",
            "equipment",
            "gauges",
            "pp_budget",
            "pp_spent",
            "pp_left",
            "value",
            "problems",
            "catalogue_version",
        )
        extra_kwargs = {"value": {"help_text": "rank PU + PU bought (RULES-NOTES K2)"}}


ComparisonSerializer = card_serializer(ComparisonCard, name="Comparison")


class UnitSerializer(CardSerializer):
    status = serializers.ChoiceField(choices=["draft", "valid"])
    # The API's own form of a character, not the sheet's.
    characters = CharacterSerializer(many=True)

    class Meta:
        dataclass = UnitCard
        fields = (
            "id",
            "name",
            "version",
            "vu",
            "status",
            "share_token",
            "characters",
            "problems",
            "catalogue_version",
            "comparison",
        )


UnitSummarySerializer = card_serializer(UnitSummary)
ChangeSerializer = card_serializer(ChangeLine, name="Change")


# --- Serializers (input) ---------------------------------------------------------------------


class CharacterCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    archetype = serializers.CharField(max_length=60)
    rank = serializers.CharField(max_length=20)
    unit = id_field(required=False, allow_null=True)


class CharacterChangeSerializer(serializers.Serializer):
    op = serializers.ChoiceField(choices=services.CHARACTER_OPS)
    version = version_field()
    talent = serializers.CharField(required=False, max_length=60)
    group = serializers.IntegerField(required=False, min_value=1, max_value=20)
    item = serializers.CharField(required=False, max_length=60)
    sante = serializers.IntegerField(required=False, min_value=1, max_value=6)
    souffle = serializers.IntegerField(required=False, min_value=1, max_value=6)
    moral = serializers.IntegerField(required=False, min_value=1, max_value=6)
    name = serializers.CharField(required=False, max_length=80)
    rank = serializers.CharField(required=False, max_length=20)


class UnitCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)


class UnitChangeSerializer(serializers.Serializer):
    op = serializers.ChoiceField(choices=services.UNIT_OPS)
    version = version_field()
    character = id_field(required=False)
    name = serializers.CharField(required=False, max_length=80)


class UndoSerializer(serializers.Serializer):
    version = version_field()


StaleResponse = inline_serializer(
    "KolapsStale", {"detail": serializers.CharField(), "current": serializers.DictField()}
)


# --- Helpers ---------------------------------------------------------------------------------


def character_data(character: KolapsCharacter) -> dict:
    return CharacterSerializer(cards.character_card_for(character)).data


def unit_data(unit: KolapsUnit, *, opponent_vu=None, with_token=True) -> dict:
    card = cards.unit_card(unit, opponent_vu=opponent_vu)
    if not with_token:
        card = replace(card, share_token=None)
    return UnitSerializer(card).data


def _stale(stale: services.StaleVersion, render) -> Response:
    return Response(
        {"detail": str(stale.message), "current": render(stale.current)},
        status=status.HTTP_409_CONFLICT,
    )


def _opponent_vu(request) -> int | None:
    raw = request.query_params.get("opponent_vu")
    if raw is None:
        return None
    field = serializers.IntegerField(min_value=0, max_value=OPPONENT_VU_MAX)
    try:
        return field.run_validation(raw)
    except serializers.ValidationError as error:
        raise serializers.ValidationError({"opponent_vu": error.detail}) from error


OPPONENT_VU_MAX = 100000
OPPONENT_VU = OpenApiParameter(
    "opponent_vu",
    {"type": "integer", "minimum": 0, "maximum": OPPONENT_VU_MAX},
    description="Compare with an opponent's VU: who would change sides (RULES-NOTES K12).",
    required=False,
)


# --- Characters ------------------------------------------------------------------------------


class CharacterListAPI(APIView):
    """Your KOLAPS characters; POST creates one from an archetype (talents at expertise 0)."""

    @extend_schema(responses=CharacterSerializer(many=True))
    def get(self, request):
        rows = KolapsCharacter.objects.owned_by(request.user).order_by("name", "pk")
        return Response([character_data(c) for c in rows])

    @extend_schema(request=CharacterCreateSerializer, responses={201: CharacterSerializer})
    def post(self, request):
        data = CharacterCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        unit = None
        if data.validated_data.get("unit"):
            unit = reads.unit_get_for_user(request.user, data.validated_data["unit"])
        character = services.character_create(
            owner=request.user,
            name=data.validated_data["name"],
            archetype=data.validated_data["archetype"],
            rank=data.validated_data["rank"],
            unit=unit,
        )
        return Response(character_data(character), status=status.HTTP_201_CREATED)


class CharacterDetailAPI(APIView):
    """One of your characters, costed (the builder and its print sheet)."""

    @extend_schema(responses=CharacterSerializer)
    def get(self, request, pk: int):
        return Response(character_data(reads.character_get_for_user(request.user, pk)))


# A character and a unit are changed, copied and undone, and have their history, alike:
# `kind` picks the fetch-and-authorise helper, the service and the answer's shape.
DATA = {"character": character_data, "unit": unit_data}


class _KindAPI(APIView):
    kind = ""

    def _object(self, request, pk: int):
        return reads.GET_FOR_USER[self.kind](request.user, pk)


class _ChangeAPI(_KindAPI):
    request_serializer: type[serializers.Serializer]

    def _fields(self, request, values: dict) -> dict:
        """The operation's fields, as the service takes them."""
        return values

    def post(self, request, pk: int):
        obj = self._object(request, pk)
        data = self.request_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = self._fields(request, dict(data.validated_data))
        op, version = fields.pop("op"), fields.pop("version")
        as_data = DATA[self.kind]
        try:
            changed = services.CHANGE[self.kind](
                actor=request.user, op=op, version=version, **{self.kind: obj}, **fields
            )
        except services.StaleVersion as stale:
            return _stale(stale, as_data)
        return Response(as_data(changed))


class _DuplicateAPI(_KindAPI):
    def post(self, request, pk: int):
        copy = services.DUPLICATE[self.kind](
            actor=request.user, **{self.kind: self._object(request, pk)}
        )
        return Response(DATA[self.kind](copy), status=status.HTTP_201_CREATED)


class _HistoryAPI(_KindAPI):
    def get(self, request, pk: int):
        changes = cards.history_for(**{self.kind: self._object(request, pk)})
        return Response(ChangeSerializer(changes, many=True).data)


class _UndoAPI(_KindAPI):
    def post(self, request, pk: int):
        obj = self._object(request, pk)
        data = UndoSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        as_data = DATA[self.kind]
        try:
            undo.UNDO[self.kind](
                actor=request.user, version=data.validated_data["version"], **{self.kind: obj}
            )
        except services.StaleVersion as stale:
            return _stale(stale, as_data)
        obj.refresh_from_db()
        return Response(as_data(obj))


@extend_schema_view(
    post=extend_schema(
        request=CharacterChangeSerializer,
        responses={200: CharacterSerializer, 409: StaleResponse},
    )
)
class CharacterChangeAPI(_ChangeAPI):
    """One builder operation: raise, lower, talent_choice, equipment, gauges, rename, rank."""

    kind = "character"
    request_serializer = CharacterChangeSerializer


@extend_schema_view(post=extend_schema(request=None, responses={201: CharacterSerializer}))
class CharacterDuplicateAPI(_DuplicateAPI):
    """A copy of one of your characters, in no unit."""

    kind = "character"


@extend_schema_view(get=extend_schema(responses=ChangeSerializer(many=True)))
class CharacterHistoryAPI(_HistoryAPI):
    """Who changed the character, what and when (newest first)."""

    kind = "character"


@extend_schema_view(
    post=extend_schema(
        request=UndoSerializer, responses={200: CharacterSerializer, 409: StaleResponse}
    )
)
class CharacterUndoAPI(_UndoAPI):
    """Undo the character's last change."""

    kind = "character"


# --- Units -----------------------------------------------------------------------------------


class UnitListAPI(APIView):
    """Your KOLAPS units; POST creates an empty one (a draft until it has an Avatar)."""

    @extend_schema(responses=UnitSummarySerializer(many=True))
    def get(self, request):
        units = cards.list_rows(request.user).units()  # its characters are not costed
        return Response(UnitSummarySerializer(units, many=True).data)

    @extend_schema(request=UnitCreateSerializer, responses={201: UnitSerializer})
    def post(self, request):
        data = UnitCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        unit = services.unit_create(owner=request.user, name=data.validated_data["name"])
        return Response(unit_data(unit), status=status.HTTP_201_CREATED)


class UnitDetailAPI(APIView):
    """One of your units: characters, VU, problems; `opponent_vu` adds the K12 comparison."""

    @extend_schema(parameters=[OPPONENT_VU], responses=UnitSerializer)
    def get(self, request, pk: int):
        unit = reads.unit_get_for_user(request.user, pk)
        return Response(unit_data(unit, opponent_vu=_opponent_vu(request)))


@extend_schema_view(
    post=extend_schema(
        request=UnitChangeSerializer, responses={200: UnitSerializer, 409: StaleResponse}
    )
)
class UnitChangeAPI(_ChangeAPI):
    """One unit operation: rename, add, remove, avatar, share, unshare."""

    kind = "unit"
    request_serializer = UnitChangeSerializer

    def _fields(self, request, values: dict) -> dict:
        """`character` is one of yours, by id."""
        character = values.pop("character", None)
        if character:
            character = reads.character_get_for_user(request.user, character)
        return {**values, "character": character or None, "name": values.get("name", "")}


@extend_schema_view(post=extend_schema(request=None, responses={201: UnitSerializer}))
class UnitDuplicateAPI(_DuplicateAPI):
    """A copy of one of your units and of its characters."""

    kind = "unit"


@extend_schema_view(get=extend_schema(responses=ChangeSerializer(many=True)))
class UnitHistoryAPI(_HistoryAPI):
    """Who changed the unit or its characters, what and when (newest first)."""

    kind = "unit"


@extend_schema_view(
    post=extend_schema(request=UndoSerializer, responses={200: UnitSerializer, 409: StaleResponse})
)
class UnitUndoAPI(_UndoAPI):
    """Undo the unit's last change."""

    kind = "unit"


class UnitExportAPI(APIView):
    """The unit as a JSON document (schema chronique.kolaps.unit, docs/kolaps-unit-json.md)."""

    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        unit = reads.unit_get_for_user(request.user, pk)
        return HttpResponse(kolaps_io.unit_export_text(unit), content_type="application/json")


class UnitImportAPI(APIView):
    """Create a unit from an exported document (the request body); a bad document is refused
    with its line and field, and nothing is saved."""

    parser_classes = [JSONParser]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: UnitSerializer})
    def post(self, request):
        unit = kolaps_io.unit_import(owner=request.user, text=request.body)
        return Response(unit_data(unit), status=status.HTTP_201_CREATED)


class SharedUnitAPI(APIView):
    """A unit shared by link: anyone with the token reads it (the token is not repeated)."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[OPPONENT_VU], responses=UnitSerializer)
    def get(self, request, token: str):
        unit = reads.unit_for_token(token)
        return Response(unit_data(unit, opponent_vu=_opponent_vu(request), with_token=False))

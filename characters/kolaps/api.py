"""API twins of the KOLAPS pages: the same cards, services and permission helper.

Every write sends the `version` it was shown; a stale one answers 409 with the current
state under `current`, so a second device never overwrites the first silently.
"""

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

from characters.kolaps import cards, services
from characters.kolaps import unit_file as kolaps_io
from characters.kolaps.cards import ChangeLine, UnitSummary
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.serializers import CardSerializer
from rules.engine.systems.kolaps.costing import Comparison

# --- Serializers (output) --------------------------------------------------------------------


class GaugesSerializer(serializers.Serializer):
    sante = serializers.IntegerField(min_value=1, max_value=6)
    souffle = serializers.IntegerField(min_value=1, max_value=6)
    moral = serializers.IntegerField(min_value=1, max_value=6)


class CharacterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    unit = serializers.IntegerField(allow_null=True)
    affiliation = serializers.CharField()
    archetype = serializers.CharField()
    rank = serializers.CharField()
    is_avatar = serializers.BooleanField()
    talents = serializers.DictField(child=serializers.IntegerField())
    equipment = serializers.ListField(child=serializers.CharField())
    gauges = GaugesSerializer()
    pp_budget = serializers.IntegerField()
    pp_spent = serializers.IntegerField()
    pp_left = serializers.IntegerField()
    value = serializers.IntegerField(help_text="rank PU + PU bought (RULES-NOTES K2)")
    problems = serializers.ListField(child=serializers.CharField())
    catalogue_version = serializers.CharField()


class ComparisonSerializer(CardSerializer):
    class Meta:
        dataclass = Comparison
        fields = ("opponent_vu", "surplus", "defectors", "beyond")


class UnitSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField()
    vu = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["draft", "valid"])
    share_token = serializers.CharField(allow_null=True)
    characters = CharacterSerializer(many=True)
    problems = serializers.ListField(child=serializers.CharField())
    catalogue_version = serializers.CharField()
    comparison = ComparisonSerializer(allow_null=True)


class UnitSummarySerializer(CardSerializer):
    class Meta:
        dataclass = UnitSummary
        fields = "__all__"


class ChangeSerializer(CardSerializer):
    class Meta:
        dataclass = ChangeLine
        fields = "__all__"


# --- Serializers (input) ---------------------------------------------------------------------


class CharacterCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    archetype = serializers.CharField(max_length=60)
    rank = serializers.CharField(max_length=20)
    unit = serializers.IntegerField(required=False, allow_null=True, min_value=1)


class CharacterChangeSerializer(serializers.Serializer):
    op = serializers.ChoiceField(choices=services.CHARACTER_OPS)
    version = serializers.IntegerField(min_value=0)
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
    version = serializers.IntegerField(min_value=0)
    character = serializers.IntegerField(required=False, min_value=1)
    name = serializers.CharField(required=False, max_length=80)


class UndoSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0)


StaleResponse = inline_serializer(
    "KolapsStale", {"detail": serializers.CharField(), "current": serializers.DictField()}
)


# --- Helpers ---------------------------------------------------------------------------------


def character_data(character: KolapsCharacter) -> dict:
    card = cards.character_card_for(character)
    return _character_dict(character, card)


def _character_dict(character: KolapsCharacter, card) -> dict:
    return {
        "id": character.pk,
        "name": character.name,
        "version": character.version,
        "unit": character.unit_id,
        "affiliation": character.affiliation,
        "archetype": character.archetype,
        "rank": character.rank,
        "is_avatar": character.is_avatar,
        "talents": dict(character.talents),
        "equipment": list(character.equipment),
        "gauges": {
            "sante": character.sante,
            "souffle": character.souffle,
            "moral": character.moral,
        },
        "pp_budget": card.pp_budget,
        "pp_spent": card.pp_spent,
        "pp_left": card.pp_left,
        "value": card.value,
        "problems": card.problems,
        "catalogue_version": character.catalogue_version,
    }


def unit_data(unit: KolapsUnit, *, opponent_vu=None, with_token=True) -> dict:
    card = cards.unit_card(unit, opponent_vu=opponent_vu)
    members = {m.pk: m for m in KolapsCharacter.objects.filter(unit=unit)}
    comparison = None
    if card.comparison is not None:
        c = card.comparison
        comparison = {
            "opponent_vu": c.opponent_vu,
            "surplus": c.surplus,
            "defectors": c.defectors,
            "beyond": c.beyond,
        }
    return {
        "id": unit.pk,
        "name": unit.name,
        "version": unit.version,
        "vu": card.vu,
        "status": "valid" if card.valid else "draft",
        "share_token": unit.share_token if with_token else None,
        "characters": [_character_dict(members[c.id], c) for c in card.characters],
        "problems": card.problems,
        "catalogue_version": unit.catalogue_version,
        "comparison": comparison,
    }


def _stale(stale: services.StaleVersion, render) -> Response:
    return Response(
        {"detail": str(stale.message), "current": render(stale.current)},
        status=status.HTTP_409_CONFLICT,
    )


def _opponent_vu(request) -> int | None:
    raw = request.query_params.get("opponent_vu")
    if raw is None:
        return None
    field = serializers.IntegerField(min_value=0, max_value=100000)
    return field.run_validation(raw)


OPPONENT_VU = OpenApiParameter(
    "opponent_vu",
    int,
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
            unit = cards.unit_get_for_user(request.user, data.validated_data["unit"])
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
        return Response(character_data(cards.character_get_for_user(request.user, pk)))


class CharacterChangeAPI(APIView):
    """One builder operation: raise, lower, talent_choice, equipment, gauges, rename, rank."""

    @extend_schema(
        request=CharacterChangeSerializer,
        responses={200: CharacterSerializer, 409: StaleResponse},
    )
    def post(self, request, pk: int):
        character = cards.character_get_for_user(request.user, pk)
        data = CharacterChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        op, version = fields.pop("op"), fields.pop("version")
        try:
            character = services.character_change(
                actor=request.user, character=character, op=op, version=version, **fields
            )
        except services.StaleVersion as stale:
            return _stale(stale, character_data)
        return Response(character_data(character))


class CharacterDuplicateAPI(APIView):
    """A copy of one of your characters, in no unit."""

    @extend_schema(request=None, responses={201: CharacterSerializer})
    def post(self, request, pk: int):
        character = cards.character_get_for_user(request.user, pk)
        copy = services.character_duplicate(actor=request.user, character=character)
        return Response(character_data(copy), status=status.HTTP_201_CREATED)


# A character and a unit have the same history and undo: `kind` picks the fetch-and-authorise
# helper, the undo service and the answer's shape.
def _kind(kind: str):
    if kind == "character":
        return cards.character_get_for_user, services.character_undo, character_data
    return cards.unit_get_for_user, services.unit_undo, unit_data


class _HistoryAPI(APIView):
    kind = ""

    def get(self, request, pk: int):
        get_for_user, _undo, _as_data = _kind(self.kind)
        obj = get_for_user(request.user, pk)
        return Response(ChangeSerializer(cards.history_for(**{self.kind: obj}), many=True).data)


class _UndoAPI(APIView):
    kind = ""

    def post(self, request, pk: int):
        get_for_user, undo, as_data = _kind(self.kind)
        obj = get_for_user(request.user, pk)
        data = UndoSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            undo(actor=request.user, version=data.validated_data["version"], **{self.kind: obj})
        except services.StaleVersion as stale:
            return _stale(stale, as_data)
        obj.refresh_from_db()
        return Response(as_data(obj))


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
        units, _characters = cards.lists_for(request.user)
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
        unit = cards.unit_get_for_user(request.user, pk)
        return Response(unit_data(unit, opponent_vu=_opponent_vu(request)))


class UnitChangeAPI(APIView):
    """One unit operation: rename, add, remove, avatar, share, unshare."""

    @extend_schema(
        request=UnitChangeSerializer, responses={200: UnitSerializer, 409: StaleResponse}
    )
    def post(self, request, pk: int):
        unit = cards.unit_get_for_user(request.user, pk)
        data = UnitChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        character = None
        if data.validated_data.get("character"):
            character = cards.character_get_for_user(request.user, data.validated_data["character"])
        try:
            unit = services.unit_change(
                actor=request.user,
                unit=unit,
                op=data.validated_data["op"],
                version=data.validated_data["version"],
                character=character,
                name=data.validated_data.get("name", ""),
            )
        except services.StaleVersion as stale:
            return _stale(stale, unit_data)
        return Response(unit_data(unit))


class UnitDuplicateAPI(APIView):
    """A copy of one of your units and of its characters."""

    @extend_schema(request=None, responses={201: UnitSerializer})
    def post(self, request, pk: int):
        unit = cards.unit_get_for_user(request.user, pk)
        return Response(
            unit_data(services.unit_duplicate(actor=request.user, unit=unit)),
            status=status.HTTP_201_CREATED,
        )


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
        unit = cards.unit_get_for_user(request.user, pk)
        members = list(unit.members.order_by("position", "pk"))
        return HttpResponse(
            kolaps_io.unit_export_text(unit, members), content_type="application/json"
        )


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
        unit = cards.unit_for_token(token)
        return Response(unit_data(unit, opponent_vu=_opponent_vu(request), with_token=False))

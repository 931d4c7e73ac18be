"""The API twins of the Corporates character pages: list and create, read and change (with
the version shown), history, undo. Same services and fetch-and-authorise helper; each number's
range is the catalogue's, so a bad number is a 400 naming its field."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.corporates.cards import corporates_character_get_for_user, sheet_export
from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import (
    corporates_character_can_undo,
    corporates_character_create,
    corporates_character_undo,
    corporates_character_update,
)
from characters.rosters.api import history_lines, sheet_change_from, sheet_create_from
from characters.serializers import version_field
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.corporates.sheet import weapon_kinds

_CATALOGUE = load_catalogue()
LEVELS_MAX = _CATALOGUE.sheet["levels_max"]


class NumbersSerializer(serializers.Serializer):
    """The sheet's numbers, each in the catalogue's range; those left out keep their value
    (or the catalogue's default on a new sheet)."""

    def get_fields(self):
        return {
            name: serializers.IntegerField(
                required=False, min_value=bounds["min"], max_value=bounds["max"]
            )
            for name, bounds in _CATALOGUE.sheet["numbers"].items()
        }


class CorporatesSheetSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    description = serializers.CharField(required=False, allow_blank=True)
    equipment = serializers.CharField(required=False, allow_blank=True)
    numbers = NumbersSerializer(required=False)
    weapon = serializers.ChoiceField(choices=weapon_kinds(_CATALOGUE), required=False)
    fatigue = serializers.IntegerField(required=False, min_value=0, max_value=LEVELS_MAX)
    wounds = serializers.IntegerField(required=False, min_value=0, max_value=LEVELS_MAX)


class CorporatesSheetChangeSerializer(CorporatesSheetSerializer):
    name = serializers.CharField(max_length=80, required=False)
    version = version_field()


class CorporatesVersionSerializer(serializers.Serializer):
    version = version_field()


def character_data(character: CorporatesCharacter, *, can_undo: bool | None = None) -> dict:
    return {
        "id": character.pk,
        "version": character.version,
        **sheet_export(character),
        "can_undo": corporates_character_can_undo(character) if can_undo is None else can_undo,
    }


class CorporatesListAPI(APIView):
    """Your Corporates characters; POST creates one."""

    @extend_schema(
        operation_id="corporates_characters_list",
        responses={200: {"type": "array", "items": {"type": "object"}}},
    )
    def get(self, request):
        rows = CorporatesCharacter.objects.owned_by(request.user)
        return Response([{"id": c.pk, "version": c.version, **sheet_export(c)} for c in rows])

    @extend_schema(request=CorporatesSheetSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        character = sheet_create_from(
            request, CorporatesSheetSerializer, corporates_character_create
        )
        return Response(character_data(character, can_undo=False), status=status.HTTP_201_CREATED)


class CorporatesCharacterAPI(APIView):
    """One of your characters; PATCH changes it (send the version you were shown)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        character = corporates_character_get_for_user(request.user, pk, need="view")
        return Response(character_data(character))

    @extend_schema(request=CorporatesSheetChangeSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, pk: int):
        character = corporates_character_get_for_user(request.user, pk, need="edit")
        character = sheet_change_from(
            request, CorporatesSheetChangeSerializer, corporates_character_update, character
        )
        return Response(character_data(character))


class CorporatesHistoryAPI(APIView):
    """The character's history, newest first: who, when, what (the sheet before and after)."""

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})
    def get(self, request, pk: int):
        character = corporates_character_get_for_user(request.user, pk, need="view")
        return Response(history_lines(character.events, lambda event: {"undoes": event.undoes_id}))


class CorporatesUndoAPI(APIView):
    """Take back the latest change still standing (send the version you were shown)."""

    @extend_schema(request=CorporatesVersionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        character = corporates_character_get_for_user(request.user, pk, need="edit")
        data = CorporatesVersionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        character = corporates_character_undo(
            actor=request.user, character=character, version=data.validated_data["version"]
        )
        return Response(character_data(character))

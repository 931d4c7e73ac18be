"""The API twins of the modern RPG character pages: list and create, read and change (with
the version shown), history and export. Same services and fetch-and-authorise helper."""

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.modern.cards import modern_character_get_for_user, sheet_card, sheet_export
from characters.modern.models import ModernCharacter
from characters.modern.services import (
    HP_MAX,
    HP_MIN,
    MAX_STRESS,
    modern_character_create,
    modern_character_update,
    stress_sentence,
)
from characters.modern.text import speciality_label
from characters.rosters.api import history_lines, sheet_change_from, sheet_create_from
from characters.serializers import version_field
from rules.engine.systems.modern.catalogue import load_catalogue

# The ranges the creation rules and the services hold (same sentences where they have one):
# a characteristic is a die the dice know; a skill level costs XP out of the budget.
_CATALOGUE = load_catalogue()
DIE_MIN, DIE_MAX = min(_CATALOGUE.dice["sides"]), max(_CATALOGUE.dice["sides"])
SKILL_MIN, SKILL_MAX = 1, _CATALOGUE.creation["skill_level_max"]
HP_MAX_SENTENCE = dict.fromkeys(
    ("min_value", "max_value"), gettext_lazy("Hit points go from 1 to 100.")
)
HP_SENTENCE = dict.fromkeys(
    ("min_value", "max_value"), gettext_lazy("Hit points now go from -100 to the maximum.")
)
STRESS_SENTENCE = dict.fromkeys(("min_value", "max_value"), lazy(stress_sentence, str)())


def _characteristics(**kwargs) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(min_value=DIE_MIN, max_value=DIE_MAX), **kwargs
    )


class ModernSheetSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    description = serializers.CharField(required=False, allow_blank=True)
    characteristics = _characteristics()
    skills = serializers.DictField(
        child=serializers.IntegerField(min_value=SKILL_MIN, max_value=SKILL_MAX),
        required=False,
        help_text="level of each skill, by the catalogue's names (creation.skills)",
    )
    specialities = serializers.ListField(
        child=serializers.ChoiceField(choices=list(_CATALOGUE.creation["specialities"])),
        required=False,
        help_text="the specialities bought, by the catalogue's names, each once",
    )

    def validate_skills(self, value):
        unknown = sorted(set(value) - set(_CATALOGUE.creation["skills"]))
        if unknown:
            raise serializers.ValidationError(
                _("Choose the skills from the list: %(name)s is not one of them.")
                % {"name": ", ".join(unknown)}
            )
        return value

    def validate_specialities(self, value):
        seen = set()
        for name in value:
            if name in seen:
                raise serializers.ValidationError(
                    _("The speciality %(name)s is bought once.") % {"name": speciality_label(name)}
                )
            seen.add(name)
        return value

    equipment = serializers.CharField(required=False, allow_blank=True)
    hp = serializers.IntegerField(
        required=False, min_value=HP_MIN, max_value=HP_MAX, error_messages=HP_SENTENCE
    )
    hp_max = serializers.IntegerField(
        required=False, min_value=1, max_value=HP_MAX, error_messages=HP_MAX_SENTENCE
    )
    stress = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_STRESS, error_messages=STRESS_SENTENCE
    )


class ModernSheetChangeSerializer(ModernSheetSerializer):
    name = serializers.CharField(max_length=80, required=False)
    characteristics = _characteristics(required=False)
    version = version_field()


def character_data(character: ModernCharacter) -> dict:
    card = sheet_card(character)
    return {
        "id": character.pk,
        "version": character.version,
        **sheet_export(character),
        "notes": card.notes,
    }


class ModernListAPI(APIView):
    """Your modern RPG characters; POST creates one, checked against the creation rules."""

    @extend_schema(
        operation_id="modern_characters_list",
        responses={200: {"type": "array", "items": {"type": "object"}}},
    )
    def get(self, request):
        rows = ModernCharacter.objects.owned_by(request.user)
        return Response([character_data(c) for c in rows])

    @extend_schema(request=ModernSheetSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        character = sheet_create_from(request, ModernSheetSerializer, modern_character_create)
        return Response(character_data(character), status=status.HTTP_201_CREATED)


class ModernCharacterAPI(APIView):
    """One of your characters; PATCH changes it (send the version you were shown)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(
            character_data(modern_character_get_for_user(request.user, pk, need="view"))
        )

    @extend_schema(request=ModernSheetChangeSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, pk: int):
        character = modern_character_get_for_user(request.user, pk, need="edit")
        character = sheet_change_from(
            request, ModernSheetChangeSerializer, modern_character_update, character
        )
        return Response(character_data(character))


class ModernHistoryAPI(APIView):
    """The character's history, newest first."""

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})
    def get(self, request, pk: int):
        character = modern_character_get_for_user(request.user, pk, need="view")
        return Response(history_lines(character.events))


class ModernExportAPI(APIView):
    """The sheet as a file (the page's export)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(sheet_export(modern_character_get_for_user(request.user, pk, need="view")))

"""API twins of the profile pages: the same cards, services and permission checks."""

from dataclasses import asdict

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.models import Profile, TraumaKind, TraumaPermanence
from characters.profiles import services as profiles
from characters.profiles.cards import (
    ProfileCard,
    ProfileEventLine,
    my_profile_card,
    public_profile_card,
)
from characters.profiles.selectors import profile_get_for_user, profile_of, trauma_get_for_user
from characters.serializers import CardSerializer, card_serializer, version_field
from rules.engine.systems.of_the_dead.effects import CREATION_POINTS

ProfileEventSerializer = card_serializer(ProfileEventLine, name="ProfileEvent")


class ProfileCardSerializer(CardSerializer):
    class Meta:
        dataclass = ProfileCard
        extra_kwargs = {
            "settled_chapters": {
                "help_text": "Chapters settled by the post-chapter work; 0 means no statistics yet."
            }
        }


class ProfileCreateSerializer(serializers.Serializer):
    physique = serializers.IntegerField(min_value=0, max_value=9)
    psychique = serializers.IntegerField(min_value=0, max_value=9)
    reflexes = serializers.IntegerField(min_value=0, max_value=9)
    combat = serializers.IntegerField(min_value=0, max_value=9)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    portrait_url = serializers.URLField(required=False, allow_blank=True, default="")
    equipment = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, default=list, max_length=40
    )
    cards = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, default=list, max_length=40
    )


class ProfileUpdateSerializer(serializers.Serializer):
    version = version_field(help_text="The version you read; a stale one is refused with 409.")
    physique = serializers.IntegerField(required=False, min_value=0, max_value=9)
    psychique = serializers.IntegerField(required=False, min_value=0, max_value=9)
    reflexes = serializers.IntegerField(required=False, min_value=0, max_value=9)
    combat = serializers.IntegerField(required=False, min_value=0, max_value=9)
    description = serializers.CharField(required=False, allow_blank=True)
    portrait_url = serializers.URLField(required=False, allow_blank=True)
    equipment = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, max_length=40
    )
    cards = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, max_length=40
    )
    is_public = serializers.BooleanField(required=False)
    show_attributes = serializers.BooleanField(required=False)
    show_description = serializers.BooleanField(required=False)
    show_traumas = serializers.BooleanField(required=False)
    show_equipment = serializers.BooleanField(required=False)
    show_statistics = serializers.BooleanField(required=False)
    show_campaigns = serializers.BooleanField(required=False)


class TraumaCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    kind = serializers.ChoiceField(choices=TraumaKind.choices)
    permanence = serializers.ChoiceField(
        choices=TraumaPermanence.choices, default=TraumaPermanence.TEMPORARY
    )
    # An attribute's change, never more than the creation's points (`effect_problems`).
    effect = serializers.DictField(
        child=serializers.IntegerField(min_value=-CREATION_POINTS, max_value=CREATION_POINTS),
        required=False,
        allow_null=True,
        default=None,
    )
    notes = serializers.CharField(required=False, allow_blank=True, default="")


def _own_profile(request) -> Profile:
    profile = profile_of(request.user)
    if profile is None:
        raise NotFound(_("You have no Of the Dead profile yet."))
    return profile


def _mine(request) -> dict:
    card = my_profile_card(request.user)
    if card is None:
        raise NotFound(_("You have no Of the Dead profile yet."))
    return ProfileCardSerializer(asdict(card)).data


class ProfileMineAPI(APIView):
    """Your Of the Dead profile (the twin of the "My profile" page)."""

    @extend_schema(responses=ProfileCardSerializer)
    def get(self, request):
        return Response(_mine(request))

    @extend_schema(request=ProfileCreateSerializer, responses={201: ProfileCardSerializer})
    def post(self, request):
        data = ProfileCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        profiles.profile_create(actor=request.user, player=request.user, **data.validated_data)
        return Response(_mine(request), status=status.HTTP_201_CREATED)

    @extend_schema(request=ProfileUpdateSerializer, responses=ProfileCardSerializer)
    def patch(self, request):
        profile = _own_profile(request)
        data = ProfileUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        profiles.profile_update(actor=request.user, profile=profile, **data.validated_data)
        return Response(_mine(request))


class ProfileTraumaAPI(APIView):
    """Note a trauma on your profile."""

    @extend_schema(request=TraumaCreateSerializer, responses={201: ProfileCardSerializer})
    def post(self, request):
        profile = _own_profile(request)
        data = TraumaCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        profiles.trauma_add(actor=request.user, profile=profile, **data.validated_data)
        return Response(_mine(request), status=status.HTTP_201_CREATED)


class ProfileTraumaHealAPI(APIView):
    """Heal one of your temporary traumas by hand (a permanent one never heals: 400)."""

    @extend_schema(request=None, responses=ProfileCardSerializer)
    def post(self, request, trauma: int):
        profiles.trauma_heal(actor=request.user, trauma=trauma_get_for_user(request.user, trauma))
        return Response(_mine(request))


class ProfilePublicAPI(APIView):
    """A player's public profile: only what they chose to show (404 when private)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ProfileCardSerializer)
    def get(self, request, username: str):
        card = public_profile_card(request.user, profile_get_for_user(request.user, username))
        return Response(ProfileCardSerializer(asdict(card)).data)

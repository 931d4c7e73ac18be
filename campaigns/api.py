"""API twins of the campaign pages: the same cards, the same services, the same permission
helper."""

from dataclasses import asdict

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns import services
from campaigns.cards import (
    CampaignCard,
    CampaignSummary,
    EventLine,
    campaign_card,
    campaign_list_for,
)
from campaigns.models import Invitation
from campaigns.selectors import campaign_get_for_user, invitation_get_for_user
from campaigns.systems.fields import speak
from characters.models import Player
from characters.permissions import Refusal
from characters.serializers import CardSerializer, card_serializer
from rules.engine.systems import system_get

CampaignSummarySerializer = card_serializer(CampaignSummary)
EventSerializer = card_serializer(EventLine, name="Event")
PROFILE_ONLY = ("survival_points_survive", "survival_points_victory")


class CampaignCardSerializer(CardSerializer):
    survival_points_survive = serializers.IntegerField(
        required=False,
        help_text="Of the Dead campaigns only (their players bring a profile); absent otherwise.",
    )
    survival_points_victory = serializers.IntegerField(
        required=False,
        help_text="Of the Dead campaigns only (their players bring a profile); absent otherwise.",
    )

    class Meta:
        dataclass = CampaignCard

    def to_representation(self, instance):
        data = super().to_representation(instance)
        for name in PROFILE_ONLY:
            if data.get(name) is None:
                data.pop(name, None)
        # Its history's lines too speak only the campaign's system.
        return speak(data, system_get(data["summary"]["system"]))


class CampaignWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    system = serializers.ChoiceField(choices=list(services.CAMPAIGN_SYSTEMS))
    description = serializers.CharField(required=False, allow_blank=True, default="")
    chapters_planned = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=99
    )
    survival_points_survive = serializers.IntegerField(
        required=False, default=1, min_value=0, max_value=10
    )
    survival_points_victory = serializers.IntegerField(
        required=False, default=1, min_value=0, max_value=10
    )


class CampaignUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    chapters_planned = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=99
    )
    survival_points_survive = serializers.IntegerField(required=False, min_value=0, max_value=10)
    survival_points_victory = serializers.IntegerField(required=False, min_value=0, max_value=10)


def _campaign(request, pk: int, code: int = status.HTTP_200_OK) -> Response:
    """The campaign's card as the viewer sees it now (read again after a change)."""
    card = campaign_card(request.user, campaign_get_for_user(request.user, pk))
    return Response(CampaignCardSerializer(asdict(card)).data, status=code)


InvitationSerializer = inline_serializer(
    "Invitation",
    {
        "id": serializers.IntegerField(),
        "token": serializers.CharField(),
        "url": serializers.CharField(),
        "revoked_at": serializers.DateTimeField(allow_null=True),
    },
)


def _invitation(request, invitation: Invitation) -> dict:
    return {
        "id": invitation.pk,
        "token": invitation.token,
        "url": request.build_absolute_uri(reverse("campaign-join", args=[invitation.token])),
        "revoked_at": invitation.revoked_at,
    }


class InvitationCreateAPI(APIView):
    """Create a join link for the campaign (organisers)."""

    @extend_schema(request=None, responses={201: InvitationSerializer})
    def post(self, request, pk: int):
        invitation = services.invitation_create(
            actor=request.user, campaign=campaign_get_for_user(request.user, pk, need="manage")
        )
        return Response(_invitation(request, invitation), status=status.HTTP_201_CREATED)


class InvitationRevokeAPI(APIView):
    """Revoke a join link (organisers)."""

    @extend_schema(request=None, responses=InvitationSerializer)
    def post(self, request, pk: int, invitation: int):
        invitation = invitation_get_for_user(request.user, pk, invitation)
        invitation = services.invitation_revoke(actor=request.user, invitation=invitation)
        return Response(_invitation(request, invitation))


class JoinAPI(APIView):
    """Join a campaign through an invitation token."""

    @extend_schema(request=None, responses={201: CampaignCardSerializer})
    def post(self, request, token: str):
        membership = services.campaign_join(player=request.user, token=token)
        return _campaign(request, membership.campaign_id, status.HTTP_201_CREATED)


class LeaveAPI(APIView):
    """Leave a campaign you play in."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk)
        services.campaign_leave(player=request.user, campaign=campaign)
        return Response(status=status.HTTP_204_NO_CONTENT)


UsernameSerializer = inline_serializer("Username", {"username": serializers.CharField()})


def _player(username: str) -> Player:
    player = Player.objects.filter(username__iexact=username).first()
    if player is None:
        raise Refusal(_("Nobody has this username."), field="username")
    return player


def _username(body) -> str:
    """The `username` of a JSON object body; "" for any other body (a list, a string)."""
    return str(body.get("username", "")) if isinstance(body, dict) else ""


class CoOrganiserAPI(APIView):
    """Name (POST) or remove (DELETE) a co-organiser (the organiser only)."""

    @extend_schema(request=UsernameSerializer, responses=CampaignCardSerializer)
    def post(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk)
        username = _username(request.data)
        services.co_organiser_add(actor=request.user, campaign=campaign, player=_player(username))
        return _campaign(request, pk)

    # A DELETE is documented 204 unless told: this one answers 200 with the campaign.
    @extend_schema(request=UsernameSerializer, responses={200: CampaignCardSerializer})
    def delete(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk)
        username = _username(request.data)
        services.co_organiser_remove(
            actor=request.user, campaign=campaign, player=_player(username)
        )
        return _campaign(request, pk)


class CampaignListAPI(APIView):
    """The campaigns you organise or take part in; POST creates one (Of the Dead or
    KOLAPS)."""

    @extend_schema(responses=CampaignSummarySerializer(many=True))
    def get(self, request):
        rows = campaign_list_for(request.user)
        return Response(CampaignSummarySerializer([asdict(r) for r in rows], many=True).data)

    @extend_schema(request=CampaignWriteSerializer, responses={201: CampaignCardSerializer})
    def post(self, request):
        data = CampaignWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_create(organiser=request.user, **data.validated_data)
        return _campaign(request, campaign.pk, status.HTTP_201_CREATED)


class CampaignDetailAPI(APIView):
    """One campaign (organisers and participants); PATCH edits it (organisers)."""

    @extend_schema(responses=CampaignCardSerializer)
    def get(self, request, pk: int):
        return _campaign(request, pk)

    @extend_schema(request=CampaignUpdateSerializer, responses=CampaignCardSerializer)
    def patch(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk, need="manage")
        data = CampaignUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.campaign_update(actor=request.user, campaign=campaign, **data.validated_data)
        return _campaign(request, pk)

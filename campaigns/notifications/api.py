"""API twins of the notifications page and of the unsubscribe link."""

from dataclasses import dataclass

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.notifications import services
from campaigns.selectors import vote_get_for_user
from characters.serializers import card_serializer


@dataclass(frozen=True)
class NotificationsCard:
    enabled: bool
    language: str
    history: list[services.NotificationHistoryLine]  # newest first: who changed what, when


NotificationsCardSerializer = card_serializer(NotificationsCard)


class NotificationsWriteSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()


def _card(subscription) -> dict:
    return NotificationsCardSerializer(
        NotificationsCard(
            enabled=subscription.enabled,
            language=subscription.language,
            history=services.notification_history(subscription.player_id),
        )
    ).data


class NotificationsAPI(APIView):
    """Your e-mail notifications (a chapter planned or moved, a vote opened, a settlement
    done); PATCH `{"enabled": true}` opts in, in the language of the request."""

    @extend_schema(responses=NotificationsCardSerializer)
    def get(self, request):
        return Response(_card(services.subscription_for(request.user)))

    @extend_schema(request=NotificationsWriteSerializer, responses=NotificationsCardSerializer)
    def patch(self, request):
        data = NotificationsWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        subscription = services.notifications_set(
            player=request.user,
            enabled=data.validated_data["enabled"],
            language=request.LANGUAGE_CODE,
        )
        return Response(_card(subscription))


class NotificationsUnsubscribeAPI(APIView):
    """The unsubscribe link of a notification e-mail: no login, the token is the key."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=None, responses=NotificationsCardSerializer)
    def post(self, request, token: str):
        return Response(_card(services.notifications_unsubscribe(token=token)))


class VoteRemindAPI(APIView):
    """Organisers: tell the players who have not voted that the vote closes soon (an e-mail
    to those who opted in); 204."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request, pk: int):
        services.vote_remind(actor=request.user, vote=vote_get_for_user(request.user, pk))
        return Response(status=204)

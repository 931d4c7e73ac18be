"""API twins of the account pages."""

from django.contrib.auth import update_session_auth_hash
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from characters.accounts import services
from characters.accounts.selectors import account_get_for_user
from characters.accounts.throttles import LOGIN_THROTTLED, login_attempt_refused
from characters.models import Player
from characters.permissions import Refusal


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "username", "email", "display_name", "date_joined"]
        read_only_fields = ["id", "username", "date_joined"]


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    display_name = serializers.CharField(max_length=80, required=False, default="")


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(write_only=True)
    new_password = serializers.CharField(write_only=True)


LOCKOUT_SENTENCE = _lazy(
    "Too many failed logins for this account from your address. Logging in is blocked for "
    "15 minutes; try again after that, or reset your password."
)


class SignupThrottle(AnonRateThrottle):
    rate = "20/hour"


class SignupAPI(APIView):
    """Create an account (the twin of the sign-up page)."""

    permission_classes = [AllowAny]
    throttle_classes = [SignupThrottle]

    @extend_schema(request=SignupSerializer, responses={201: PlayerSerializer})
    def post(self, request):
        if request.user.is_authenticated:
            raise Refusal(_("Log out before creating another account."), status=403)
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_signup(**data.validated_data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class MeAPI(APIView):
    """The account of whoever is authenticated (the twin of the account page)."""

    @extend_schema(responses=PlayerSerializer)
    def get(self, request):
        return Response(PlayerSerializer(account_get_for_user(request.user, need="view")).data)

    @extend_schema(request=PlayerSerializer, responses=PlayerSerializer)
    def patch(self, request):
        player = account_get_for_user(request.user)
        data = PlayerSerializer(player, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        player = services.player_update(
            player=player,
            email=data.validated_data.get("email", player.email),
            display_name=data.validated_data.get("display_name", player.display_name),
        )
        return Response(PlayerSerializer(player).data)


class PasswordAPI(APIView):
    """Change the password (the twin of the password-change page)."""

    @extend_schema(request=PasswordChangeSerializer, responses={204: None})
    def post(self, request):
        data = PasswordChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_change_password(
            player=account_get_for_user(request.user),
            old_password=data.validated_data["old_password"],
            new_password=data.validated_data["new_password"],
        )
        if request.session is not None and request.user.is_authenticated:
            update_session_auth_hash(request._request, player)
        return Response(status=status.HTTP_204_NO_CONTENT)


TokenResponse = inline_serializer("Token", {"token": serializers.CharField()})


class TokenAPI(APIView):
    """Trade a username and password for the API token scripts send as
    `Authorization: Token <key>`; DELETE revokes it."""

    permission_classes = [AllowAny]

    @extend_schema(request=AuthTokenSerializer, responses=TokenResponse)
    def post(self, request):
        from axes.handlers.proxy import AxesProxyHandler

        if login_attempt_refused(request._request):
            raise Refusal(LOGIN_THROTTLED, status=429)
        body = request.data if isinstance(request.data, dict) else {}
        credentials = {"username": str(body.get("username", ""))}
        if AxesProxyHandler.is_locked(request._request, credentials=credentials):
            raise Refusal(LOCKOUT_SENTENCE, status=429)
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        token = services.player_token(player=data.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        if not request.user.is_authenticated:
            return Response(status=status.HTTP_401_UNAUTHORIZED)
        services.player_token_revoke(player=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

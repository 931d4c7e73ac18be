"""API twins of the Rapid 40000 pages: the same cards, services and fetch-and-authorise.

Every write sends the `version` it was shown; a stale one answers 409 with the current
army under `current`. A change is `{"version": 3, "action": "fighter_add", "squad": 0,
"profile": "orks:boy", "count": 4}`: the actions and their fields are the builder's
(`services.EDITS`, docs/rapid40k-army-file.md).
"""

from dataclasses import asdict

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.bounds import ID_MAX, ID_MIN, out_of_range_sentence
from characters.permissions import Refusal
from characters.rapid40k import cards, services


def army_data(army) -> dict:
    return asdict(cards.army_card(army))


def _version(request) -> int | None:
    version = request.data.get("version") if isinstance(request.data, dict) else None
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise Refusal(_("A whole number is expected here."), field="version")
    return version


def _stale(stale: services.StaleVersion) -> Response:
    return Response(
        {"version": [str(stale.message)], "current": army_data(stale.current)},
        status=status.HTTP_409_CONFLICT,
    )


class ArmyListAPI(APIView):
    """Your army lists; POST makes a new, empty one."""

    @extend_schema(
        operation_id="rapid40k_armies_list",
        responses={200: {"type": "array", "items": {"type": "object"}}},
    )
    def get(self, request):
        return Response([asdict(a) for a in cards.armies_for(request.user)])

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        army = services.army_create(
            owner=request.user,
            name=data.get("name", ""),
            faction=data.get("faction") or "",
            points_limit=data.get("points_limit"),
        )
        return Response(army_data(army), status=status.HTTP_201_CREATED)


class ArmyImportAPI(APIView):
    """A new army from its JSON file (docs/rapid40k-army-file.md)."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        army = services.army_import(owner=request.user, payload=request.data)
        return Response(army_data(army), status=status.HTTP_201_CREATED)


class ArmyDetailAPI(APIView):
    """One of your armies: squads, points, status and problems as sentences."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(army_data(cards.army_get_for_user(request.user, pk)))


class ArmyChangeAPI(APIView):
    """One builder change (`action` and its fields), or `share` / `unshare`."""

    @extend_schema(
        request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT}
    )
    def post(self, request, pk: int):
        army = cards.army_get_for_user(request.user, pk, need="edit")
        data = dict(request.data) if isinstance(request.data, dict) else {}
        action = data.pop("action", "")
        version = _version(request)
        data.pop("version", None)
        try:
            if action in ("share", "unshare"):
                army = services.army_share(
                    actor=request.user, army=army, version=version, shared=action == "share"
                )
            else:
                army = services.army_change(
                    actor=request.user, army=army, version=version, action=action, data=data
                )
        except services.StaleVersion as stale:
            return _stale(stale)
        return Response(army_data(army))


class ArmyHistoryAPI(APIView):
    """Who changed the army, what and when (newest first)."""

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})
    def get(self, request, pk: int):
        army = cards.army_get_for_user(request.user, pk)
        return Response([asdict(c) for c in cards.history_of(army)])


class ArmyUndoAPI(APIView):
    """Take back the army's last change."""

    @extend_schema(
        request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT}
    )
    def post(self, request, pk: int):
        army = cards.army_get_for_user(request.user, pk, need="edit")
        try:
            army = services.army_undo(actor=request.user, army=army, version=_version(request))
        except services.StaleVersion as stale:
            return _stale(stale)
        return Response(army_data(army))


class ArmyExportAPI(APIView):
    """The army as its JSON file (docs/rapid40k-army-file.md)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(services.army_export(cards.army_get_for_user(request.user, pk)))


ID_SCHEMA = {"type": "integer", "minimum": ID_MIN, "maximum": ID_MAX}


class ArmyCompareAPI(APIView):
    """Two of your lists compared: the difference and whether they are balanced."""

    @extend_schema(
        parameters=[
            OpenApiParameter("a", ID_SCHEMA, OpenApiParameter.QUERY, required=True),
            OpenApiParameter("b", ID_SCHEMA, OpenApiParameter.QUERY, required=True),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request):
        ids = []
        for key in ("a", "b"):
            try:
                pk = int(request.query_params.get(key, ""))
            except ValueError:
                raise Refusal(_("Choose two of your lists."), field=key) from None
            if not ID_MIN <= pk <= ID_MAX:
                raise Refusal(out_of_range_sentence(ID_MIN, ID_MAX), field=key)
            ids.append(pk)
        a, b = (cards.army_get_for_user(request.user, pk) for pk in ids)
        return Response(asdict(cards.comparison_card(a, b)))


class SharedArmyAPI(APIView):
    """A list shared by its link: anyone may read it."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, token: str):
        return Response(army_data(cards.army_get_shared(token)))

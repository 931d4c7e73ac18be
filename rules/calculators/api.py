"""The stateless rules API: the systems, their resolvers, and each resolver run."""

import re
import threading
from collections import OrderedDict
from dataclasses import asdict

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.serializers import card_serializer
from rules.calculators.cards import SystemIndexCard, system_index_card
from rules.dice_calculators.services import settings_in_force
from rules.engine.registry import RESOLVERS, VERBS, resolvers_of
from rules.engine.systems import SYSTEMS
from rules.rolls.services import resolve, roll_on_server


def systems_listing() -> list[dict]:
    return [
        {
            "slug": system.slug,
            "name": system.name,
            "resolvers": [
                {
                    "name": r.name,
                    "summary": r.summary,
                    "reference": r.reference,
                    "verbs": list(VERBS),
                    "input_schema": r.input_schema,
                }
                for r in resolvers_of(system.slug)
            ],
        }
        for system in SYSTEMS
    ]


class RulesAPI(APIView):
    """The game systems, their resolvers and each resolver's input JSON schema."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"systems": systems_listing()})


SystemIndexCardSerializer = card_serializer(SystemIndexCard)


class SystemIndexAPI(APIView):
    """A game system's index, as its page `/rules/<system>/` lists it: its calculators (page
    and API addresses), its catalogue and where its pick-up table starts; 404 for an unknown
    system."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="rules_system_index", responses=SystemIndexCardSerializer)
    def get(self, request, system: str):
        card = system_index_card(system)
        if card is None:
            raise NotFound
        return Response(SystemIndexCardSerializer(asdict(card)).data)


class _JSONFirstNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, answered at once for what scripts and htmx send (no Accept,
    `*/*` or `application/json`, no `?format=`): the JSON renderer, as the full
    negotiation would choose. Anything else (a browser asking for HTML) is negotiated
    as before."""

    JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})

    def select_renderer(self, request, renderers, format_suffix=None):
        meta = request._request.META
        if (
            format_suffix is None
            and not meta.get("QUERY_STRING")
            and meta.get("HTTP_ACCEPT", "").strip() in self.JSON_ACCEPTS
            and renderers[0].media_type == "application/json"
        ):
            return renderers[0], "application/json"
        return super().select_renderer(request, renderers, format_suffix)


class RenderedOdds:
    """Odds answers as the JSON renderer wrote them, by (system, resolver, raw JSON body).

    Odds are a pure function of the body (the rules import nothing that varies: no
    language, no user, no clock), so a body asked before gets the same bytes again without
    parsing, resolving or rendering. Only answers are kept, never refusals; bounded in
    entries and body size, least recently used out."""

    MAX_ENTRIES = 1024
    MAX_BODY = 4096

    def __init__(self) -> None:
        self._answers: OrderedDict[tuple[str, str, bytes], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def key(self, request, system: str, resolver: str) -> tuple[str, str, bytes] | None:
        django_request = request._request
        length = django_request.META.get("CONTENT_LENGTH") or "0"
        if (
            django_request.content_type != "application/json"
            or not re.fullmatch(r"[0-9]{1,12}", length)
            or int(length) > self.MAX_BODY
            or not isinstance(request.accepted_renderer, JSONRenderer)
            or request.accepted_media_type != "application/json"
        ):
            return None
        return (system, resolver, django_request.body)

    def get(self, key) -> bytes | None:
        with self._lock:
            body = self._answers.get(key)
            if body is not None:
                self._answers.move_to_end(key)
            return body

    def put(self, key, body: bytes) -> None:
        with self._lock:
            self._answers[key] = body
            self._answers.move_to_end(key)
            while len(self._answers) > self.MAX_ENTRIES:
                self._answers.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()


rendered_odds = RenderedOdds()


class ResolveAPI(APIView):
    """Run a resolver: `odds` and `evaluate` for anyone; `roll` for a logged-in player,
    recorded with its server-chosen seed.

    The hot path of the calculator, so its DRF stack skips work whose answer is known:
    negotiation answers JSON at once for JSON clients, a request carrying neither a
    token nor a session cookie is anonymous without asking the authenticators (they run,
    lazily, if the view reads `request.user`), and an odds body asked before is answered
    with the bytes rendered the first time (`RenderedOdds`). Same answers, same refusals."""

    permission_classes = [AllowAny]
    content_negotiation_class = _JSONFirstNegotiation

    def perform_authentication(self, request):
        meta = request._request.META
        if "HTTP_AUTHORIZATION" in meta or settings.SESSION_COOKIE_NAME in request.COOKIES:
            request.user  # noqa: B018 - authenticate now: a bad token or CSRF is refused here

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "system", str, OpenApiParameter.PATH, enum=sorted({r.system for r in RESOLVERS})
            ),
            OpenApiParameter(
                "resolver", str, OpenApiParameter.PATH, enum=sorted({r.name for r in RESOLVERS})
            ),
            OpenApiParameter("verb", str, OpenApiParameter.PATH, enum=list(VERBS)),
        ],
        request=OpenApiTypes.OBJECT,
        responses=OpenApiTypes.OBJECT,
        description=(
            'kolaps/test body: {"db": 3, "rank": "veteran", "sante": 6} plus '
            '"dice": [3, 4, 5] for evaluate. Every resolver\'s input schema is listed by '
            "GET /api/v1/rules/. A Corporates or modern RPG body may name a campaign the user "
            'can see ("campaign": 12, or ?campaign=12): its stored rules settings are used '
            'instead of the body\'s "settings" (400 for another system, 404 for one unseen).'
        ),
    )
    def post(self, request, system: str, resolver: str, verb: str):
        data = request.data if isinstance(request.data, dict) else {}
        campaign = data.get("campaign", request.query_params.get("campaign"))
        if campaign is not None:
            # A campaign's stored settings replace the body's (one fetch-and-authorise).
            in_force = settings_in_force(user=request.user, system=system, campaign_id=campaign)
            data = {k: v for k, v in data.items() if k != "campaign"}
            data["settings"] = in_force.settings
            if verb == "roll":
                record = roll_on_server(
                    player=request.user, system=system, name=resolver, data=data
                )
                return Response({**record.outcome, "roll_id": record.pk}, status=201)
            return Response(resolve(system=system, name=resolver, verb=verb, data=data))
        key = rendered_odds.key(request, system, resolver) if verb == "odds" else None
        if key is not None:
            body = rendered_odds.get(key)
            if body is not None:
                return HttpResponse(body, content_type="application/json")
        data = request.data if isinstance(request.data, dict) else {}
        if key is not None:
            answer = resolve(system=system, name=resolver, verb=verb, data=data)
            body = request.accepted_renderer.render(answer, "application/json")
            rendered_odds.put(key, body)
            return HttpResponse(body, content_type="application/json")
        if verb == "roll":
            record = roll_on_server(player=request.user, system=system, name=resolver, data=data)
            return Response({**record.outcome, "roll_id": record.pk}, status=201)
        return Response(resolve(system=system, name=resolver, verb=verb, data=data))

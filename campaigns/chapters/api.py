"""API twins of the campaign, chapter and vote pages: the same cards, the same services,
the same permission helper."""

from dataclasses import asdict

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns import services
from campaigns.chapters import entries
from campaigns.chapters import services as chapter_services
from campaigns.chapters.cards import (
    ChapterCard,
    SheetCard,
    UpcomingLine,
    chapter_card,
    close_card,
    sheet_card,
    upcoming_for,
)
from campaigns.chapters.forms import CloseForm
from campaigns.models import (
    ChapterResult,
    VoteKind,
    ZombieType,
)
from campaigns.selectors import (
    campaign_get_for_user,
    chapter_entry_get,
    chapter_get_for_user,
    player_get,
    vote_get_for_user,
)
from campaigns.systems import entry_kinds
from campaigns.systems.base import EntryResultInput
from campaigns.systems.fields import speak
from campaigns.votes import services as vote_services
from campaigns.votes.cards import VoteCard, vote_card
from characters.models import Player, Vocation
from characters.permissions import Refusal
from characters.profiles.api import ProfileCardSerializer
from characters.serializers import CardSerializer, FieldsOnce, card_serializer, id_field
from rules.engine.systems import system_get

# --- Campaigns ------------------------------------------------------------------------------


UpcomingLineSerializer = card_serializer(UpcomingLine)


# --- Chapters --------------------------------------------------------------------------------


class ChapterCardSerializer(CardSerializer):
    # A chapter as its campaign's system speaks of it (`campaigns.systems.fields.speak`).
    awaiting_settlement = serializers.BooleanField()
    can_enter = serializers.BooleanField()

    class Meta:
        dataclass = ChapterCard
        exclude = ("my_units",)
        extra_kwargs = {
            "uses_units": {"help_text": "A KOLAPS campaign: units enter it."},
            "units": {"help_text": "KOLAPS units entered, as they are now."},
            "k12": {"help_text": "K12 between the two sides, when the units make two."},
        }

    def to_representation(self, instance):
        return speak(super().to_representation(instance), system_get(instance.system))


PLAYERS = dict.fromkeys(("min_value", "max_value"), gettext_lazy("Between 1 and 99 players."))
POINTS = dict.fromkeys(("min_value", "max_value"), gettext_lazy("Between 0 and 999 points."))


class ChapterWriteSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=160)
    scenario = serializers.CharField(required=False, allow_blank=True)
    # The services' ranges, declared so that the schema says them (same sentences).
    players_min = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=99, error_messages=PLAYERS
    )
    players_max = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=99, error_messages=PLAYERS
    )
    min_survival_points = serializers.IntegerField(
        required=False, min_value=0, max_value=999, error_messages=POINTS
    )
    required_cards = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=30
    )
    required_items = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=30
    )
    objectives = serializers.CharField(required=False, allow_blank=True)
    weather = serializers.CharField(required=False, allow_blank=True, max_length=120)
    time_of_day = serializers.CharField(required=False, allow_blank=True, max_length=120)
    announced_events = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=30
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    duration_minutes = serializers.IntegerField(required=False, min_value=15, max_value=1440)
    place = serializers.CharField(required=False, allow_blank=True, max_length=200)


class ChapterUpdateSerializer(ChapterWriteSerializer):
    title = serializers.CharField(max_length=160, required=False)


def _chapter(request, pk: int, code: int = status.HTTP_200_OK) -> Response:
    """The chapter's card as the viewer sees it now (read again after a change)."""
    return _card(request, chapter_get_for_user(request.user, pk), code)


def _card(request, chapter, code: int = status.HTTP_200_OK) -> Response:
    """The card of `chapter` as the viewer sees it: the row a service just wrote and
    returned (locked, saved, its campaign with it) is the row read again."""
    return Response(ChapterCardSerializer(chapter_card(request.user, chapter)).data, status=code)


class ChapterPlanAPI(APIView):
    """Plan a chapter of the campaign (organisers)."""

    @extend_schema(request=ChapterWriteSerializer, responses={201: ChapterCardSerializer})
    def post(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk, need="manage")
        data = ChapterWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        chapter = chapter_services.chapter_plan(
            actor=request.user, campaign=campaign, **data.validated_data
        )
        return _chapter(request, chapter.pk, status.HTTP_201_CREATED)


class ChapterDetailAPI(APIView):
    """A chapter: requirements, each player's eligibility, vocations, and once closed its
    record ("awaiting_settlement" until the post-chapter work settles it)."""

    @extend_schema(responses=ChapterCardSerializer)
    def get(self, request, pk: int):
        return _chapter(request, pk)

    @extend_schema(request=ChapterUpdateSerializer, responses=ChapterCardSerializer)
    def patch(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage")
        data = ChapterUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        chapter_services.chapter_update(actor=request.user, chapter=chapter, **data.validated_data)
        return _chapter(request, pk)


class VocationSerializer(serializers.Serializer):
    vocation = serializers.ChoiceField(choices=Vocation.choices, required=False)
    player = id_field(required=False, help_text="Organisers give a vocation to this player id.")


class ChapterVocationAPI(APIView):
    """Take (POST) or give back (DELETE) a vocation for the chapter."""

    @staticmethod
    def _target(request, data: VocationSerializer):
        """Yourself, or the player named by a (validated) id."""
        player_id = data.validated_data.get("player")
        if player_id in (None, request.user.pk):
            return request.user
        return player_get(player_id)

    @extend_schema(request=VocationSerializer, responses=ChapterCardSerializer)
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk)
        data = VocationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "vocation" not in data.validated_data:
            raise Refusal(_("Choose a vocation."), field="vocation")
        chapter_services.vocation_choose(
            actor=request.user,
            chapter=chapter,
            player=self._target(request, data),
            vocation=data.validated_data["vocation"],
        )
        return _chapter(request, pk)

    # A DELETE is documented 204 unless told: these answer 200 with the chapter.
    @extend_schema(request=VocationSerializer, responses={200: ChapterCardSerializer})
    def delete(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk)
        data = VocationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        chapter_services.vocation_release(
            actor=request.user, chapter=chapter, player=self._target(request, data)
        )
        return _chapter(request, pk)


class OutcomeWriteSerializer(FieldsOnce):
    player = id_field()
    result = serializers.ChoiceField(choices=ChapterResult.choices)
    died = serializers.BooleanField(required=False, default=False)
    side = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    kills = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=999),
        required=False,
        default=dict,
        help_text=f"By zombie type: {', '.join(ZombieType.values)}",
    )
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    xp = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=100, help_text="Modern RPG: XP awarded."
    )
    answers = serializers.DictField(
        required=False,
        default=dict,
        help_text="The rest of what the campaign's system asks each player at the close, "
        "by field name (the modern RPG's xp may be sent on its own).",
    )


def _members(help_text: str) -> serializers.ListField:
    """Some of a roster's members, by id (none by default)."""
    return serializers.ListField(
        child=id_field(), required=False, default=list, max_length=200, help_text=help_text
    )


class EntryWriteSerializer(FieldsOnce):
    """What the close records of any roster entered: its result, side and notes."""

    result = serializers.ChoiceField(choices=ChapterResult.choices)
    side = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=80,
        help_text="Empty: the side it was entered on.",
    )
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class UnitWriteSerializer(EntryWriteSerializer):
    unit = id_field(help_text="A unit entered into this chapter.")
    lost = _members("Ids of the unit's characters dead in the chapter (they leave the unit).")
    wounded = _members("Ids of the unit's characters wounded.")
    changed_side = _members("Ids of the unit's characters who changed sides (K12).")


class SquadLossSerializer(FieldsOnce):
    squad = id_field(help_text="A squad of the army.")
    lost = serializers.IntegerField(min_value=0, max_value=999)


class ArmyWriteSerializer(EntryWriteSerializer):
    army = id_field(help_text="An army list entered into this chapter.")
    squads = SquadLossSerializer(
        many=True, required=False, default=list, help_text="The figures each squad lost."
    )


class SheetWriteSerializer(EntryWriteSerializer):
    character = id_field(help_text="A character sheet entered into this chapter.")
    answers = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=999),
        required=False,
        default=dict,
        help_text=(
            "What the system's close asks of each character, by field: Corporates `fatigue` "
            "and `wounds` (the levels it ended the session with); modern RPG `xp` (awarded), "
            "`stress` and `wounds` (hit points lost below its maximum)."
        ),
    )


class CloseSerializer(FieldsOnce):
    epilogue = serializers.CharField()
    notable_events = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, default=list
    )
    outcomes = OutcomeWriteSerializer(many=True, required=False, default=list)
    unit_results = UnitWriteSerializer(many=True, required=False, default=list)
    army_results = ArmyWriteSerializer(many=True, required=False, default=list)
    sheet_results = SheetWriteSerializer(many=True, required=False, default=list)


class CloseMemberDraftSerializer(serializers.Serializer):
    member = serializers.IntegerField(help_text="A character of the unit, a squad of the army.")
    name = serializers.CharField()
    figures = serializers.IntegerField()
    answers = serializers.DictField(help_text="What the close asks of each member, by field.")


class CloseEntryDraftSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="The unit or the army list entered.")
    name = serializers.CharField()
    player = serializers.IntegerField()
    value = serializers.IntegerField(help_text="Its VU or points when the chapter started.")
    result = serializers.CharField(allow_null=True, help_text="null: not known yet.")
    answers = serializers.DictField(help_text="What the close asks of each entry, by field.")
    members = CloseMemberDraftSerializer(many=True)


class ClosePlayerDraftSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    result = serializers.CharField(allow_null=True, help_text="null: not known yet.")
    answers = serializers.DictField(help_text="What the close asks of each player, by field.")


class CloseDraftSerializer(serializers.Serializer):
    epilogue = serializers.CharField(allow_blank=True)
    notable_events = serializers.ListField(child=serializers.CharField())
    results = serializers.ListField(child=serializers.CharField())
    players = ClosePlayerDraftSerializer(many=True)
    entries = CloseEntryDraftSerializer(many=True)


class ChapterCloseAPI(APIView):
    """What the close asks and its first answers (GET: the page's form, prefilled from the
    live table where the chapter was played), then close the chapter with its epilogue and
    record (POST, organisers): one operation; the settlement follows."""

    @extend_schema(responses=CloseDraftSerializer)
    def get(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage")
        card = close_card(request.user, chapter)
        if card.is_closed:
            raise Refusal(_("This chapter is already closed."))
        return Response(CloseDraftSerializer(CloseForm(card=card).draft()).data)

    @extend_schema(request=CloseSerializer, responses=ChapterCardSerializer)
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk, need="manage")
        data = CloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        closed = chapter_services.chapter_close(
            actor=request.user,
            chapter=chapter,
            epilogue=values["epilogue"],
            notable_events=values["notable_events"],
            outcomes=[
                chapter_services.OutcomeInput(
                    player_id=row["player"],
                    result=row["result"],
                    died=row["died"],
                    side=row["side"],
                    kills=row["kills"],
                    notes=row["notes"],
                    answers={**row["answers"], **({"xp": row["xp"]} if row["xp"] else {})},
                )
                for row in values["outcomes"]
            ],
            unit_results=[
                EntryResultInput(
                    entry_id=row["unit"],
                    result=row["result"],
                    lost_ids=row["lost"],
                    wounded_ids=row["wounded"],
                    changed_side_ids=row["changed_side"],
                    side=row["side"],
                    notes=row["notes"],
                )
                for row in values["unit_results"]
            ],
            army_results=[
                EntryResultInput(
                    entry_id=row["army"],
                    result=row["result"],
                    figures_lost={loss["squad"]: loss["lost"] for loss in row["squads"]},
                    side=row["side"],
                    notes=row["notes"],
                )
                for row in values["army_results"]
            ],
            entry_results=[
                EntryResultInput(
                    entry_id=row["character"],
                    result=row["result"],
                    answers=row["answers"],
                    side=row["side"],
                    notes=row["notes"],
                )
                for row in values["sheet_results"]
            ],
        )
        return _card(request, closed)


class ChapterStartAPI(APIView):
    """Start a planned chapter: it is the one being played (organisers). In a KOLAPS
    campaign every unit entered must still be valid."""

    @extend_schema(request=None, responses=ChapterCardSerializer)
    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk)
        chapter_services.chapter_start(actor=request.user, chapter=chapter)
        return _chapter(request, pk)


class UnitEntrySerializer(serializers.Serializer):
    unit = id_field(help_text="One of your valid KOLAPS units.")
    side = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class ArmyEntrySerializer(serializers.Serializer):
    army = id_field(help_text="One of your valid army lists.")
    side = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class SheetEntrySerializer(serializers.Serializer):
    character = id_field(help_text="One of your character sheets of the campaign's system.")
    side = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class _EntriesAPI(APIView):
    """Enter one of your rosters into a planned chapter (`campaigns.chapters.entries`): the
    subclass names the kind and its request body."""

    kind: entry_kinds.EntryKind
    body: type[serializers.Serializer]

    def kind_of(self, chapter) -> entry_kinds.EntryKind:
        return self.kind

    def post(self, request, pk: int):
        chapter = chapter_get_for_user(request.user, pk)
        data = self.body(data=request.data)
        data.is_valid(raise_exception=True)
        kind = self.kind_of(chapter)
        entries.chapter_entry_enter(
            actor=request.user,
            chapter=chapter,
            kind=kind,
            roster=kind.roster.objects.filter(pk=data.validated_data[kind.name]).first(),
            side=data.validated_data["side"],
        )
        return _chapter(request, pk, status.HTTP_201_CREATED)


class _EntryAPI(APIView):
    """Withdraw a roster from a planned chapter (its player, or an organiser)."""

    kind: entry_kinds.EntryKind

    def kind_of(self, chapter) -> entry_kinds.EntryKind:
        return self.kind

    @extend_schema(request=None, responses={200: ChapterCardSerializer})
    def delete(self, request, pk: int, **roster: int):
        """The URL names the roster's id by the kind (`unit`, `army`, `character`)."""
        chapter = chapter_get_for_user(request.user, pk)
        kind = self.kind_of(chapter)
        entered = chapter_entry_get(chapter, kind, roster[kind.name])
        entries.chapter_entry_withdraw(
            actor=request.user, chapter=chapter, kind=kind, roster=entered
        )
        return _chapter(request, pk)


@extend_schema(request=UnitEntrySerializer, responses={201: ChapterCardSerializer})
class ChapterUnitsAPI(_EntriesAPI):
    """Enter one of your valid units into a planned chapter of a KOLAPS campaign (the
    campaign's players)."""

    kind, body = entry_kinds.UNIT, UnitEntrySerializer


class ChapterUnitAPI(_EntryAPI):
    """Withdraw a unit from a planned chapter (its player, or an organiser)."""

    kind = entry_kinds.UNIT


@extend_schema(request=ArmyEntrySerializer, responses={201: ChapterCardSerializer})
class ChapterArmiesAPI(_EntriesAPI):
    """Enter one of your valid army lists into a planned chapter of a Rapid 40000 campaign
    (the campaign's players)."""

    kind, body = entry_kinds.ARMY, ArmyEntrySerializer


class ChapterArmyAPI(_EntryAPI):
    """Withdraw an army list from a planned chapter (its player, or an organiser)."""

    kind = entry_kinds.ARMY


def _sheet_kind(chapter) -> entry_kinds.EntryKind:
    """The sheet the chapter's system's players enter; a system without sheets has none
    (404)."""
    return entries.sheet_kind_of(chapter.campaign.system)


@extend_schema(request=SheetEntrySerializer, responses={201: ChapterCardSerializer})
class ChapterSheetsAPI(_EntriesAPI):
    """Enter one of your character sheets into a planned chapter of a Corporates or modern
    RPG campaign (the campaign's players)."""

    kind, body = entry_kinds.CORPORATES_SHEET, SheetEntrySerializer

    def kind_of(self, chapter) -> entry_kinds.EntryKind:
        return _sheet_kind(chapter)


class ChapterSheetAPI(_EntryAPI):
    """Withdraw a character from a planned chapter (its player, or an organiser)."""

    kind = entry_kinds.CORPORATES_SHEET

    def kind_of(self, chapter) -> entry_kinds.EntryKind:
        return _sheet_kind(chapter)


# --- Votes -------------------------------------------------------------------------------------


class VoteCardSerializer(CardSerializer):
    result = serializers.JSONField(allow_null=True)

    class Meta:
        dataclass = VoteCard


def _vote(request, pk: int, code: int = status.HTTP_200_OK) -> Response:
    """The vote's card as the viewer sees it now (read again after a change)."""
    card = vote_card(request.user, vote_get_for_user(request.user, pk))
    return Response(VoteCardSerializer(asdict(card)).data, status=code)


class VoteOpenSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=VoteKind.choices)
    candidates = serializers.ListField(
        # Ids, and not more of them than a campaign's chapters could be.
        child=id_field(),
        required=False,
        default=list,
        max_length=200,
    )
    chapter = id_field(required=False, allow_null=True, default=None)
    closes_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="when the vote closes itself (optional, in the future)",
    )


class VoteOpenAPI(APIView):
    """Open a vote on the next chapter or on a chapter's vocations (organisers)."""

    @extend_schema(request=VoteOpenSerializer, responses={201: VoteCardSerializer})
    def post(self, request, pk: int):
        campaign = campaign_get_for_user(request.user, pk, need="manage")
        data = VoteOpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        ids = set(values["candidates"])
        candidates = list(campaign.chapters.filter(pk__in=ids))
        if len(candidates) != len(ids):
            raise Refusal(
                _("Choose two planned chapters of this campaign or more."), field="candidates"
            )
        chapter = None
        if values["chapter"] is not None:
            chapter = campaign.chapters.filter(pk=values["chapter"]).first()
            if chapter is None:
                raise Refusal(_("Choose a chapter of this campaign."), field="chapter")
        vote = vote_services.vote_open(
            actor=request.user,
            campaign=campaign,
            kind=values["kind"],
            candidates=candidates,
            chapter=chapter,
            closes_at=values["closes_at"],
        )
        return _vote(request, vote.pk, status.HTTP_201_CREATED)


class VoteDetailAPI(APIView):
    """A vote: candidates, your ballot, and the counts once closed (organisers see them
    while it is open)."""

    @extend_schema(responses=VoteCardSerializer)
    def get(self, request, pk: int):
        return _vote(request, pk)


class BallotSerializer(serializers.Serializer):
    chapter = id_field(required=False, help_text="Next-chapter vote")
    vocation = serializers.ChoiceField(
        choices=Vocation.choices, required=False, help_text="Vocation vote"
    )
    nominee = id_field(required=False, help_text="Vocation vote: a player id")


class BallotAPI(APIView):
    """Cast or change your ballot (the campaign's players)."""

    @extend_schema(request=BallotSerializer, responses=VoteCardSerializer)
    def post(self, request, pk: int):
        vote = vote_get_for_user(request.user, pk)
        data = BallotSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        vote_services.ballot_cast(
            voter=request.user,
            vote=vote,
            chapter=vote.candidates.filter(pk=values.get("chapter")).first(),
            vocation=values.get("vocation", ""),
            nominee=Player.objects.filter(pk=values.get("nominee")).first(),
        )
        return _vote(request, pk)


class VoteClosingSerializer(serializers.Serializer):
    closes_at = serializers.DateTimeField(
        allow_null=True, help_text="when the vote closes itself; null: no date"
    )


class VoteClosingAPI(APIView):
    """Set, move or remove (null) the date an open vote closes itself (organisers); a date
    already past is refused."""

    @extend_schema(request=VoteClosingSerializer, responses=VoteCardSerializer)
    def post(self, request, pk: int):
        vote = vote_get_for_user(request.user, pk, need="manage")
        data = VoteClosingSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vote_services.vote_set_closing(
            actor=request.user, vote=vote, closes_at=data.validated_data["closes_at"]
        )
        return _vote(request, pk)


class VoteCloseAPI(APIView):
    """Close a vote; its result is kept (organisers)."""

    @extend_schema(request=None, responses=VoteCardSerializer)
    def post(self, request, pk: int):
        vote = vote_get_for_user(request.user, pk)
        vote_services.vote_close(actor=request.user, vote=vote)
        return _vote(request, pk)


# --- Upcoming chapters and the calendar ----------------------------------------------------------


class UpcomingAPI(APIView):
    """The chapters not yet closed of your campaigns."""

    @extend_schema(responses=UpcomingLineSerializer(many=True))
    def get(self, request):
        return Response(
            UpcomingLineSerializer(
                [asdict(line) for line in upcoming_for(request.user)], many=True
            ).data
        )


CalendarSerializer = inline_serializer("CalendarFeed", {"url": serializers.CharField()})


class CalendarTokenAPI(APIView):
    """Create or replace your iCalendar feed address (the old one stops working)."""

    @extend_schema(request=None, responses=CalendarSerializer)
    def post(self, request):
        feed = services.calendar_feed_token(player=request.user, rotate=True)
        return Response(
            {"url": request.build_absolute_uri(reverse("calendar-feed", args=[feed.token]))}
        )


# --- The sheet to print again for the next chapter -------------------------------------------


class SheetSerializer(CardSerializer):
    profile = ProfileCardSerializer()

    class Meta:
        dataclass = SheetCard


class ProfileSheetAPI(APIView):
    """Your sheet to print again, with the next chapter's starting conditions."""

    @extend_schema(responses=SheetSerializer)
    def get(self, request):
        sheet = sheet_card(request.user)
        if sheet is None:
            raise NotFound(_("You have no Of the Dead profile yet."))
        return Response(SheetSerializer(asdict(sheet)).data)

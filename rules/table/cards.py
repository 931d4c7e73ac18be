"""The encounter log of a chapter being played in Chronique: who rolled, whom it hit, how
hard, and which recorded server roll it was. The settlement sums these events into the
ledger (damage dealt and taken, rolls made: docs/settlement.md).

`encounter_event_record` is the only writer of `EncounterEvent`; `encounter_card` is what
the page and its API twin read (four queries, however long the log).
"""

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Chapter, ChapterStatus, EncounterEvent, Membership, MembershipRole
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.services import _record
from characters.permissions import Refusal, require
from rules.rolls.models import RollRecord

MAX_DAMAGE = 100
RECENT_ROLLS = 20


def encounter_event_record(
    *, actor, chapter: Chapter, player, target=None, damage: int = 0, roll=None
) -> EncounterEvent:
    """Record one roll of the encounter of `chapter`, which must be the chapter being
    played. An organiser records for any player of the campaign; a player for themself.
    The target, when there is one, is another player of the campaign; the roll, when
    given, is one of the rolling player's own recorded server rolls."""
    campaign = chapter.campaign
    rows = list(campaign.memberships.values_list("player_id", "role"))
    players = {pk for pk, role in rows if role == MembershipRole.PLAYER}
    co_organisers = {pk for pk, role in rows if role == MembershipRole.CO_ORGANISER}
    roles = campaign_role(actor, campaign, member_ids=players, co_organiser_ids=co_organisers)
    if not (roles & CAN_MANAGE or (actor.pk == player.pk and roles & CAN_VIEW)):
        require(roles, CAN_MANAGE, visible=CAN_VIEW)
    if player.pk not in players:
        raise Refusal(_("Choose a player of this campaign."), field="player")
    if target is not None and (target.pk not in players or target.pk == player.pk):
        raise Refusal(_("The target is another player of this campaign."), field="target")
    if not isinstance(damage, int) or isinstance(damage, bool) or not 0 <= damage <= MAX_DAMAGE:
        raise Refusal(
            _("Damage is a whole number from 0 to %(max)s.") % {"max": MAX_DAMAGE},
            field="damage",
        )
    if target is None and damage:
        raise Refusal(_("Damage goes to a target: choose whom the roll hit."), field="target")
    if roll is not None and roll.player_id != player.pk:
        raise Refusal(_("Choose one of the rolling player's own server rolls."), field="roll")
    with transaction.atomic():
        # Checked under the chapter's lock: a close committing meanwhile cannot miss it.
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        if locked.status != ChapterStatus.CURRENT:
            raise Refusal(_("Rolls are recorded while the chapter is being played."))
        event = EncounterEvent.objects.create(
            chapter=chapter, player=player, target=target, damage=damage, roll=roll
        )
        _record(
            campaign=campaign,
            actor=actor,
            verb="encounter_roll",
            chapter=chapter.pk,
            title=chapter.title,
            player=player.get_username(),
            target=target.get_username() if target is not None else None,
            damage=damage,
            roll=roll.pk if roll is not None else None,
        )
    return event


# --- Reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EncounterRow:
    id: int
    at: datetime
    player_id: int
    player: str
    target_id: int | None
    target: str | None
    damage: int
    roll_id: int | None
    roll: str | None


@dataclass(frozen=True)
class EncounterCard:
    chapter: Chapter
    rows: list[EncounterRow]
    players: list[tuple[int, str]]
    # Who the viewer may record for (everyone for an organiser, themself for a player),
    # empty when nothing can be recorded (the chapter is not being played).
    record_for: list[tuple[int, str]]
    my_rolls: list[tuple[int, str]]

    @property
    def is_current(self) -> bool:
        return self.chapter.status == ChapterStatus.CURRENT

    @property
    def damage_by_player(self) -> list[tuple[str, int, int, int]]:
        """(name, rolls made, damage dealt, damage taken) per player, in the log's order."""
        names = dict(self.players)
        made: dict[int, int] = {}
        dealt: dict[int, int] = {}
        taken: dict[int, int] = {}
        for row in self.rows:
            made[row.player_id] = made.get(row.player_id, 0) + 1
            if row.target_id is not None:
                dealt[row.player_id] = dealt.get(row.player_id, 0) + row.damage
                taken[row.target_id] = taken.get(row.target_id, 0) + row.damage
        order = [pk for pk, _name in self.players if pk in made or pk in taken]
        return [(names[pk], made.get(pk, 0), dealt.get(pk, 0), taken.get(pk, 0)) for pk in order]


def _name(display: str, username: str) -> str:
    return display or username


def _roll_label(pk: int, resolver: str, outcome: dict) -> str:
    """`#12 ranged — Serious wound`: the result in the words the calculators use."""
    from rules.templatetags.outcomes import outcome_label, row_label

    if outcome.get("row"):
        result = row_label(outcome["row"])
    elif outcome.get("outcome"):
        result = outcome_label(outcome["outcome"])
    else:
        result = ""
    return f"#{pk} {resolver}" + (f" — {result}" if result else "")


def encounter_card(user, pk: int) -> EncounterCard:
    """Organisers and participants of the campaign; four queries: the chapter, the
    memberships, the log, the viewer's recent server rolls (only when they may record)."""
    chapter = Chapter.objects.select_related("campaign").filter(pk=pk).first()
    if chapter is None:
        raise Http404
    members = list(
        Membership.objects.filter(campaign=chapter.campaign)
        .order_by("joined_at", "pk")
        .values_list("player_id", "player__display_name", "player__username", "role")
    )
    player_ids = {pk for pk, _d, _u, role in members if role == MembershipRole.PLAYER}
    co_organisers = {pk for pk, _d, _u, role in members if role == MembershipRole.CO_ORGANISER}
    roles = campaign_role(
        user, chapter.campaign, member_ids=player_ids, co_organiser_ids=co_organisers
    )
    require(roles, CAN_VIEW, visible=CAN_VIEW)
    players = [
        (pk, _name(display, username))
        for pk, display, username, role in members
        if role == MembershipRole.PLAYER
    ]
    rows = [
        EncounterRow(
            id=row["pk"],
            at=row["at"],
            player_id=row["player_id"],
            player=_name(row["player__display_name"], row["player__username"]),
            target_id=row["target_id"],
            target=(
                _name(row["target__display_name"], row["target__username"])
                if row["target_id"] is not None
                else None
            ),
            damage=row["damage"],
            roll_id=row["roll_id"],
            roll=(
                _roll_label(row["roll_id"], row["roll__resolver"], row["roll__outcome"] or {})
                if row["roll_id"] is not None
                else None
            ),
        )
        for row in EncounterEvent.objects.filter(chapter=chapter)
        .order_by("at", "pk")
        .values(
            "pk",
            "at",
            "player_id",
            "player__display_name",
            "player__username",
            "target_id",
            "target__display_name",
            "target__username",
            "damage",
            "roll_id",
            "roll__resolver",
            "roll__outcome",
        )
    ]
    can_manage = bool(roles & CAN_MANAGE)
    record_for: list[tuple[int, str]] = []
    if chapter.status == ChapterStatus.CURRENT:
        record_for = [(pk, name) for pk, name in players if can_manage or pk == user.pk]
    my_rolls = []
    if record_for:
        my_rolls = [
            (pk, _roll_label(pk, resolver, outcome or {}))
            for pk, resolver, outcome in RollRecord.objects.for_user(user)
            .order_by("-at", "-pk")
            .values_list("pk", "resolver", "outcome")[:RECENT_ROLLS]
        ]
    return EncounterCard(
        chapter=chapter,
        rows=rows,
        players=players,
        record_for=record_for,
        my_rolls=my_rolls,
    )


@dataclass(frozen=True)
class PlayingChapter:
    id: int
    title: str
    campaign: str


def chapters_being_played(user) -> list[PlayingChapter]:
    """The chapters being played in the campaigns where `user` is a player: where a server
    roll of theirs can be recorded. One query."""
    if not user.is_authenticated:
        return []
    rows = (
        Chapter.objects.filter(
            status=ChapterStatus.CURRENT,
            campaign__memberships__player=user,
            campaign__memberships__role=MembershipRole.PLAYER,
        )
        .order_by("campaign__name", "number")
        .values_list("pk", "title", "campaign__name")
    )
    return [PlayingChapter(pk, title, campaign) for pk, title, campaign in rows]

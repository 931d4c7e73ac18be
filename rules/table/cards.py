"""The encounter log of a chapter being played in Chronique: who rolled, whom it hit, how
hard, and which recorded server roll it was. The settlement sums these events into the
ledger (damage dealt and taken, rolls made: docs/settlement.md).

The log is the chapter's: `campaigns.chapters.services.encounter_event_record` is the only
writer of `EncounterEvent`. `encounter_card` is what the page and its API twin read (four
queries with the chapter, however long the log): it names the server rolls, which live here.
"""

from dataclasses import dataclass
from datetime import datetime

from campaigns.models import Chapter, ChapterStatus, EncounterEvent
from campaigns.permissions import CAN_MANAGE, campaign_role, members_of
from rules.labels import resolver_label
from rules.rolls.models import RollRecord
from rules.templatetags.outcomes import outcome_label, row_label

RECENT_ROLLS = 20


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
    def can_record(self) -> bool:
        return bool(self.record_for)

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
    if outcome.get("row"):
        result = row_label(outcome["row"])
    elif outcome.get("outcome"):
        result = outcome_label(outcome["outcome"])
    else:
        result = ""
    return f"#{pk} {resolver_label(resolver)}" + (f" — {result}" if result else "")


def encounter_card(user, chapter: Chapter) -> EncounterCard:
    """For organisers and participants of the campaign (`chapter_get_for_user`, which reads
    the chapter with its campaign); three queries: the memberships, the log, the viewer's
    recent server rolls (only when they may record)."""
    members = members_of(chapter.campaign)
    roles = campaign_role(user, chapter.campaign, members=members)
    players = [(member.id, member.name) for member in members.players]
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

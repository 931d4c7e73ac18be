"""The settlement's plan: what the preview shows and what the task applies, computed from
the chapter's close record, with the rules of the campaign's system: its pure settlement
(`GameSystem.settle`: value destroyed and lost, characters lost, XP), and for a system whose
players bring their own profile (Of the Dead) the profiles' traumas, sheets and survival
points. Reads only."""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum, Value

from campaigns.models import (
    Chapter,
    ChapterOutcome,
    EncounterEvent,
    SettlementEntry,
    ZombieType,
)
from campaigns.systems import campaign_system
from campaigns.systems.base import UnitDeparture, record_of
from characters.models import ProfileStatus, Trauma, TraumaPermanence
from rules.engine.systems.of_the_dead import effects
from rules.engine.systems.of_the_dead.settlement import (
    SurvivalRule,
    TraumaFate,
    survival_points,
    trauma_fate,
)
from rules.engine.systems.seam import Roster


@dataclass(frozen=True)
class TraumaChange:
    trauma_id: int
    name: str
    kind: str
    fate: TraumaFate
    effect: dict[str, int] | None


@dataclass(frozen=True)
class ParticipantPlan:
    player_id: int
    name: str
    profile_id: int | None
    result: str
    died: bool
    side: str
    kills: dict[str, int]
    kills_total: int
    survival_points: int
    survival_before: int | None
    survival_after: int | None
    status_before: str | None
    status_after: str | None
    trauma_changes: tuple[TraumaChange, ...]
    traumas_gained: int
    sheet_before: effects.SheetNumbers | None
    sheet_after: effects.SheetNumbers | None
    damage_dealt: int | None
    damage_taken: int | None
    rolls: int | None
    # What the system's settlement keeps (`rules.engine.systems.seam.Figures`) and the
    # roster's fates it read them from (KOLAPS units, Rapid 40000 armies).
    value_destroyed: int = 0
    value_lost: int = 0
    characters_lost: int = 0
    xp: int = 0
    entry: str = ""
    members_lost: tuple[str, ...] = ()
    members_wounded: tuple[str, ...] = ()
    members_changed_side: tuple[str, ...] = ()
    avatar_lost: bool = False
    squad_losses: tuple[tuple[str, int, int], ...] = ()  # (squad, figures lost, figures)

    @property
    def survived(self) -> bool:
        return not self.died

    @property
    def won(self) -> bool:
        return self.result == "victory"

    @property
    def traumas_healed(self) -> int:
        return sum(1 for c in self.trauma_changes if c.fate == TraumaFate.HEAL)

    @property
    def traumas_permanent(self) -> int:
        return sum(1 for c in self.trauma_changes if c.fate == TraumaFate.PERMANENT)

    @property
    def death_choice_pending(self) -> bool:
        return self.status_after == ProfileStatus.DEAD


@dataclass(frozen=True)
class SettlementPlan:
    chapter_id: int
    campaign_id: int
    system: str
    played_in_chronique: bool
    participants: tuple[ParticipantPlan, ...]
    departures: tuple[UnitDeparture, ...] = field(default_factory=tuple)


class _Outcome(NamedTuple):
    """An outcome as the plan reads it: its player's names, their profile (null without
    one) with what the sheet needs, and the survival points the ledger holds for it."""

    player_id: int
    display_name: str
    username: str
    result: str
    died: bool
    side: str
    kills: dict[str, int]
    record: dict
    profile_id: int | None
    physique: int | None
    psychique: int | None
    reflexes: int | None
    combat: int | None
    status: str | None
    survival_points: int | None
    ledger: int | None


_OUTCOME_FIELDS = (  # in the order of `_Outcome`
    "player_id",
    "player__display_name",
    "player__username",
    "result",
    "died",
    "side",
    "kills",
    "record",
    "player__otd_profile__id",
    "player__otd_profile__physique",
    "player__otd_profile__psychique",
    "player__otd_profile__reflexes",
    "player__otd_profile__combat",
    "player__otd_profile__status",
    "player__otd_profile__survival_points",
    "ledger",
)


class _Trauma(NamedTuple):
    pk: int
    name: str
    kind: str
    permanence: str
    effect: dict[str, int] | None


def _survival_rule(campaign) -> SurvivalRule:
    return SurvivalRule(
        survive=campaign.survival_points_survive, victory=campaign.survival_points_victory
    )


def settlement_plan(chapter: Chapter) -> SettlementPlan:
    """Every change the settlement of `chapter` makes, computed and not written.

    Three queries whatever the number of participants: the outcomes with their players,
    profiles and each profile's survival points in the ledger; the traumas (active, or
    noted in the chapter); the encounter log's damage and rolls. A system whose settlement
    changes rosters (KOLAPS) adds what it reads for them (the unit results).
    """
    campaign = chapter.campaign
    system = campaign_system(campaign.system)
    game = system.game
    with_profiles = game.uses_profiles
    ledger = (
        SettlementEntry.objects.filter(
            profile_id=OuterRef("player__otd_profile__id"), reverted_at__isnull=True
        )
        .order_by()
        .values("profile_id")
        .annotate(total=Sum("survival_points"))
        .values("total")
    )
    outcomes = [
        _Outcome(*row)
        for row in ChapterOutcome.objects.filter(chapter=chapter)
        .annotate(ledger=Subquery(ledger) if with_profiles else Value(None, IntegerField()))
        .order_by("player_id")
        .values_list(*_OUTCOME_FIELDS)
    ]
    profile_ids = [
        row.profile_id for row in outcomes if with_profiles and row.profile_id is not None
    ]
    active: dict[int, list[_Trauma]] = defaultdict(list)
    gained: dict[int, int] = defaultdict(int)
    if profile_ids:
        for pk, profile_id, name, kind, permanence, effect, is_active, chapter_id in (
            Trauma.objects.filter(profile_id__in=profile_ids)
            .filter(Q(active=True) | Q(chapter=chapter))
            .order_by("created_at", "pk")
            .values_list(
                "pk", "profile_id", "name", "kind", "permanence", "effect", "active", "chapter"
            )
        ):
            if is_active:
                active[profile_id].append(_Trauma(pk, name, kind, permanence, effect))
            if chapter_id == chapter.pk:
                gained[profile_id] += 1
    # The encounter log in one query, grouped by who rolled and whom it hit: damage dealt
    # is damage to a target (as the log totals it), damage taken is a target's.
    dealt: dict[int, tuple[int, int]] = {}
    taken: dict[int, int] = {}
    for player_id, target_id, damage, rolls in (
        EncounterEvent.objects.filter(chapter=chapter)
        .values("player_id", "target_id")
        .annotate(damage=Sum("damage", default=0), rolls=Count("pk"))
        .values_list("player_id", "target_id", "damage", "rolls")
        .order_by()
    ):
        so_far, rolled = dealt.get(player_id, (0, 0))
        dealt[player_id] = (so_far + (damage if target_id is not None else 0), rolled + rolls)
        if target_id is not None:
            taken[target_id] = taken.get(target_id, 0) + damage
    played_in_chronique = bool(dealt)
    rule = _survival_rule(campaign)
    records = {
        o.player_id: record_of(o.player_id, o.result, o.side, o.record or {}) for o in outcomes
    }
    settled = game.settle(list(records.values()))
    participants = []
    zombie_types = ZombieType.values
    for outcome in outcomes:
        has_profile = with_profiles and outcome.profile_id is not None
        kills = dict.fromkeys(zombie_types, 0)
        for kind, count in (outcome.kills or {}).items():
            if kind in kills:
                kills[kind] += int(count)
        points = (
            survival_points(result=outcome.result, died=outcome.died, rule=rule)
            if with_profiles
            else 0
        )
        changes: tuple[TraumaChange, ...] = ()
        sheet_before = sheet_after = None
        status_before = status_after = None
        survival_before = survival_after = None
        if has_profile:
            fate = trauma_fate(outcome.result)
            traumas = active.get(outcome.profile_id, [])
            changes = tuple(
                TraumaChange(trauma_id=t.pk, name=t.name, kind=t.kind, fate=fate, effect=t.effect)
                for t in traumas
                if t.permanence == TraumaPermanence.TEMPORARY
            )
            healed = {c.trauma_id for c in changes if c.fate == TraumaFate.HEAL}
            attributes = {  # the profile's base attributes (Profile.base_attributes)
                "physique": outcome.physique,
                "psychique": outcome.psychique,
                "reflexes": outcome.reflexes,
                "combat": outcome.combat,
            }
            sheet_before = effects.sheet_numbers(attributes, [t.effect for t in traumas])
            sheet_after = effects.sheet_numbers(
                attributes, [t.effect for t in traumas if t.pk not in healed]
            )
            status_before = outcome.status
            status_after = ProfileStatus.DEAD if outcome.died else outcome.status
            survival_before = outcome.survival_points
            survival_after = (outcome.ledger or 0) + points
        damage, rolls = dealt.get(outcome.player_id, (0, 0))
        record, figures = records[outcome.player_id], settled[outcome.player_id]
        fates = record.members if game.roster is Roster.UNIT else ()
        participants.append(
            ParticipantPlan(
                player_id=outcome.player_id,
                name=outcome.display_name or outcome.username,
                profile_id=outcome.profile_id if has_profile else None,
                result=outcome.result,
                died=outcome.died,
                side=outcome.side,
                kills=kills,
                kills_total=sum(kills.values()),
                survival_points=points if with_profiles else 0,
                survival_before=survival_before,
                survival_after=survival_after,
                status_before=status_before,
                status_after=status_after,
                trauma_changes=changes,
                traumas_gained=gained.get(outcome.profile_id, 0) if has_profile else 0,
                sheet_before=sheet_before,
                sheet_after=sheet_after,
                damage_dealt=damage if played_in_chronique else None,
                damage_taken=taken.get(outcome.player_id, 0) if played_in_chronique else None,
                rolls=rolls if played_in_chronique else None,
                value_destroyed=figures.value_destroyed,
                value_lost=figures.value_lost,
                characters_lost=figures.characters_lost,
                xp=figures.xp,
                entry=record.entry,
                members_lost=tuple(m.name for m in fates if m.lost),
                members_wounded=tuple(m.name for m in fates if m.wounded and not m.lost),
                members_changed_side=tuple(m.name for m in fates if m.changed_side),
                avatar_lost=any(m.avatar and m.lost for m in fates),
                squad_losses=tuple(
                    (m.name, m.lost, m.figures)
                    for m in record.members
                    if game.roster is Roster.ARMY and m.lost
                ),
            )
        )
    departures = tuple(system.departures(chapter))
    return SettlementPlan(
        chapter_id=chapter.pk,
        campaign_id=campaign.pk,
        system=campaign.system,
        played_in_chronique=played_in_chronique,
        participants=tuple(participants),
        departures=departures,
    )

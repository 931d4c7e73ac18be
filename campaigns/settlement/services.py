"""The post-chapter settlement (issue 6): the only writer of the ledger and of `settled_at`.

After `chapter_close`, an organiser reads the preview (`settlement_plan`), then confirms
(`settlement_request`), which enqueues `campaigns.settlement.tasks.chapter_settle` on
commit. The task calls `settlement_apply`, which does everything in ONE transaction:

1. claim the chapter: `SELECT ... FOR UPDATE` on its row; a chapter whose `settled_at` is
   set is already settled and the call is a no-op (a second delivery, a retry, a
   redelivery after a crash after the commit);
2. recompute the plan under the lock, and write every effect through the profile services
   (traumas healed or made permanent, deaths), one ledger row per participant (unique
   among rows not reverted: a second writer would fail, never double), survival points
   and statistics recomputed from the ledger (never a delta), KOLAPS characters lost
   taken out of their units (`unit_remove_lost`);
3. set `settled_at`.

A worker killed anywhere in between leaves nothing (the transaction rolls back with the
connection); the redelivered task then does it all. Reopening (`settlement_reopen`)
reverts the recorded effects (KOLAPS characters lost come back to their units with
`unit_restore_lost`), marks the ledger rows reverted and clears `settled_at`;
settling again gives the same result. docs/settlement.md tells the whole design.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    CampaignEvent,
    Chapter,
    ChapterOutcome,
    ChapterSettlement,
    ChapterStatus,
    ChapterUnitResult,
    EncounterEvent,
    SettlementEntry,
    SettlementStatus,
)
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.settlement.models import ZOMBIE_KILL_FIELDS
from campaigns.statistics.services import statistics_recompute
from characters.models import Profile, ProfileStatus, Trauma, TraumaPermanence
from characters.permissions import Refusal, require
from characters.profiles.services import (
    profile_set_status,
    profile_set_survival_points,
    trauma_heal,
    trauma_make_permanent,
    trauma_make_temporary,
    trauma_unheal,
)
from rules.engine.systems.of_the_dead import effects
from rules.engine.systems.of_the_dead.settlement import (
    DeathChoice,
    SurvivalRule,
    TraumaFate,
    survival_points,
    trauma_fate,
)

PROFILE_SYSTEMS = ("of-the-dead",)
KOLAPS = "kolaps"


def _checkpoint(step: str) -> None:
    """A named point of the settlement. Does nothing unless the test-only setting
    SETTLEMENT_CHECKPOINT_DIR is set: the worker tests then pause the task here to kill it
    (campaigns.settlement.checkpoints)."""
    if settings.SETTLEMENT_CHECKPOINT_DIR:
        from campaigns.settlement.checkpoints import reached

        reached(settings.SETTLEMENT_CHECKPOINT_DIR, step)


# --- The plan (what the preview shows and what the task applies) -----------------------------


@dataclass(frozen=True)
class TraumaChange:
    trauma_id: int
    name: str
    kind: str
    fate: str  # TraumaFate
    effect: dict | None


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
class UnitDeparture:
    """KOLAPS: a character lost in a chapter leaves its unit (kept in the unit's history)."""

    unit_id: int | None
    unit_name: str
    player_id: int | None
    character: str
    character_id: int | None = None


@dataclass(frozen=True)
class SettlementPlan:
    chapter_id: int
    campaign_id: int
    system: str
    played_in_chronique: bool
    participants: tuple[ParticipantPlan, ...]
    departures: tuple[UnitDeparture, ...] = field(default_factory=tuple)


def kolaps_unit_departures(unit_results: Iterable[ChapterUnitResult]) -> list[UnitDeparture]:
    """KOLAPS campaigns: every character a unit lost leaves it. Reads the close record
    (`ChapterUnitResult.losses`, `[{"id", "name"}]`); `settlement_apply` hands the ids to
    `characters.kolaps.services.unit_remove_lost`."""
    return [
        UnitDeparture(
            unit_id=row.unit_id,
            unit_name=row.unit_name,
            player_id=row.player_id,
            character=loss.get("name", ""),
            character_id=loss.get("id"),
        )
        for row in sorted(unit_results, key=lambda r: (r.unit_id or 0, r.pk))
        for loss in row.losses
    ]


def _survival_rule(campaign) -> SurvivalRule:
    return SurvivalRule(
        survive=campaign.survival_points_survive, victory=campaign.survival_points_victory
    )


def settlement_plan(chapter: Chapter) -> SettlementPlan:
    """Every change the settlement of `chapter` makes, computed and not written.

    Seven queries whatever the number of participants: outcomes (with players and
    profiles), active traumas, traumas noted in the chapter, survival points in the
    ledger, encounter damage and rolls (two), unit results.
    """
    campaign = chapter.campaign
    outcomes = list(
        ChapterOutcome.objects.filter(chapter=chapter)
        .select_related("player", "player__otd_profile")
        .order_by("player_id")
    )
    with_profiles = campaign.system in PROFILE_SYSTEMS
    profiles: dict[int, Profile] = {}
    if with_profiles:
        for outcome in outcomes:
            profile = getattr(outcome.player, "otd_profile", None)
            if profile is not None:
                profiles[outcome.player_id] = profile
    profile_ids = [p.pk for p in profiles.values()]
    active: dict[int, list[Trauma]] = defaultdict(list)
    gained: dict[int, int] = {}
    survival_sum: dict[int, int] = {}
    if profile_ids:
        for trauma in Trauma.objects.filter(profile_id__in=profile_ids, active=True).order_by(
            "created_at", "pk"
        ):
            active[trauma.profile_id].append(trauma)
        gained = dict(
            Trauma.objects.filter(profile_id__in=profile_ids, chapter=chapter)
            .values("profile_id")
            .annotate(n=Count("pk"))
            .values_list("profile_id", "n")
        )
        survival_sum = dict(
            SettlementEntry.objects.filter(profile_id__in=profile_ids, reverted_at__isnull=True)
            .values("profile_id")
            .annotate(total=Sum("survival_points"))
            .values_list("profile_id", "total")
        )
    dealt = {
        row["player_id"]: (row["damage"], row["rolls"])
        for row in EncounterEvent.objects.filter(chapter=chapter)
        .values("player_id")
        # Damage dealt is damage to a target, as the encounter log totals it.
        .annotate(
            damage=Sum("damage", filter=Q(target__isnull=False), default=0), rolls=Count("pk")
        )
    }
    taken = dict(
        EncounterEvent.objects.filter(chapter=chapter, target__isnull=False)
        .values("target_id")
        .annotate(damage=Sum("damage"))
        .values_list("target_id", "damage")
    )
    played_in_chronique = bool(dealt)
    rule = _survival_rule(campaign)
    participants = []
    for outcome in outcomes:
        profile = profiles.get(outcome.player_id)
        kills = {name.removeprefix("kills_"): 0 for name in ZOMBIE_KILL_FIELDS}
        for kind, count in (outcome.kills or {}).items():
            if kind in kills:
                kills[kind] += int(count)
        points = survival_points(result=outcome.result, died=outcome.died, rule=rule)
        changes: tuple[TraumaChange, ...] = ()
        sheet_before = sheet_after = None
        status_before = status_after = None
        survival_before = survival_after = None
        if profile is not None:
            fate = trauma_fate(outcome.result)
            traumas = active.get(profile.pk, [])
            changes = tuple(
                TraumaChange(
                    trauma_id=t.pk, name=t.name, kind=t.kind, fate=fate.value, effect=t.effect
                )
                for t in traumas
                if t.permanence == TraumaPermanence.TEMPORARY
            )
            healed = {c.trauma_id for c in changes if c.fate == TraumaFate.HEAL}
            sheet_before = effects.sheet_numbers(
                profile.base_attributes, [t.effect for t in traumas]
            )
            sheet_after = effects.sheet_numbers(
                profile.base_attributes, [t.effect for t in traumas if t.pk not in healed]
            )
            status_before = profile.status
            status_after = ProfileStatus.DEAD if outcome.died else profile.status
            survival_before = profile.survival_points
            survival_after = survival_sum.get(profile.pk, 0) + points
        damage, rolls = dealt.get(outcome.player_id, (0, 0))
        participants.append(
            ParticipantPlan(
                player_id=outcome.player_id,
                name=outcome.player.public_name,
                profile_id=profile.pk if profile else None,
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
                traumas_gained=gained.get(profile.pk, 0) if profile else 0,
                sheet_before=sheet_before,
                sheet_after=sheet_after,
                damage_dealt=damage if played_in_chronique else None,
                damage_taken=taken.get(outcome.player_id, 0) if played_in_chronique else None,
                rolls=rolls if played_in_chronique else None,
            )
        )
    departures: tuple[UnitDeparture, ...] = ()
    if campaign.system == KOLAPS:
        departures = tuple(
            kolaps_unit_departures(ChapterUnitResult.objects.filter(chapter=chapter))
        )
    return SettlementPlan(
        chapter_id=chapter.pk,
        campaign_id=campaign.pk,
        system=campaign.system,
        played_in_chronique=played_in_chronique,
        participants=tuple(participants),
        departures=departures,
    )


# --- Asking for it -------------------------------------------------------------------------


def _require_manager(actor, chapter: Chapter) -> None:
    require(campaign_role(actor, chapter.campaign), CAN_MANAGE, visible=CAN_VIEW)


def settlement_request(*, actor, chapter: Chapter) -> ChapterSettlement:
    """The organiser confirms the preview: the settlement is queued, and its task is sent
    once this transaction commits (a rolled-back request sends nothing). Asking again
    while it is queued or running changes nothing."""
    from campaigns.settlement.tasks import chapter_settle

    _require_manager(actor, chapter)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().select_related("campaign").get(pk=chapter.pk)
        if locked.status != ChapterStatus.CLOSED:
            raise Refusal(_("Close the chapter before settling it."))
        if locked.settled_at is not None:
            raise Refusal(_("This chapter is already settled."))
        settlement = ChapterSettlement.objects.filter(chapter=locked).first()
        if settlement is not None and settlement.status in (
            SettlementStatus.QUEUED,
            SettlementStatus.RUNNING,
        ):
            return settlement
        settlement, _created = ChapterSettlement.objects.update_or_create(
            chapter=locked,
            defaults={
                "status": SettlementStatus.QUEUED,
                "requested_by": actor,
                "requested_at": timezone.now(),
                "started_at": None,
                "finished_at": None,
                "error": "",
                "summary": {},
            },
        )
        CampaignEvent.objects.create(
            campaign=locked.campaign,
            actor=actor,
            verb="settlement_requested",
            data={"chapter": locked.pk, "title": locked.title},
        )
        chapter_settle.delay_on_commit(locked.pk)
    return settlement


def settlement_mark_running(*, chapter_id: int) -> None:
    """The task started (again): shown by the progress page. Its own short transaction."""
    ChapterSettlement.objects.filter(
        chapter_id=chapter_id, status__in=[SettlementStatus.QUEUED, SettlementStatus.RUNNING]
    ).update(status=SettlementStatus.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1)


def settlement_mark_failed(*, chapter_id: int, error: str) -> None:
    """The task gave up (an error that is not transient, or retries exhausted): nothing
    was applied; the organiser may confirm again."""
    ChapterSettlement.objects.filter(chapter_id=chapter_id).exclude(
        status=SettlementStatus.DONE
    ).update(status=SettlementStatus.FAILED, finished_at=timezone.now(), error=error[:2000])


# --- Applying it, exactly once -----------------------------------------------------------------


class ApplyResult(StrEnum):
    SETTLED = "settled"
    ALREADY_SETTLED = "already_settled"
    NOT_CLOSED = "not_closed"


def settlement_apply(*, chapter_id: int) -> ApplyResult:
    """Settle the chapter in one transaction, or do nothing if it is settled already."""
    with transaction.atomic():
        chapter = (
            Chapter.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .filter(pk=chapter_id)
            .first()
        )
        if chapter is None or chapter.status != ChapterStatus.CLOSED:
            return ApplyResult.NOT_CLOSED
        if chapter.settled_at is not None:
            return ApplyResult.ALREADY_SETTLED
        _checkpoint("claimed")
        plan = settlement_plan(chapter)
        now = timezone.now()
        traumas = {
            t.pk: t
            for t in Trauma.objects.filter(
                pk__in=[c.trauma_id for p in plan.participants for c in p.trauma_changes]
            ).select_related("profile")
        }
        profiles = {
            p.pk: p
            for p in Profile.objects.filter(
                pk__in=[p.profile_id for p in plan.participants if p.profile_id]
            )
        }
        entries = []
        for index, participant in enumerate(plan.participants):
            applied = []
            for change in participant.trauma_changes:
                trauma = traumas[change.trauma_id]
                if change.fate == TraumaFate.HEAL:
                    trauma_heal(actor=None, trauma=trauma, chapter=chapter)
                    applied.append({"op": "trauma_healed", "trauma": trauma.pk})
                else:
                    trauma_make_permanent(actor=None, trauma=trauma, chapter=chapter)
                    applied.append({"op": "trauma_made_permanent", "trauma": trauma.pk})
            if participant.profile_id and participant.status_after != participant.status_before:
                profile_set_status(
                    actor=None,
                    profile=profiles[participant.profile_id],
                    status=participant.status_after,
                    chapter=chapter,
                )
                applied.append(
                    {
                        "op": "status",
                        "before": participant.status_before,
                        "after": participant.status_after,
                    }
                )
            entries.append(_entry(chapter, participant, applied, now))
            _checkpoint(f"participant-{index}")
        SettlementEntry.objects.bulk_create(entries)
        _checkpoint("ledger")
        _survival_points_recompute(chapter, profiles.values())
        _checkpoint("survival-points")
        statistics_recompute(
            player_ids=[p.player_id for p in plan.participants], campaign_id=chapter.campaign_id
        )
        _checkpoint("statistics")
        _record_departures(chapter, plan.departures)
        chapter.settled_at = now
        chapter.save(update_fields=["settled_at"])
        summary = _summary(plan)
        ChapterSettlement.objects.update_or_create(
            chapter=chapter,
            defaults={"status": SettlementStatus.DONE, "finished_at": now, "summary": summary},
        )
        CampaignEvent.objects.create(
            campaign=chapter.campaign,
            actor=None,
            verb="chapter_settled",
            data={"chapter": chapter.pk, "title": chapter.title, **summary},
        )
        _checkpoint("before-commit")
    _checkpoint("committed")
    return ApplyResult.SETTLED


def _entry(chapter, participant: ParticipantPlan, applied: list, now) -> SettlementEntry:
    return SettlementEntry(
        chapter=chapter,
        campaign_id=chapter.campaign_id,
        player_id=participant.player_id,
        profile_id=participant.profile_id,
        result=participant.result,
        died=participant.died,
        survived=participant.survived,
        won=participant.won,
        survival_points=participant.survival_points,
        kills_total=participant.kills_total,
        **{f"kills_{kind}": count for kind, count in participant.kills.items()},
        traumas_gained=participant.traumas_gained,
        traumas_healed=participant.traumas_healed,
        traumas_permanent=participant.traumas_permanent,
        damage_dealt=participant.damage_dealt,
        damage_taken=participant.damage_taken,
        rolls=participant.rolls,
        effects=applied,
        settled_at=now,
    )


def _summary(plan: SettlementPlan) -> dict:
    return {
        "participants": len(plan.participants),
        "victories": sum(1 for p in plan.participants if p.won),
        "deaths": sum(1 for p in plan.participants if p.died),
        "traumas_healed": sum(p.traumas_healed for p in plan.participants),
        "traumas_permanent": sum(p.traumas_permanent for p in plan.participants),
        "survival_points": sum(p.survival_points for p in plan.participants),
        "departures": len(plan.departures),
    }


def _survival_points_recompute(chapter, profiles: Iterable[Profile]) -> None:
    """Each profile's survival points, summed from the ledger (one query), stored through
    the profile service."""
    profiles = list(profiles)
    totals = dict(
        SettlementEntry.objects.filter(
            profile_id__in=[p.pk for p in profiles], reverted_at__isnull=True
        )
        .values("profile_id")
        .annotate(total=Sum("survival_points"))
        .values_list("profile_id", "total")
    )
    for profile in sorted(profiles, key=lambda p: p.pk):
        profile_set_survival_points(
            actor=None, profile=profile, points=int(totals.get(profile.pk) or 0), chapter=chapter
        )


def _lost_by_unit(departures: Iterable[UnitDeparture]) -> dict[int, list[int]]:
    lost: dict[int, list[int]] = defaultdict(list)
    for d in departures:
        if d.unit_id is not None and d.character_id is not None:
            lost[d.unit_id].append(d.character_id)
    return dict(sorted(lost.items()))


def _record_departures(chapter, departures: Iterable[UnitDeparture]) -> None:
    """KOLAPS: the characters lost leave their unit through the units service (kept in the
    unit's history, VU recomputed), in this same transaction; one campaign history line
    per character. A unit deleted since the close has nobody left to take out."""
    from characters.kolaps.models import KolapsUnit
    from characters.kolaps.services import unit_remove_lost

    departures = list(departures)
    lost = _lost_by_unit(departures)
    for unit in KolapsUnit.objects.filter(pk__in=list(lost)).order_by("pk"):
        unit_remove_lost(actor=None, unit=unit, character_ids=lost[unit.pk], chapter=chapter)
    CampaignEvent.objects.bulk_create(
        CampaignEvent(
            campaign_id=chapter.campaign_id,
            actor=None,
            verb="unit_member_left",
            data={
                "chapter": chapter.pk,
                "unit": d.unit_id,
                "unit_name": d.unit_name,
                "character": d.character,
                "character_id": d.character_id,
            },
        )
        for d in departures
    )


def _restore_departures(chapter) -> int:
    """Reopening: the characters this chapter's settlement took out of their units come
    back (`unit_restore_lost` reads the units' history, so only those it removed)."""
    from characters.kolaps.models import KolapsUnit
    from characters.kolaps.services import unit_restore_lost

    if chapter.campaign.system != KOLAPS:
        return 0
    lost = _lost_by_unit(kolaps_unit_departures(ChapterUnitResult.objects.filter(chapter=chapter)))
    for unit in KolapsUnit.objects.filter(pk__in=list(lost)).order_by("pk"):
        unit_restore_lost(actor=None, unit=unit, character_ids=lost[unit.pk], chapter=chapter)
    return sum(len(ids) for ids in lost.values())


# --- Reopening -------------------------------------------------------------------------------


def settlement_reopen(*, actor, chapter: Chapter) -> Chapter:
    """The organiser reopens a settled chapter: every recorded effect is reverted (in the
    reverse order), its ledger rows are marked reverted, survival points and statistics
    are recomputed from the ledger, and the chapter awaits its settlement again."""
    _require_manager(actor, chapter)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update(of=("self",)).select_related("campaign")
        locked = locked.get(pk=chapter.pk)
        if locked.settled_at is None:
            raise Refusal(_("This chapter is not settled: there is nothing to reopen."))
        entries = list(
            SettlementEntry.objects.filter(chapter=locked, reverted_at__isnull=True).order_by(
                "-player_id"
            )
        )
        trauma_ids = [e["trauma"] for entry in entries for e in entry.effects if "trauma" in e]
        traumas = {
            t.pk: t for t in Trauma.objects.filter(pk__in=trauma_ids).select_related("profile")
        }
        profiles = {
            p.pk: p
            for p in Profile.objects.filter(pk__in=[e.profile_id for e in entries if e.profile_id])
        }
        for entry in entries:
            for effect in reversed(entry.effects):
                if effect["op"] == "trauma_healed" and effect["trauma"] in traumas:
                    trauma_unheal(trauma=traumas[effect["trauma"]], chapter=locked)
                elif effect["op"] == "trauma_made_permanent" and effect["trauma"] in traumas:
                    trauma_make_temporary(trauma=traumas[effect["trauma"]], chapter=locked)
                elif effect["op"] == "status" and entry.profile_id in profiles:
                    profile_set_status(
                        actor=None,
                        profile=profiles[entry.profile_id],
                        status=effect["before"],
                        chapter=locked,
                    )
        now = timezone.now()
        SettlementEntry.objects.filter(pk__in=[e.pk for e in entries]).update(reverted_at=now)
        _survival_points_recompute(locked, profiles.values())
        statistics_recompute(
            player_ids=[e.player_id for e in entries], campaign_id=locked.campaign_id
        )
        _restore_departures(locked)
        locked.settled_at = None
        locked.save(update_fields=["settled_at"])
        ChapterSettlement.objects.filter(chapter=locked).update(
            status=SettlementStatus.REOPENED, finished_at=now
        )
        CampaignEvent.objects.create(
            campaign=locked.campaign,
            actor=actor,
            verb="settlement_reopened",
            data={"chapter": locked.pk, "title": locked.title, "entries": len(entries)},
        )
    return locked


# --- The dead player's choice --------------------------------------------------------------------


def death_choice_make(*, actor, choice: str) -> Profile:
    """RULES-NOTES O6: "A dead player character returns as a zombie or takes the
    reincarnation rule, the player's choice." Only the player makes it, once dead."""
    profile = Profile.objects.filter(player=actor).first() if actor.is_authenticated else None
    if profile is None:
        raise Refusal(_("You have no Of the Dead profile."), status=404)
    if choice not in DeathChoice.__members__.values():
        raise Refusal(_("Choose the zombie's return or reincarnation."), field="choice")
    if profile.status != ProfileStatus.DEAD:
        raise Refusal(_("Your character is not dead: there is no choice to make."), field="choice")
    return profile_set_status(actor=actor, profile=profile, status=choice)

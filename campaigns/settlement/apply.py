"""Applying the settlement, exactly once: the worker side of `campaigns.settlement.tasks`.

The only writer of the ledger and of `settled_at` (see campaigns.settlement.services for
the whole design). `settlement_step_reached` is sent at each named step: a receiver may
watch the settlement's progress (the worker tests pause and kill it there).
"""

from collections.abc import Iterable
from enum import StrEnum

from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone

from campaigns.models import (
    CampaignEvent,
    Chapter,
    ChapterSettlement,
    ChapterStatus,
    SettlementEntry,
    SettlementStatus,
)
from campaigns.settlement.plan import ParticipantPlan, SettlementPlan, settlement_plan
from campaigns.settlement.signals import settlement_step_reached
from campaigns.statistics.columns import RECORDED, database_values
from campaigns.statistics.services import statistics_recompute
from campaigns.systems import campaign_system
from characters.models import Profile, Trauma
from characters.profiles.services import (
    profile_set_status,
    profile_set_survival_points,
    trauma_heal,
    trauma_make_permanent,
)
from rules.engine.systems.of_the_dead.settlement import (
    TraumaFate,
)


def checkpoint(step: str) -> None:
    """A named point of the settlement, told to whoever listens (nobody, in production)."""
    settlement_step_reached.send(sender=None, step=step)


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
        checkpoint("claimed")
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
            checkpoint(f"participant-{index}")
        SettlementEntry.objects.bulk_create(entries)
        checkpoint("ledger")
        survival_points_recompute(chapter, profiles.values())
        checkpoint("survival-points")
        statistics_recompute(
            player_ids=[p.player_id for p in plan.participants], campaign_id=chapter.campaign_id
        )
        checkpoint("statistics")
        campaign_system(plan.system).depart(chapter, plan.departures)
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
        checkpoint("before-commit")
    checkpoint("committed")
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
        **database_values(participant, RECORDED),
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
        "draws": sum(1 for p in plan.participants if p.result == "draw"),
        "defeats": sum(1 for p in plan.participants if p.result == "defeat"),
        "value_lost": sum(p.value_lost for p in plan.participants),
        "characters_lost": sum(p.characters_lost for p in plan.participants),
        "xp": sum(p.xp for p in plan.participants),
    }


def survival_points_recompute(chapter, profiles: Iterable[Profile]) -> None:
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

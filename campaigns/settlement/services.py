"""The post-chapter settlement: what an organiser or a player asks of it.

After `chapter_close`, an organiser reads the preview (`campaigns.settlement.plan`), then
confirms (`settlement_request`), which enqueues `campaigns.settlement.tasks.chapter_settle`
on commit. The task calls `campaigns.settlement.apply.settlement_apply`, the only writer of
the ledger and of `settled_at`, which does everything in ONE transaction:

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

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    CampaignEvent,
    Chapter,
    ChapterSettlement,
    ChapterStatus,
    SettlementEntry,
    SettlementStatus,
)
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.settlement.apply import survival_points_recompute
from campaigns.settlement.tasks import chapter_settle
from campaigns.statistics.services import statistics_recompute
from campaigns.systems import campaign_system
from characters.models import Profile, ProfileStatus, Trauma
from characters.permissions import Refusal, require
from characters.profiles.services import (
    profile_set_status,
    trauma_make_temporary,
    trauma_unheal,
)
from rules.engine.systems.of_the_dead.settlement import (
    DeathChoice,
)

# --- Asking for it -------------------------------------------------------------------------


def _require_manager(actor, chapter: Chapter) -> None:
    require(campaign_role(actor, chapter.campaign), CAN_MANAGE, visible=CAN_VIEW)


def settlement_request(*, actor, chapter: Chapter) -> ChapterSettlement:
    """The organiser confirms the preview: the settlement is queued, and its task is sent
    once this transaction commits (a rolled-back request sends nothing). Asking again
    while it is queued or running changes nothing, unless it has been so for longer than
    a task may live: its worker died unseen, and it is queued again."""

    _require_manager(actor, chapter)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().select_related("campaign").get(pk=chapter.pk)
        if locked.status != ChapterStatus.CLOSED:
            raise Refusal(_("Close the chapter before settling it."))
        if locked.settled_at is not None:
            raise Refusal(_("This chapter is already settled."))
        settlement = ChapterSettlement.objects.filter(chapter=locked).first()
        if (
            settlement is not None
            and settlement.status in (SettlementStatus.QUEUED, SettlementStatus.RUNNING)
            and not settlement.is_stale
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
                trauma = traumas.get(effect.get("trauma"))
                if trauma is not None and trauma.profile_id != entry.profile_id:
                    continue  # only what the settlement set: on the entry's own sheet
                if effect["op"] == "trauma_healed" and trauma is not None:
                    trauma_unheal(trauma=trauma, chapter=locked)
                elif effect["op"] == "trauma_made_permanent" and trauma is not None:
                    trauma_make_temporary(trauma=trauma, chapter=locked)
                elif effect["op"] == "status" and _status_set_here(
                    effect, profiles.get(entry.profile_id)
                ):
                    profile_set_status(
                        actor=None,
                        profile=profiles[entry.profile_id],
                        status=effect["before"],
                        chapter=locked,
                    )
        now = timezone.now()
        SettlementEntry.objects.filter(pk__in=[e.pk for e in entries]).update(reverted_at=now)
        survival_points_recompute(locked, profiles.values())
        statistics_recompute(
            player_ids=[e.player_id for e in entries], campaign_id=locked.campaign_id
        )
        campaign_system(locked.campaign.system).restore(locked)
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


def _status_set_here(effect: dict, profile: Profile | None) -> bool:
    """The sheet still holds the status this settlement set (or the death choice only that
    death opened), and the one it reverts to is one of the rules' states: a reopen never
    changes a status that another chapter, or a ledger row not written here, set."""
    after, before = effect.get("after"), effect.get("before")
    if profile is None or before not in ProfileStatus.values:
        return False
    if after == ProfileStatus.DEAD:
        return profile.status in (ProfileStatus.DEAD, *DeathChoice.__members__.values())
    return profile.status == after


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

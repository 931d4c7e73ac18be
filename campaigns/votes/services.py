"""The only writer of votes: on the next chapter of a campaign, or on a chapter's vocations
(Of the Dead). Same rules as `campaigns.services`: validate, one transaction, append a
`CampaignEvent`. The counts are pure functions (`count_next_chapter`, `count_vocations`) so
that their tie rules are tested on their own; docs/of-the-dead.md states them.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Ballot,
    Campaign,
    Chapter,
    ChapterStatus,
    VocationAssignment,
    VocationSource,
    Vote,
    VoteKind,
    VoteStatus,
)
from campaigns.permissions import CAN_VIEW, CAN_VOTE, campaign_role
from campaigns.services import _record, player_ids, require_manager, require_open
from characters.models import Vocation
from characters.permissions import Refusal, require
from rules.engine.systems import uses_profiles
from rules.engine.systems.of_the_dead.votes import count_next_chapter, count_vocations


def vote_open(
    *,
    actor,
    campaign: Campaign,
    kind: str,
    candidates: Sequence[Chapter] = (),
    chapter: Chapter | None = None,
    closes_at: datetime | None = None,
) -> Vote:
    """Open a vote: on the next chapter among `candidates` (two or more planned chapters),
    or on the vocations of `chapter`. One open vote of a kind at a time (per chapter for
    vocations). With `closes_at` (in the future) the vote closes itself then
    (`votes_close_due`), and its players are reminded the day before."""
    require_manager(actor, campaign)
    if kind not in VoteKind.values:
        raise Refusal(_("Unknown kind of vote."), field="kind")
    if kind == VoteKind.VOCATIONS and not uses_profiles(campaign.system):
        raise Refusal(_("Vocations are voted on in Of the Dead campaigns only."), field="kind")
    if closes_at is not None and closes_at <= timezone.now():
        raise Refusal(_("This closing date is already past."), field="closes_at")
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        open_votes = locked.votes.filter(status=VoteStatus.OPEN, kind=kind)
        if kind == VoteKind.NEXT_CHAPTER:
            ids = {c.pk for c in candidates}
            valid = set(
                locked.chapters.filter(pk__in=ids, status=ChapterStatus.PLANNED).values_list(
                    "pk", flat=True
                )
            )
            if len(ids) < 2 or valid != ids:
                raise Refusal(
                    _("Choose two planned chapters of this campaign or more."),
                    field="candidates",
                )
            if open_votes.exists():
                raise Refusal(_("A vote on the next chapter is already open."), field="kind")
            vote = Vote.objects.create(
                campaign=locked, kind=kind, opened_by=actor, closes_at=closes_at
            )
            vote.candidates.set(sorted(ids))
            data = {"candidates": sorted(ids)}
        else:
            if chapter is None or chapter.campaign_id != locked.pk:
                raise Refusal(_("Choose a chapter of this campaign."), field="chapter")
            require_open(chapter, _("This chapter is closed."), field="chapter")
            if open_votes.filter(chapter=chapter).exists():
                raise Refusal(
                    _("A vote on this chapter's vocations is already open."), field="chapter"
                )
            vote = Vote.objects.create(
                campaign=locked, kind=kind, chapter=chapter, opened_by=actor, closes_at=closes_at
            )
            data = {"chapter": chapter.pk}
        if closes_at is not None:
            data["closes_at"] = closes_at.isoformat()
        _record(campaign=locked, actor=actor, verb="vote_opened", vote=vote.pk, kind=kind, **data)
    return vote


def ballot_cast(
    *,
    voter,
    vote: Vote,
    chapter: Chapter | None = None,
    vocation: str = "",
    nominee=None,
) -> Ballot:
    """A participant votes (again: the new ballot replaces theirs) while the vote is open."""
    campaign = vote.campaign
    require(campaign_role(voter, campaign), CAN_VOTE, visible=CAN_VIEW)
    with transaction.atomic():
        locked = Vote.objects.select_for_update().get(pk=vote.pk)
        # Past its closing date a vote takes no ballot, even before the task has closed it.
        if locked.status != VoteStatus.OPEN or _past_closing(locked, timezone.now()):
            raise Refusal(_("This vote is closed."))
        if locked.kind == VoteKind.NEXT_CHAPTER:
            if chapter is None or not locked.candidates.filter(pk=chapter.pk).exists():
                raise Refusal(_("Vote for one of the candidate chapters."), field="chapter")
            if not locked.candidates.filter(pk=chapter.pk, status=ChapterStatus.PLANNED).exists():
                raise Refusal(
                    _("This chapter is already played: vote for one still to play."),
                    field="chapter",
                )
            ballot, _created = Ballot.objects.update_or_create(
                vote=locked, voter=voter, vocation="", defaults={"chapter": chapter}
            )
        else:
            if vocation not in Vocation.values:
                raise Refusal(_("Choose a vocation."), field="vocation")
            if nominee is None or nominee.pk not in player_ids(campaign):
                raise Refusal(_("Choose a player of this campaign."), field="nominee")
            ballot, _created = Ballot.objects.update_or_create(
                vote=locked, voter=voter, vocation=vocation, defaults={"nominee": nominee}
            )
        # History without the choice: ballots stay secret until the vote closes.
        _record(campaign=campaign, actor=voter, verb="ballot_cast", vote=locked.pk)
    return ballot


def ballots_cast(*, voter, vote: Vote, nominations: Mapping[str, object]) -> list[Ballot]:
    """A participant's whole vocation ballot (vocation -> nominee) in one transaction: every
    choice is cast, or none is. A refusal names the vocation it is about."""
    ballots = []
    with transaction.atomic():
        for vocation, nominee in nominations.items():
            try:
                ballots.append(
                    ballot_cast(voter=voter, vote=vote, vocation=vocation, nominee=nominee)
                )
            except Refusal as refusal:
                if refusal.field == "nominee":
                    refusal.field = vocation
                raise
    return ballots


def vote_set_closing(*, actor, vote: Vote, closes_at: datetime | None) -> Vote:
    """An organiser sets, moves or removes (None) the date an open vote closes itself. A
    date already past is refused; the "about to close" reminder still goes once per vote
    (a vote that already reminded its players does not remind them again)."""
    require_manager(actor, vote.campaign)
    if closes_at is not None and closes_at <= timezone.now():
        raise Refusal(_("This closing date is already past."), field="closes_at")
    with transaction.atomic():
        locked = Vote.objects.select_for_update().select_related("campaign").get(pk=vote.pk)
        if locked.status != VoteStatus.OPEN:
            raise Refusal(_("This vote is closed."), field="closes_at")
        if locked.closes_at == closes_at:
            return locked
        locked.closes_at = closes_at
        fields = ["closes_at"]
        if locked.reminded_at is not None and (
            closes_at is None or closes_at > timezone.now() + settings.VOTE_REMINDER_BEFORE
        ):
            # Moved beyond the reminder's window: its players are reminded again before
            # the new date.
            locked.reminded_at = None
            fields.append("reminded_at")
        locked.save(update_fields=fields)
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb="vote_closing_set",
            vote=locked.pk,
            kind=locked.kind,
            closes_at=closes_at.isoformat() if closes_at else None,
        )
    return locked


def _past_closing(vote: Vote, now: datetime) -> bool:
    return vote.closes_at is not None and vote.closes_at <= now


def vote_close(*, actor, vote: Vote) -> Vote:
    """Close a vote and keep its result; a vocation vote gives the vocations it decided."""
    require_manager(actor, vote.campaign)
    with transaction.atomic():
        locked = Vote.objects.select_for_update().select_related("campaign").get(pk=vote.pk)
        if locked.status != VoteStatus.OPEN:
            raise Refusal(_("This vote is already closed."))
        _close(locked, actor=actor)
    return locked


def votes_close_due(*, now: datetime | None = None) -> list[int]:
    """Close every open vote whose closing date has come (what the periodic task runs);
    each under its row's lock, so a vote closed meanwhile, by an organiser or another run,
    is left as it is. The history line has no actor: the date closed it. Returns the ids
    of the votes it closed."""
    now = now or timezone.now()
    due = Vote.objects.filter(status=VoteStatus.OPEN, closes_at__lte=now).order_by("closes_at")
    return [pk for pk in list(due.values_list("pk", flat=True)) if vote_close_if_due(pk, now=now)]


def vote_close_if_due(pk: int, *, now: datetime | None = None) -> bool:
    """Close the vote `pk` if it is open and its closing date has come; True if this call
    closed it. What the periodic task does for each vote, and what reading a vote does
    first (`campaigns.votes.cards.vote_card`): a vote's state follows its date
    wherever it is read, whether or not a beat runs."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = (
            Vote.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("campaign")
            .filter(pk=pk, status=VoteStatus.OPEN, closes_at__lte=now)
            .first()
        )
        if locked is None:
            return False
        _close(locked, actor=None)
    return True


def _close(locked: Vote, *, actor) -> None:
    """Count the ballots of a locked open vote, keep the result, write the line."""
    if locked.kind == VoteKind.NEXT_CHAPTER:
        rows = list(locked.candidates.values_list("pk", "number", "status"))
        ballots = list(locked.ballots.values_list("chapter_id", flat=True))
        counted = count_next_chapter(
            ballots,
            [(pk, number) for pk, number, _status in rows],
            played={pk for pk, _number, status in rows if status != ChapterStatus.PLANNED},
        )
        locked.result = {
            "counts": {str(pk): n for pk, n in counted.counts.items()},
            "winner": counted.winner,
            "tied": counted.tied,
        }
        locked.winner_id = counted.winner
    else:
        chapter = Chapter.objects.select_for_update().get(pk=locked.chapter_id)
        taken = dict(chapter.vocations.values_list("player_id", "vocation"))
        # The counts are kept; a chapter closed meanwhile keeps its record unchanged.
        closed = chapter.status == ChapterStatus.CLOSED
        counted = count_vocations(
            list(locked.ballots.values_list("vocation", "nominee_id")),
            player_ids(locked.campaign),
            taken,
            vocations=Vocation.values,
        )
        for player_id, vocation in ({} if closed else counted.assignments).items():
            VocationAssignment.objects.create(
                chapter=chapter,
                player_id=player_id,
                vocation=vocation,
                source=VocationSource.VOTED,
            )
        locked.result = {
            "counts": [
                [vocation, player_id, n] for (vocation, player_id), n in counted.counts.items()
            ],
            "assignments": {str(pk): v for pk, v in counted.assignments.items()},
        }
    locked.status = VoteStatus.CLOSED
    locked.closed_at = timezone.now()
    locked.save(update_fields=["status", "closed_at", "result", "winner"])
    _record(
        campaign=locked.campaign,
        actor=actor,
        verb="vote_closed",
        vote=locked.pk,
        kind=locked.kind,
        result=locked.result,
    )

"""Fetch and authorise a server roll: a player sees their own rolls, anyone else gets a 404;
and where a player may record one (the chapters being played in their campaigns)."""

from dataclasses import dataclass

from django.http import Http404

from campaigns.models import Chapter, ChapterStatus, MembershipRole
from rules.rolls.models import RollRecord


def roll_get_for_user(user, pk: int) -> RollRecord:
    record = RollRecord.objects.for_user(user).filter(pk=pk).first()
    if record is None:
        raise Http404
    return record


@dataclass(frozen=True)
class PlayingChapter:
    id: int
    title: str
    campaign: str


def chapters_being_played(user, system: str | None = None) -> list[PlayingChapter]:
    """The chapters being played in the campaigns where `user` is a player: where a server
    roll of theirs can be recorded; with `system`, only that system's campaigns (a Rapid
    40000 roll has nothing to do in a KOLAPS encounter). One query."""
    if not user.is_authenticated:
        return []
    chapters = Chapter.objects.filter(
        status=ChapterStatus.CURRENT,
        campaign__memberships__player=user,
        campaign__memberships__role=MembershipRole.PLAYER,
    )
    if system is not None:
        chapters = chapters.filter(campaign__system=system)
    rows = chapters.order_by("campaign__name", "number").values_list(
        "pk", "title", "campaign__name"
    )
    return [PlayingChapter(pk, title, campaign) for pk, title, campaign in rows]

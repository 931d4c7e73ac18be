"""What a vote's page shows: its options, the ballots so far, the reader's own (a vote
whose closing date has come is closed first, `vote_close_if_due`)."""

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from campaigns.models import Ballot, VocationAssignment, Vote, VoteKind, VoteStatus
from campaigns.permissions import CAN_MANAGE, campaign_role, members_of
from campaigns.votes.services import vote_close_if_due
from characters.models import Vocation
from characters.permissions import Role


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    count: int | None  # shown once the vote is closed, or to organisers


@dataclass(frozen=True)
class VoteCard:
    id: int
    campaign_id: int
    campaign_name: str
    kind: str
    status: str
    chapter_id: int | None
    chapter_title: str
    opened_at: datetime
    closed_at: datetime | None
    closes_at: datetime | None  # when it closes itself; None: the organisers close it
    candidates: list[Option]  # next chapter: chapter ids
    vocations: list[Option]
    players: list[Option]  # vocation vote: nominees
    my_chapter: int | None
    my_nominations: dict[str, int]  # vocation -> nominee id
    result: dict | None
    winner_title: str
    assignments: list[tuple[str, str]] = field(default_factory=list)  # (player, vocation)
    can_manage: bool = False
    can_vote: bool = False
    ballots: int = 0

    @property
    def is_open(self) -> bool:
        return self.status == VoteStatus.OPEN and not (
            self.closes_at is not None and self.closes_at <= timezone.now()
        )


def vote_card(user, vote: Vote) -> VoteCard:
    """What `user` sees of a vote they may see (`vote_get_for_user`, which reads its campaign,
    chapter and winner), in four queries: the memberships, the candidates, the ballots, the
    vocation assignments it produced. A vote whose closing date has come is closed first
    (its ballots counted): it reads closed, with its result, whether or not a beat ran."""
    if vote.status == VoteStatus.OPEN and vote.closes_at and vote.closes_at <= timezone.now():
        vote_close_if_due(vote.pk)
        vote.refresh_from_db()
    campaign = vote.campaign
    members = members_of(campaign)
    player_rows = members.players
    roles = campaign_role(user, campaign, members=members)
    can_manage = bool(roles & CAN_MANAGE)
    show_counts = can_manage or vote.status == VoteStatus.CLOSED
    ballots = list(
        Ballot.objects.filter(vote=vote).values_list(
            "voter_id", "chapter_id", "vocation", "nominee_id"
        )
    )
    me = getattr(user, "pk", None)
    candidates, vocations, players = [], [], []
    if vote.kind == VoteKind.NEXT_CHAPTER:
        for chapter_pk, number, title in vote.candidates.order_by("number").values_list(
            "pk", "number", "title"
        ):
            count = sum(1 for b in ballots if b[1] == chapter_pk)
            candidates.append(
                Option(str(chapter_pk), f"{number}. {title}", count if show_counts else None)
            )
    else:
        vocations = [Option(value, label, None) for value, label in Vocation.choices]
        players = [Option(str(member.id), member.name, None) for member in player_rows]
    assignments = []
    if vote.kind == VoteKind.VOCATIONS and vote.chapter_id:
        assignments = [
            (display or username, Vocation(vocation).label)
            for display, username, vocation in VocationAssignment.objects.filter(
                chapter_id=vote.chapter_id
            ).values_list("player__display_name", "player__username", "vocation")
        ]
    return VoteCard(
        id=vote.pk,
        campaign_id=campaign.pk,
        campaign_name=campaign.name,
        kind=vote.kind,
        status=vote.status,
        chapter_id=vote.chapter_id,
        chapter_title=vote.chapter.title if vote.chapter else "",
        opened_at=vote.opened_at,
        closed_at=vote.closed_at,
        closes_at=vote.closes_at,
        candidates=candidates,
        vocations=vocations,
        players=players,
        my_chapter=next((b[1] for b in ballots if b[0] == me and not b[2]), None),
        my_nominations={b[2]: b[3] for b in ballots if b[0] == me and b[2]},
        result=vote.result if show_counts else None,
        winner_title=f"{vote.winner.number}. {vote.winner.title}" if vote.winner else "",
        assignments=assignments,
        can_manage=can_manage,
        can_vote=Role.PARTICIPANT in roles
        and vote.status == VoteStatus.OPEN
        and not (vote.closes_at is not None and vote.closes_at <= timezone.now()),
        ballots=len({b[0] for b in ballots}),
    )

"""The one permission helper for campaigns, and the campaign's members it reads.

`members_of(campaign)` reads the memberships once (one query, in order of joining, compiled
once: the campaign and chapter pages, see `_MEMBER_READS`) with what the pages show of each
member; `campaign_role(viewer,
campaign, members=...)` answers from them without another query. A fetch that only
authorises reads the viewer's own membership with the object instead (`viewer_membership`,
then `member_role`).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery

from campaigns.models import Membership, MembershipRole
from characters.compiled import CompiledRead
from characters.permissions import Role

MEMBER_FIELDS = ("player_id", "player__display_name", "player__username", "role")


@dataclass(frozen=True)
class Member:
    id: int
    display_name: str
    username: str
    role: str
    # The further fields a caller asked for, by their path.
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def name(self) -> str:
        return self.display_name or self.username


@dataclass(frozen=True)
class Members:
    rows: tuple[Member, ...]

    @property
    def players(self) -> list[Member]:
        return [m for m in self.rows if m.role == MembershipRole.PLAYER]

    @property
    def co_organisers(self) -> list[Member]:
        return [m for m in self.rows if m.role == MembershipRole.CO_ORGANISER]

    @property
    def player_ids(self) -> set[int]:
        return {m.id for m in self.players}


# The read of `members_of` for each tuple of extra fields asked (a handful, named in code),
# compiled once: on the campaign and chapter pages (tests/benchmarks/
# test_browsing_pages_bench.py, 2026-11-28) every read written as a plain queryset took each
# page from 5.1 to 12.4 ms (campaign page) and 6.1 to 14.6 ms (chapter page) of CPU.
_MEMBER_READS: dict[tuple[str, ...], CompiledRead] = {}


def members_of(campaign, *extra: str) -> Members:
    """One query: the campaign's members in order of joining, with the `extra` fields (paths
    from the membership, such as "player__otd_profile__status") in `Member.extra`."""
    read = _MEMBER_READS.get(extra)
    if read is None:
        read = _MEMBER_READS[extra] = CompiledRead(
            lambda campaign_id: (
                Membership.objects.filter(campaign_id=campaign_id)
                .order_by("joined_at", "pk")
                .values(*MEMBER_FIELDS, *extra)
            )
        )
    return Members(
        tuple(
            Member(
                id=row["player_id"],
                display_name=row["player__display_name"],
                username=row["player__username"],
                role=row["role"],
                extra={name: row[name] for name in extra},
            )
            for row in read.dicts(getattr(campaign, "pk", campaign))
        )
    )


def campaign_role(viewer, campaign, *, members: Members | None = None) -> set[Role]:
    """Organisers (the organiser and co-organisers) and participants see a campaign; anyone
    else does not know it exists. `members`, when the caller read them already, saves the
    query."""
    if not viewer.is_authenticated:
        return {Role.ANYONE}
    if members is None:
        members = members_of(campaign)
    mine = next((member.role for member in members.rows if member.id == viewer.pk), None)
    return member_role(viewer, campaign, mine)


def member_role(viewer, campaign, membership: str | None) -> set[Role]:
    """`campaign_role` when the viewer's membership role is known already (None: not a
    member), read with the campaign itself through `viewer_membership`."""
    roles = {Role.ANYONE}
    if not viewer.is_authenticated:
        return roles
    if campaign.organiser_id == viewer.pk:
        roles.add(Role.ORGANISER)
    if membership == MembershipRole.PLAYER:
        roles.add(Role.PARTICIPANT)
    if membership == MembershipRole.CO_ORGANISER:
        roles.add(Role.ORGANISER)
    return roles


def viewer_membership(viewer_id: int, campaign_field: str = "pk"):
    """The membership role of the viewer `viewer_id` (0 for anyone anonymous: none) in the
    campaign `campaign_field` names, as an expression to annotate the fetch with: the row
    and what the viewer is to it come in one query."""
    mine = Membership.objects.filter(campaign=OuterRef(campaign_field), player=viewer_id)
    return Subquery(mine.values("role")[:1])


CAN_VIEW = {Role.ORGANISER, Role.PARTICIPANT}
CAN_MANAGE = {Role.ORGANISER}
CAN_VOTE = {Role.PARTICIPANT}

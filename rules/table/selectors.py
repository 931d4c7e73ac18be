"""Fetch and authorise a live encounter: the one way a view or API class gets one.

`encounter_get_for_user(user, pk, need=...)` answers 404 to someone who may not see it and
403 (a sentence) to someone who sees it but may not do what `need` names: "view" and "act"
(organisers and participants: a participant acts for their own combatants, which the
service checks), "manage" (organisers). `encounter_get_by_token` is the spectator's link.
Who sees an encounter, and as what, is `Encounter.objects.visible_to(user)`
(`rules.table.models`): the services lock the row through the same queryset
(`rules.table.services.lock`).
"""

from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Q
from django.db.transaction import TransactionManagementError
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Chapter
from campaigns.permissions import CAN_MANAGE, CAN_VIEW
from characters.compiled import CompiledRead, fields_of
from characters.permissions import Forbidden, Role, require
from rules.table.models import Encounter

# What a view or API class asks of a viewer: "view" and "act" (organisers and participants:
# a participant acts for their own combatants, which the service checks), "manage"
# (organisers).
NEEDS = {"view": CAN_VIEW, "act": CAN_VIEW, "manage": CAN_MANAGE}


def encounter_role(organises: bool | None) -> set[Role]:
    """The roles of the viewer an encounter was read for (`Encounter.objects.visible_to`):
    organiser, or else participant (`viewer_organises`); anyone when it was not found."""
    if organises is None:
        return {Role.ANYONE}
    return {Role.ANYONE, Role.ORGANISER if organises else Role.PARTICIPANT}


def encounter_authorize(user, encounter: Encounter, need: str) -> set[Role]:
    """403 (a sentence) to who sees the encounter (read for `user` through `visible_to`) but
    may not do what `need` names; the viewer's roles, kept on the encounter (`viewer_roles`)
    for the services."""
    roles = encounter_role(encounter.viewer_organises)
    require(roles, NEEDS[need], visible=CAN_VIEW)
    encounter.viewer_roles, encounter.viewer_id = roles, user.pk
    return roles


def encounter_roles_of(user, encounter: Encounter) -> set[Role]:
    """`user`'s roles on `encounter`: those found when it was fetched for them, else read
    (one query) through the same queryset."""
    roles = getattr(encounter, "viewer_roles", None)
    if roles and getattr(encounter, "viewer_id", None) == user.pk and user.pk is not None:
        return roles
    found = Encounter.objects.visible_to(user).filter(pk=encounter.pk)
    return encounter_role(found.values_list("viewer_organises", flat=True).first())


def require_role(user, encounter: Encounter, allowed: set[Role]) -> set[Role]:
    """A write's check before its lock: 403 (a sentence) to who may not do it."""
    roles = encounter_roles_of(user, encounter)
    if not roles & CAN_VIEW:
        raise Forbidden(_("You are not allowed to do this."))
    if not roles & allowed:
        raise Forbidden(_("Only the encounter's organisers may do this."))
    return roles


@dataclass(frozen=True)
class _Viewer:
    """The viewer `visible_to` is compiled for: a parameter marker as their id."""

    pk: int
    is_authenticated: bool = True


_ENCOUNTER, _CHAPTER, _CAMPAIGN = fields_of(Encounter), fields_of(Chapter), fields_of(Campaign)

# The one statement of the live table compiled once per process: every page, poll
# and write of a page fetches its encounter through it. `visible_to` is the ORM's queryset;
# compiled again on every request it cost four times the rest of a page kept as sent
# (tests/benchmarks/test_table_page_bench.py, 2026-11-28, in turn on one machine at load
# 7-9, the organiser's page shown again unchanged, CPU per request): 2.8 | 2.3 ms with the
# reads of 2026-11-27, 11.5 | 9.9 ms with the queryset compiled on each request, 2.1-2.9 ms
# with it compiled once here.
_VISIBLE = CompiledRead(
    lambda pk, viewer: (
        Encounter.objects.visible_to(_Viewer(viewer))
        .filter(pk=pk)
        .order_by()
        .values_list(
            *_ENCOUNTER,
            *(f"chapter__{name}" for name in _CHAPTER),
            *(f"chapter__campaign__{name}" for name in _CAMPAIGN),
            "viewer_organises",
        )
    ),
    2,
)


# The same queryset locked, for every write (`rules.table.services.lock`): compiled on each
# write it made an action cost 19.4 ms of server CPU against 12.0 with the reads of
# 2026-11-27, and 13.8 ms compiled once here (tests/benchmarks/test_table_bench.py,
# 2026-11-28, in turn on one machine at load 5-9).
_LOCKED = CompiledRead(
    lambda pk, viewer: (
        Encounter.objects.visible_to(_Viewer(viewer))
        .select_for_update(of=("self",))
        .filter(pk=pk)
        .order_by()
        .values_list(
            *_ENCOUNTER,
            *(f"chapter__{name}" for name in _CHAPTER),
            *(f"chapter__campaign__{name}" for name in _CAMPAIGN),
            "viewer_organises",
        )
    ),
    2,
)


def require_transaction() -> None:
    """A compiled read that locks runs only inside a transaction: it was compiled once, so
    Django's own check of a lock outside one ran only then."""
    if connections[DEFAULT_DB_ALIAS].get_autocommit():
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )


def encounter_locked_for_user(user, pk: int) -> Encounter | None:
    """`_visible`, its row locked until the commit (PostgreSQL leaves out the rows `user`
    may not see before it locks); inside a transaction only (`require_transaction`)."""
    require_transaction()
    return _visible(user, pk, _LOCKED)


def _visible(user, pk: int, read=_VISIBLE) -> Encounter | None:
    """One query: the encounter with its chapter and campaign (none for a pick-up game),
    if `user` sees it, and whether they organise it (`viewer_organises`)."""
    rows = read.rows(pk, user.pk) if user.is_authenticated else []
    if not rows:
        return None
    row = rows[0]
    split, end = len(_ENCOUNTER), len(_ENCOUNTER) + len(_CHAPTER)
    encounter = Encounter.from_db(DEFAULT_DB_ALIAS, _ENCOUNTER, row[:split])
    if encounter.chapter_id is not None:
        chapter = Chapter.from_db(DEFAULT_DB_ALIAS, _CHAPTER, row[split:end])
        chapter.campaign = Campaign.from_db(DEFAULT_DB_ALIAS, _CAMPAIGN, row[end:-1])
        encounter.chapter = chapter
    encounter.viewer_organises = row[-1]
    return encounter


def encounter_get_for_user(user, pk: int, *, need: str = "view") -> Encounter:
    """One query: the encounter with its chapter and campaign (none for a pick-up game)
    and what `user` is to it (`Encounter.objects.visible_to`)."""
    encounter = _visible(user, pk)
    if encounter is None:
        raise Http404
    encounter_authorize(user, encounter, need)
    return encounter


def encounter_get_by_token(token: str) -> Encounter:
    """The read-only spectator link of a screen beside the table: 404 once the organiser
    revoked or replaced it (`encounter_revoke_spectator_link`), at once. An ended encounter
    keeps its link until then: the finished game stays watchable."""
    encounter = (
        Encounter.objects.select_related("chapter__campaign").filter(spectator_token=token).first()
    )
    if encounter is None or not token:
        raise Http404
    encounter.viewer_roles = set()
    return encounter


PICKUP_SHOWN = 20


def encounters_pickup_of(user) -> list[Encounter]:
    """The pick-up games the user organises or plays in, latest first (one query)."""
    return list(
        Encounter.objects.filter(chapter__isnull=True)
        .filter(Q(created_by=user) | Q(combatants__player=user))
        .distinct()
        .order_by("-created_at", "-pk")[:PICKUP_SHOWN]
    )

"""Fetch and authorise: the one way a view or API class gets a campaign, a chapter, a vote,
an invitation or a unit entered into a chapter.

`<type>_get_for_user(user, pk, need=...)` answers 404 to someone who may not see the object
(ids leak nothing) and 403 (a sentence) to someone who sees it but may not do what `need`
names: "view" (organisers and participants), "manage" (organisers), "vote" (participants).
One query each: the viewer's membership is read with the object (`viewer_membership`), so a
card that reads the members afterwards costs what it did when it fetched them itself. The
fetches of the pages a benchmark names are compiled once (`_Fetch`); a vote's is a queryset.
Services keep their own final check.
"""

from django.db import DEFAULT_DB_ALIAS
from django.http import Http404

from campaigns.models import Campaign, Chapter, Invitation, Vote
from campaigns.permissions import (
    CAN_MANAGE,
    CAN_VIEW,
    CAN_VOTE,
    member_role,
    viewer_membership,
)
from characters.compiled import CompiledRead, fields_of
from characters.models import Player
from characters.permissions import require

NEEDS = {"view": CAN_VIEW, "manage": CAN_MANAGE, "vote": CAN_VOTE}


class _Fetch:
    """The row `pk` of `model` with the rows of its `related` fields (what `select_related`
    would join) and the viewer's membership role of its campaign (`via`: the row's field
    that leads to it; None: the row is the campaign), read in one query compiled once
    (`CompiledRead`) and made into the models the ORM would have loaded. Only for the
    campaign and chapter pages and the settlement preview: of the chapter page's CPU in
    tests/benchmarks/test_browsing_pages_bench.py (2026-11-28) the fetch written as a
    queryset was a fifth (14.6 ms with every read a queryset, 6.1 ms compiled)."""

    def __init__(self, model, related: tuple[str, ...], via: str | None):
        self.model = model
        self.parts = [(model, "")] + [
            (model._meta.get_field(name).related_model, name) for name in related
        ]
        campaign = f"{via}_id" if via else "pk"
        self.read = CompiledRead(
            lambda pk, viewer: (
                model.objects.filter(pk=pk)
                .annotate(viewer_membership=viewer_membership(viewer, campaign))
                .order_by()
                .values(
                    *(self._column(name, f) for part, name in self.parts for f in fields_of(part)),
                    "viewer_membership",
                )
            ),
            arity=2,
        )

    @staticmethod
    def _column(name: str, field: str) -> str:
        return f"{name}__{field}" if name else field

    def get(self, user, pk: int):
        rows = self.read.dicts(pk, user.pk if user.is_authenticated else 0)
        if not rows:
            raise Http404
        row = rows[0]
        found = None
        for part, name in self.parts:
            fields = fields_of(part)
            values = [row[self._column(name, f)] for f in fields]
            if found is None:
                found = part.from_db(DEFAULT_DB_ALIAS, fields, values)
            else:  # a nullable relation that is empty: None, as `select_related` gives it
                empty = row[self._column(name, part._meta.pk.attname)] is None
                related = None if empty else part.from_db(DEFAULT_DB_ALIAS, fields, values)
                self.model._meta.get_field(name).set_cached_value(found, related)
        found.viewer_membership = row["viewer_membership"]
        return found


def _authorised(found, user, need: str, *, via: str | None):
    campaign = getattr(found, via) if via else found
    require(member_role(user, campaign, found.viewer_membership), NEEDS[need], visible=CAN_VIEW)
    return found


_CAMPAIGN = _Fetch(Campaign, ("organiser",), via=None)
_CHAPTER = _Fetch(Chapter, ("campaign",), via="campaign")
# The settlement preview: 15.6 ms of CPU with this fetch a queryset, 13.0 ms compiled
# (tests/benchmarks/test_chapter_close_bench.py, "settlement preview", 2026-11-28).
_CHAPTER_SETTLED = _Fetch(Chapter, ("campaign", "settlement"), via="campaign")


def campaign_get_for_user(user, pk: int, *, need: str = "view") -> Campaign:
    return _authorised(_CAMPAIGN.get(user, pk), user, need, via=None)


def chapter_get_for_user(
    user, pk: int, *, need: str = "view", with_settlement: bool = False
) -> Chapter:
    """`with_settlement`: its settlement's row read with it (the settlement pages)."""
    found = (_CHAPTER_SETTLED if with_settlement else _CHAPTER).get(user, pk)
    return _authorised(found, user, need, via="campaign")


def vote_get_for_user(user, pk: int, *, need: str = "view") -> Vote:
    membership = viewer_membership(user.pk if user.is_authenticated else 0, "campaign_id")
    found = (
        Vote.objects.select_related("campaign", "chapter", "winner")
        .filter(pk=pk)
        .annotate(viewer_membership=membership)
        .first()
    )
    if found is None:
        raise Http404
    return _authorised(found, user, need, via="campaign")


def invitation_get_for_user(user, campaign_pk: int, pk: int, *, need: str = "manage") -> Invitation:
    campaign = campaign_get_for_user(user, campaign_pk, need=need)
    found = Invitation.objects.filter(pk=pk, campaign=campaign).first()
    if found is None:
        raise Http404
    found.campaign = campaign
    return found


def chapter_entry_get(chapter: Chapter, kind, roster: int):
    """The roster `roster` of `kind` (a `campaigns.systems.entry_kinds.EntryKind`: KOLAPS
    unit, Rapid 40000 army list) entered into `chapter`, a chapter the caller already read
    for its user (`chapter_get_for_user`, which the kind depends on): 404 when it is not."""
    entered = kind.roster.objects.filter(pk=roster, chapter_entries__chapter=chapter).first()
    if entered is None:
        raise Http404
    return entered


def player_get(pk: int) -> Player:
    """A player a request names by id (whom an organiser gives a vocation): 404 when there
    is none. Whether they may be named is for the service to say."""
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise Http404
    return player

"""Fetch and authorise: the one way a view or API class gets a campaign, a chapter, a vote,
an invitation or a unit entered into a chapter.

`<type>_get_for_user(user, pk, need=...)` answers 404 to someone who may not see the object
(ids leak nothing) and 403 (a sentence) to someone who sees it but may not do what `need`
names: "view" (organisers and participants), "manage" (organisers), "vote" (participants).
One query each, compiled once (`_Fetch`): the viewer's membership is read with the object
(`viewer_membership`), so a card that reads the members afterwards costs what it did when
it fetched them itself.
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
from characters.compiled import CompiledRead
from characters.models import Player
from characters.permissions import require

NEEDS = {"view": CAN_VIEW, "manage": CAN_MANAGE, "vote": CAN_VOTE}


class _Fetch:
    """The row `pk` of `model` with the rows of its `related` fields (what `select_related`
    would join) and the viewer's membership role of its campaign (`via`: the row's field
    that leads to it; None: the row is the campaign), read in one query compiled once
    (`CompiledRead`) and made into the models the ORM would have loaded."""

    def __init__(self, model, related: tuple[str, ...], via: str | None):
        self.model = model
        self.parts = [(model, None)] + [
            (model._meta.get_field(name).related_model, name) for name in related
        ]
        self.fields = [
            [f.attname for f in part._meta.concrete_fields] for part, _name in self.parts
        ]
        columns = [
            f"{name}__{field}" if name else field
            for (_part, name), fields in zip(self.parts, self.fields, strict=True)
            for field in fields
        ]
        campaign = f"{via}_id" if via else "pk"
        self.read = CompiledRead(
            lambda pk, viewer: (
                model.objects.filter(pk=pk)
                .annotate(viewer_membership=viewer_membership(viewer, campaign))
                .order_by()
                .values_list(*columns, "viewer_membership")
            ),
            arity=2,
        )

    def get(self, user, pk: int):
        rows = self.read.rows(pk, user.pk if user.is_authenticated else 0)
        if not rows:
            raise Http404
        values, start = rows[0], 0
        found = None
        for (part, name), fields in zip(self.parts, self.fields, strict=True):
            row = values[start : start + len(fields)]
            start += len(fields)
            if found is None:
                found = part.from_db(DEFAULT_DB_ALIAS, fields, row)
            else:  # a nullable relation that is empty: None, as `select_related` gives it
                empty = row[fields.index(part._meta.pk.attname)] is None
                related = None if empty else part.from_db(DEFAULT_DB_ALIAS, fields, row)
                self.model._meta.get_field(name).set_cached_value(found, related)
        found.viewer_membership = values[-1]
        return found


def _get_for_user(fetch: _Fetch, user, pk: int, need: str, *, via: str | None):
    """The row `pk`, read with the viewer's membership of its campaign, authorised."""
    found = fetch.get(user, pk)
    campaign = getattr(found, via) if via else found
    require(member_role(user, campaign, found.viewer_membership), NEEDS[need], visible=CAN_VIEW)
    return found


_CAMPAIGN = _Fetch(Campaign, ("organiser",), via=None)
_CHAPTER = _Fetch(Chapter, ("campaign",), via="campaign")
_CHAPTER_SETTLED = _Fetch(Chapter, ("campaign", "settlement"), via="campaign")
_VOTE = _Fetch(Vote, ("campaign", "chapter", "winner"), via="campaign")


def campaign_get_for_user(user, pk: int, *, need: str = "view") -> Campaign:
    return _get_for_user(_CAMPAIGN, user, pk, need, via=None)


def chapter_get_for_user(
    user, pk: int, *, need: str = "view", with_settlement: bool = False
) -> Chapter:
    """`with_settlement`: its settlement's row read with it (the settlement pages)."""
    fetch = _CHAPTER_SETTLED if with_settlement else _CHAPTER
    return _get_for_user(fetch, user, pk, need, via="campaign")


def vote_get_for_user(user, pk: int, *, need: str = "view") -> Vote:
    return _get_for_user(_VOTE, user, pk, need, via="campaign")


def invitation_get_for_user(user, campaign_pk: int, pk: int, *, need: str = "manage") -> Invitation:
    campaign = campaign_get_for_user(user, campaign_pk, need=need)
    found = Invitation.objects.filter(pk=pk, campaign=campaign).first()
    if found is None:
        raise Http404
    found.campaign = campaign
    return found


def chapter_entry_get_for_user(user, pk: int, kind, roster: int, *, need: str = "view"):
    """A roster of `kind` (a `campaigns.chapters.entries.EntryKind`: KOLAPS unit, Rapid
    40000 army list) entered into the chapter, with the chapter."""
    chapter = chapter_get_for_user(user, pk, need=need)
    entered = kind.roster.objects.filter(pk=roster, chapter_entries__chapter=chapter).first()
    if entered is None:
        raise Http404
    return chapter, entered


def player_get(pk: int) -> Player:
    """A player a request names by id (whom an organiser gives a vocation): 404 when there
    is none. Whether they may be named is for the service to say."""
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise Http404
    return player

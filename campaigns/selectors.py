"""Fetch and authorise: the one way a view or API class gets a campaign, a chapter, a vote,
an invitation or a unit entered into a chapter.

`<type>_get_for_user(user, pk, need=...)` answers 404 to someone who may not see the object
(ids leak nothing) and 403 (a sentence) to someone who sees it but may not do what `need`
names: "view" (organisers and participants), "manage" (organisers), "vote" (participants).
One query each: the viewer's membership is read with the object (`viewer_membership`), so a
card that reads the members afterwards costs what it did when it fetched them itself.
Services keep their own final check.
"""

from django.http import Http404

from campaigns.models import Campaign, Chapter, Invitation, Vote
from campaigns.permissions import (
    CAN_MANAGE,
    CAN_VIEW,
    CAN_VOTE,
    member_role,
    viewer_membership,
)
from characters.models import Player
from characters.permissions import require

NEEDS = {"view": CAN_VIEW, "manage": CAN_MANAGE, "vote": CAN_VOTE}


def _get_for_user(queryset, user, pk: int, need: str, *, via: str | None):
    """The row `pk` of `queryset`, read with the viewer's membership of its campaign (`via`:
    the row's field that leads to it; None: the row is the campaign), authorised."""
    viewer = user.pk if user.is_authenticated else 0
    campaign_field = f"{via}_id" if via else "pk"
    found = (
        queryset.filter(pk=pk)
        .annotate(viewer_membership=viewer_membership(viewer, campaign_field))
        .first()
    )
    if found is None:
        raise Http404
    campaign = getattr(found, via) if via else found
    require(member_role(user, campaign, found.viewer_membership), NEEDS[need], visible=CAN_VIEW)
    return found


def campaign_get_for_user(user, pk: int, *, need: str = "view") -> Campaign:
    queryset = Campaign.objects.select_related("organiser")
    return _get_for_user(queryset, user, pk, need, via=None)


def chapter_get_for_user(
    user, pk: int, *, need: str = "view", with_settlement: bool = False
) -> Chapter:
    """`with_settlement`: its settlement's row read with it (the settlement pages)."""
    related = ("campaign", "settlement") if with_settlement else ("campaign",)
    queryset = Chapter.objects.select_related(*related)
    return _get_for_user(queryset, user, pk, need, via="campaign")


def vote_get_for_user(user, pk: int, *, need: str = "view") -> Vote:
    queryset = Vote.objects.select_related("campaign", "chapter", "winner")
    return _get_for_user(queryset, user, pk, need, via="campaign")


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

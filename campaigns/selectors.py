"""Fetch and authorise: the one way a view or API class gets a campaign, a chapter, a vote or
an invitation.

`<type>_get_for_user(user, pk, need=...)` answers 404 to someone who may not see the object
(ids leak nothing) and 403 (a sentence) to someone who sees it but may not do what `need`
names: "view" (organisers and participants), "manage" (organisers), "vote" (participants).
Services keep their own final check.
"""

from django.http import Http404

from campaigns.models import Campaign, Chapter, Invitation, Vote
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, CAN_VOTE, campaign_role
from characters.models import KolapsUnit
from characters.permissions import require

NEEDS = {"view": CAN_VIEW, "manage": CAN_MANAGE, "vote": CAN_VOTE}


def _authorised(user, campaign: Campaign, need: str) -> None:
    require(campaign_role(user, campaign), NEEDS[need], visible=CAN_VIEW)


def campaign_get_for_user(user, pk: int, *, need: str = "view") -> Campaign:
    campaign = Campaign.objects.filter(pk=pk).first()
    if campaign is None:
        raise Http404
    _authorised(user, campaign, need)
    return campaign


def chapter_get_for_user(user, pk: int, *, need: str = "view") -> Chapter:
    chapter = Chapter.objects.select_related("campaign").filter(pk=pk).first()
    if chapter is None:
        raise Http404
    _authorised(user, chapter.campaign, need)
    return chapter


def vote_get_for_user(user, pk: int, *, need: str = "view") -> Vote:
    vote = Vote.objects.select_related("campaign").filter(pk=pk).first()
    if vote is None:
        raise Http404
    _authorised(user, vote.campaign, need)
    return vote


def invitation_get_for_user(user, campaign_pk: int, pk: int, *, need: str = "manage") -> Invitation:
    campaign = campaign_get_for_user(user, campaign_pk, need=need)
    invitation = Invitation.objects.filter(pk=pk, campaign=campaign).select_related("campaign")
    found = invitation.first()
    if found is None:
        raise Http404
    return found


def chapter_unit_get_for_user(
    user, pk: int, unit: int, *, need: str = "view"
) -> tuple[Chapter, KolapsUnit]:
    """A KOLAPS unit entered into the chapter, with the chapter."""
    chapter = chapter_get_for_user(user, pk, need=need)
    entered = KolapsUnit.objects.filter(pk=unit, chapter_entries__chapter=chapter).first()
    if entered is None:
        raise Http404
    return chapter, entered

"""What entering a roster into a chapter checks, whatever the system: KOLAPS units
(`campaigns.chapters.kolaps`) and Rapid 40000 army lists (`campaigns.chapters.rapid40k`)
enter and leave chapters through the same three checks."""

from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Chapter, ChapterStatus
from campaigns.permissions import CAN_VIEW, campaign_role
from characters.permissions import Refusal, Role

SIDE_MAX = 80


def clean_side(side: str) -> str:
    """The side a roster plays on, spaces collapsed; blank is its own side."""
    side = " ".join(str(side or "").split())
    if len(side) > SIDE_MAX:
        raise Refusal(_("A side's name has at most 80 characters."), field="side")
    return side


def chapter_roles(actor, chapter: Chapter) -> set[Role]:
    """The actor's roles in the chapter's campaign; a campaign they cannot see is a 404."""
    roles = campaign_role(actor, chapter.campaign)
    if not roles & CAN_VIEW:
        raise Http404
    return roles


def require_planned(chapter: Chapter) -> None:
    """Rosters enter and leave a chapter only while it is planned."""
    if chapter.status == ChapterStatus.CLOSED:
        raise Refusal(_("This chapter is closed."), field="chapter")
    if chapter.status != ChapterStatus.PLANNED:
        raise Refusal(_("This chapter has started: its units no longer change."), field="chapter")

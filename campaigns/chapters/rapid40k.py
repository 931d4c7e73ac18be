"""Rapid 40000 campaigns serve army lists: the only writer of armies entered into chapters,
and the check the start of a Rapid 40000 chapter makes on them.

The same shape as `campaigns.chapters.kolaps` for units: a participant enters one of their
own valid lists into a planned chapter (one list per player and chapter) and may withdraw
it until the chapter starts; an organiser may withdraw any. A draft list never enters; a
list that became a draft after it was entered holds the chapter's start until it is fixed
or withdrawn. Validate, one transaction, append a `CampaignEvent`.
"""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.chapters.entries import chapter_roles, clean_side, require_planned
from campaigns.models import Chapter, ChapterArmyEntry
from campaigns.permissions import CAN_MANAGE
from campaigns.rules_settings.services import campaign_rules_settings
from campaigns.services import _record
from characters.permissions import Forbidden, Refusal, Role
from characters.rapid40k.models import Rapid40kArmy

RAPID40K = "rapid40k"


def chapter_army_enter(*, actor, chapter: Chapter, army: Rapid40kArmy | None, side: str = ""):
    """A participant enters one of their own valid army lists into a planned chapter of a
    Rapid 40000 campaign, on `side` (blank: the army is its own side)."""
    roles = chapter_roles(actor, chapter)
    if Role.PARTICIPANT not in roles:
        raise Forbidden(_("Only the campaign's players enter their armies into its chapters."))
    if chapter.campaign.system != RAPID40K:
        raise Refusal(_("Army lists enter chapters of Rapid 40000 campaigns only."), field="army")
    if army is None or army.owner_id != actor.pk:
        raise Refusal(_("Enter one of your own army lists."), field="army")
    side = clean_side(side)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        require_planned(locked)
        army = Rapid40kArmy.objects.select_for_update().get(pk=army.pk)
        if not army.is_valid:
            raise Refusal(
                _("An army list with problems cannot be entered into a chapter: solve them first."),
                field="army",
            )
        agreed = campaign_rules_settings(locked.campaign).get("army_points", 0)
        if agreed and army.points > agreed:
            raise Refusal(
                _(
                    "%(name)s counts %(points)s points; the armies of this campaign count "
                    "%(agreed)s at most."
                )
                % {"name": army.name, "points": army.points, "agreed": agreed},
                field="army",
            )
        mine = locked.army_entries.filter(player=actor).select_related("army").first()
        if mine is not None:
            raise Refusal(
                _("You already entered %(name)s into this chapter: withdraw it first.")
                % {"name": mine.army.name},
                field="army",
            )
        try:
            with transaction.atomic():
                entry = ChapterArmyEntry.objects.create(
                    chapter=locked, army=army, player=actor, side=side, points=army.points
                )
        except IntegrityError:  # a concurrent entry of the same player won
            raise Refusal(
                _("You already entered an army into this chapter: withdraw it first."),
                field="army",
            ) from None
        _record(
            campaign=chapter.campaign,
            actor=actor,
            verb="army_entered",
            chapter=locked.pk,
            army=army.pk,
            army_name=army.name,
            points=army.points,
            side=side,
        )
    return entry


def chapter_army_withdraw(*, actor, chapter: Chapter, army: Rapid40kArmy) -> None:
    """Take an army back out of a planned chapter: its player, or an organiser."""
    roles = chapter_roles(actor, chapter)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        entry = locked.army_entries.filter(army=army).select_related("army").first()
        if entry is None:
            raise Refusal(_("This army is not entered into this chapter."), field="army")
        if entry.player_id != actor.pk and not roles & CAN_MANAGE:
            raise Forbidden(_("Only its player or an organiser withdraws an army."))
        require_planned(locked)
        entry.delete()
        _record(
            campaign=chapter.campaign,
            actor=actor,
            verb="army_withdrawn",
            chapter=locked.pk,
            army=entry.army_id,
            army_name=entry.army.name,
        )


def require_armies_ready(chapter: Chapter) -> None:
    """Before a Rapid 40000 chapter starts: every entered list is still valid."""
    drafts = list(
        chapter.army_entries.exclude(army__status=Rapid40kArmy.Status.VALID).values_list(
            "army__name", flat=True
        )
    )
    if drafts:
        raise Refusal(
            _(
                "%(names)s became a draft since it was entered: its player fixes it or "
                "withdraws it before the chapter starts."
            )
            % {"names": ", ".join(drafts)},
            field="chapter",
        )

"""KOLAPS campaigns serve units: the only writer of units entered into chapters, and the
checks the start and the close of a KOLAPS chapter make on them.

A participant enters one of their own units into a planned chapter of a KOLAPS campaign
(one unit per player and chapter) and may withdraw it until the chapter starts; an
organiser may withdraw any. A draft unit never enters (`unit_require_valid`: "A unit with
problems ... cannot be entered into an encounter or a chapter"); a unit that
became a draft after it was entered holds the chapter's start until it is fixed or
withdrawn. The close records, for each entered unit that played, its result and the
characters lost, checked against the unit's members (`campaigns.systems.kolaps`); taking
them out of the unit is the post-chapter settlement's work.

Same rules as `campaigns.chapters.services`: validate, one transaction, append a `CampaignEvent`.
"""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.chapters.entries import chapter_roles, clean_side, require_planned
from campaigns.models import Chapter, ChapterUnitEntry
from campaigns.permissions import CAN_MANAGE
from campaigns.services import _record
from characters.kolaps.models import KolapsUnit
from characters.kolaps.services import unit_require_valid
from characters.permissions import Forbidden, Refusal, Role

KOLAPS = "kolaps"


def chapter_unit_enter(*, actor, chapter: Chapter, unit: KolapsUnit | None, side: str = ""):
    """A participant enters one of their own valid units into a planned chapter of a
    KOLAPS campaign, on `side` (blank: the unit is its own side)."""
    roles = chapter_roles(actor, chapter)
    if Role.PARTICIPANT not in roles:
        raise Forbidden(_("Only the campaign's players enter their units into its chapters."))
    if chapter.campaign.system != KOLAPS:
        raise Refusal(_("Units enter chapters of KOLAPS campaigns only."), field="unit")
    if unit is None or unit.owner_id != actor.pk:
        raise Refusal(_("Enter one of your own units."), field="unit")
    side = clean_side(side)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        require_planned(locked)
        unit = KolapsUnit.objects.select_for_update().get(pk=unit.pk)
        unit_require_valid(unit)
        mine = locked.unit_entries.filter(player=actor).select_related("unit").first()
        if mine is not None and mine.unit_id == unit.pk:
            raise Refusal(_("This unit is already entered into this chapter."), field="unit")
        if mine is not None:
            raise Refusal(
                _("You already entered %(name)s into this chapter: withdraw it first.")
                % {"name": mine.unit.name},
                field="unit",
            )
        try:
            with transaction.atomic():
                entry = ChapterUnitEntry.objects.create(
                    chapter=locked, unit=unit, player=actor, side=side
                )
        except IntegrityError:  # a concurrent entry of the same player won
            raise Refusal(
                _("You already entered a unit into this chapter: withdraw it first."),
                field="unit",
            ) from None
        _record(
            campaign=chapter.campaign,
            actor=actor,
            verb="unit_entered",
            chapter=locked.pk,
            unit=unit.pk,
            unit_name=unit.name,
            vu=unit.vu,
            side=side,
        )
    return entry


def chapter_unit_withdraw(*, actor, chapter: Chapter, unit: KolapsUnit) -> None:
    """Take a unit back out of a planned chapter: its player, or an organiser."""
    roles = chapter_roles(actor, chapter)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        entry = locked.unit_entries.filter(unit=unit).select_related("unit").first()
        if entry is None:
            raise Refusal(_("This unit is not entered into this chapter."), field="unit")
        if entry.player_id != actor.pk and not roles & CAN_MANAGE:
            raise Forbidden(_("Only its player or an organiser withdraws a unit."))
        require_planned(locked)
        entry.delete()
        _record(
            campaign=chapter.campaign,
            actor=actor,
            verb="unit_withdrawn",
            chapter=locked.pk,
            unit=entry.unit_id,
            unit_name=entry.unit.name,
        )


def require_units_ready(chapter: Chapter) -> None:
    """Before a KOLAPS chapter starts: every entered unit is still valid (its owner may
    have edited it into a draft since it was entered)."""
    drafts = list(
        chapter.unit_entries.exclude(unit__status=KolapsUnit.Status.VALID).values_list(
            "unit__name", flat=True
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

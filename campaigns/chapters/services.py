"""The only writer of chapters, vocations and the close of a chapter (votes:
`campaigns.votes.services`).

Same rules as `campaigns.services`: validate, one transaction, append a `CampaignEvent`.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.chapters.eligibility import Eligibility, PlayerFacts, Requirement, eligibility
from campaigns.chapters.entries import chapter_entries_freeze, require_entries_ready
from campaigns.chapters.signals import chapter_closed
from campaigns.models import (
    Campaign,
    Chapter,
    ChapterOutcome,
    ChapterResult,
    ChapterStatus,
    EncounterEvent,
    VocationAssignment,
    VocationSource,
    ZombieType,
)
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, CAN_VOTE, campaign_role, members_of
from campaigns.services import _record, player_ids, require_manager, require_open
from campaigns.systems import campaign_system
from campaigns.systems.base import EntryResultInput
from characters.models import ProfileStatus, Vocation
from characters.permissions import Refusal, require
from rules.engine.systems import system_get, uses_profiles
from rules.engine.systems.seam import Close, Kind, Per

# The rows of a close for the rosters entered (KOLAPS units, Rapid 40000 armies).
UnitResultInput = EntryResultInput

MAX_LIST = 30
MAX_NAME = 120


def _names(values: Iterable[str] | str, field_name: str) -> list[str]:
    if isinstance(values, str):
        values = values.splitlines()
    names = [" ".join(str(value).split()) for value in values]
    names = [name for name in names if name]
    if len(names) > MAX_LIST or any(len(name) > MAX_NAME for name in names):
        raise Refusal(
            _("At most %(n)s lines of %(m)s characters.") % {"n": MAX_LIST, "m": MAX_NAME},
            field=field_name,
        )
    return names


# --- Planning ---------------------------------------------------------------------------------

CHAPTER_FIELDS = (
    "title",
    "scenario",
    "players_min",
    "players_max",
    "min_survival_points",
    "required_cards",
    "required_items",
    "objectives",
    "weather",
    "time_of_day",
    "announced_events",
    "starts_at",
    "duration_minutes",
    "place",
)
TEXT_FIELDS = ("title", "scenario", "objectives", "weather", "time_of_day", "place")
LIST_FIELDS = ("required_cards", "required_items", "announced_events")


def chapter_date_check(starts_at: datetime) -> None:
    """Refuse a chapter date outside `CHAPTER_YEARS`, its year read in the site's time
    zone whatever offset it came with (a form, the API, an export file alike)."""
    first, last = settings.CHAPTER_YEARS
    try:
        year = timezone.localtime(starts_at).year
    except OverflowError:  # 9999-12-31T23:00-05:00 is the year 10000 in Paris
        year = last + 1
    if not first <= year <= last:
        raise Refusal(
            _("Choose a date between the years %(first)s and %(last)s.")
            % {"first": first, "last": last},
            field="starts_at",
        )


def _clean_chapter(values: dict) -> dict:
    for name in TEXT_FIELDS:
        values[name] = str(values.get(name) or "").strip()
    for name in LIST_FIELDS:
        values[name] = _names(values.get(name) or [], name)
    if not values["title"]:
        raise Refusal(_("Give the chapter a title."), field="title")
    if len(values["title"]) > 160:
        raise Refusal(_("Keep the title under 160 characters."), field="title")
    low, high = values.get("players_min"), values.get("players_max")
    for name, value in (("players_min", low), ("players_max", high)):
        if value is not None and not 1 <= value <= 99:
            raise Refusal(_("Between 1 and 99 players."), field=name)
    if low is not None and high is not None and low > high:
        raise Refusal(_("The minimum is above the maximum."), field="players_max")
    if values.get("min_survival_points") is None:
        values["min_survival_points"] = 0
    if not 0 <= values["min_survival_points"] <= 999:
        raise Refusal(_("Between 0 and 999 points."), field="min_survival_points")
    if values.get("duration_minutes") is None:
        values["duration_minutes"] = 240
    if not 15 <= values["duration_minutes"] <= 24 * 60:
        raise Refusal(_("Between 15 minutes and 24 hours."), field="duration_minutes")
    starts_at = values.get("starts_at")
    if starts_at is not None and (not isinstance(starts_at, datetime) or starts_at.tzinfo is None):
        raise ValueError("starts_at must be an aware datetime")
    if starts_at is not None:
        chapter_date_check(starts_at)
    for name in ("weather", "time_of_day"):
        if len(values[name]) > 120:
            raise Refusal(_("Keep it under 120 characters."), field=name)
    if len(values["place"]) > 200:
        raise Refusal(_("Keep it under 200 characters."), field="place")
    return values


def chapter_plan(*, actor, campaign: Campaign, title: str, **fields) -> Chapter:
    """Plan the campaign's next chapter (numbered after the last one).

    When the organisers set a number of chapters, no more can be planned; by default a
    campaign has as many chapters as players (O6), shown beside the list but not enforced,
    since players keep joining while chapters are planned.
    """
    require_manager(actor, campaign)
    unknown = set(fields) - set(CHAPTER_FIELDS)
    if unknown:
        raise ValueError(f"chapter_plan cannot set {sorted(unknown)}")
    values = _clean_chapter({**fields, "title": title})
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        last = locked.chapters.aggregate(last=Max("number"))["last"] or 0
        if locked.chapters_planned is not None and last >= locked.chapters_planned:
            raise Refusal(
                _(
                    "This campaign has %(n)s chapters, all planned; raise its number of "
                    "chapters first."
                )
                % {"n": locked.chapters_planned},
                field="title",
            )
        chapter = Chapter.objects.create(campaign=locked, number=last + 1, **values)
        _record(
            campaign=locked,
            actor=actor,
            verb="chapter_planned",
            chapter=chapter.pk,
            number=chapter.number,
            title=chapter.title,
        )
    return chapter


def chapter_update(*, actor, chapter: Chapter, **changes) -> Chapter:
    """Change a chapter not yet closed."""
    require_manager(actor, chapter.campaign)
    unknown = set(changes) - set(CHAPTER_FIELDS)
    if unknown:
        raise ValueError(f"chapter_update cannot set {sorted(unknown)}")
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        require_open(locked, _("This chapter is closed: its record no longer changes."))
        values = _clean_chapter(
            {name: changes.get(name, getattr(locked, name)) for name in CHAPTER_FIELDS}
        )
        changed = sorted(name for name in CHAPTER_FIELDS if getattr(locked, name) != values[name])
        if not changed:
            return locked
        for name, value in values.items():
            setattr(locked, name, value)
        locked.save()
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb="chapter_updated",
            chapter=locked.pk,
            title=locked.title,
            fields=changed,
        )
    return locked


def chapter_start(*, actor, chapter: Chapter) -> Chapter:
    """Mark a planned chapter as the one being played. Every roster entered (KOLAPS units,
    Rapid 40000 army lists) must still be valid, and is frozen as it is now: the chapter
    plays what was entered, whatever its owner edits afterwards."""
    require_manager(actor, chapter.campaign)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().select_related("campaign").get(pk=chapter.pk)
        if locked.status != ChapterStatus.PLANNED:
            raise Refusal(_("Only a planned chapter can start."))
        require_entries_ready(locked)
        chapter_entries_freeze(locked)
        locked.status = ChapterStatus.CURRENT
        locked.save(update_fields=["status"])
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb="chapter_started",
            chapter=locked.pk,
            title=locked.title,
        )
    return locked


# --- Eligibility --------------------------------------------------------------------------------


def requirement_of(chapter: Chapter) -> Requirement:
    return Requirement(
        players_min=chapter.players_min,
        players_max=chapter.players_max,
        min_survival_points=chapter.min_survival_points,
        required_cards=tuple(chapter.required_cards),
        required_items=tuple(chapter.required_items),
    )


def facts_of(profile) -> PlayerFacts:
    """What eligibility needs from a profile (None: the player has none)."""
    if profile is None:
        return PlayerFacts(has_profile=False)
    return PlayerFacts(
        has_profile=True,
        survival_points=profile.survival_points,
        cards=tuple(profile.cards),
        equipment=tuple(profile.equipment),
        is_dead=profile.status == ProfileStatus.DEAD,
    )


def chapter_eligibility(*, chapter: Chapter, profile, players: int) -> Eligibility:
    """Every requirement of the chapter for one player, with the reason when unmet."""
    return eligibility(
        requirement_of(chapter),
        facts_of(profile),
        players=players,
        uses_profiles=system_get(chapter.campaign.system).uses_profiles,
    )


# --- Vocations -----------------------------------------------------------------------------------


def vocation_choose(*, actor, chapter: Chapter, player, vocation: str) -> VocationAssignment:
    """A player takes a vocation for a chapter (an organiser may give one to a player).
    Each vocation at most once per chapter; choosing again replaces the player's own."""
    roles = campaign_role(actor, chapter.campaign)
    if actor.pk == player.pk:
        require(roles, CAN_VOTE, visible=CAN_VIEW)
        source = VocationSource.CHOSEN
    else:
        require(roles, CAN_MANAGE, visible=CAN_VIEW)
        source = VocationSource.ORGANISER
    if not uses_profiles(chapter.campaign.system):
        raise Refusal(_("Vocations are taken in Of the Dead chapters only."), field="vocation")
    if vocation not in Vocation.values:
        raise Refusal(_("Choose a vocation."), field="vocation")
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        require_open(locked, _("This chapter is closed."), field="vocation")
        if player.pk not in player_ids(locked.campaign):
            raise Refusal(_("Choose a player of this campaign."), field="player")
        holder = (
            locked.vocations.filter(vocation=vocation)
            .exclude(player=player)
            .select_related("player")
            .first()
        )
        if holder is not None:
            raise Refusal(
                _("%(vocation)s is already held by %(name)s in this chapter.")
                % {"vocation": Vocation(vocation).label, "name": holder.player.public_name},
                field="vocation",
            )
        try:
            with transaction.atomic():
                assignment, _created = VocationAssignment.objects.update_or_create(
                    chapter=locked,
                    player=player,
                    defaults={"vocation": vocation, "source": source},
                )
        except IntegrityError:  # a concurrent choice of the same vocation won
            raise Refusal(
                _("This vocation was just taken; choose another."), field="vocation"
            ) from None
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb="vocation_chosen",
            chapter=locked.pk,
            player=player.public_name,
            vocation=vocation,
        )
    return assignment


def vocation_release(*, actor, chapter: Chapter, player) -> None:
    """Give a vocation back (the player, or an organiser for them)."""
    roles = campaign_role(actor, chapter.campaign)
    require(roles, CAN_VOTE if actor.pk == player.pk else CAN_MANAGE, visible=CAN_VIEW)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        require_open(locked, _("This chapter is closed."))
        deleted, _rows = locked.vocations.filter(player=player).delete()
        if deleted:
            _record(
                campaign=locked.campaign,
                actor=actor,
                verb="vocation_released",
                chapter=locked.pk,
                player=player.public_name,
            )


# --- Closing a chapter ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OutcomeInput:
    player_id: int
    result: str
    died: bool = False
    side: str = ""
    kills: dict[str, int] = field(default_factory=dict)
    notes: str = ""
    # The player's answers to the rest of what the system's close asks (`Close.fields` per
    # player but death, side and kills), by field name: the modern RPG's {"xp": 3}.
    answers: Mapping[str, object] = field(default_factory=dict)


def _clean_kills(kills: dict) -> dict[str, int]:
    cleaned = {}
    for kind, number in (kills or {}).items():
        if kind not in ZombieType.values:
            raise Refusal(_("Unknown zombie type."), field="outcomes")
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= 999:
            raise Refusal(_("Kills are whole numbers from 0 to 999."), field="outcomes")
        if number:
            cleaned[kind] = number
    return cleaned


# The player's fields of a close that have columns of their own on `ChapterOutcome`.
OUTCOME_COLUMNS = ("died", "side", "kills")


def _clean_answers(close: Close, answers: Mapping[str, object]) -> dict:
    """The player's answers to the system's own close fields (`ChapterOutcome.record`):
    only fields it asks, a COUNT a whole number within its maximum, a FLAG true or false,
    a TEXT a short line. Zeros, falses and blanks are left out."""
    asked = {f.name: f for f in close.asked(Per.PLAYER) if f.name not in OUTCOME_COLUMNS}
    cleaned: dict = {}
    for name, value in answers.items():
        declared = asked.get(name)
        if declared is None:
            raise Refusal(_("This campaign's close does not ask that."), field="outcomes")
        if declared.kind is Kind.COUNT:
            if not isinstance(value, int) or isinstance(value, bool):
                value = -1
            if not 0 <= value <= declared.maximum:
                raise Refusal(
                    _("%(field)s: a whole number from 0 to %(max)s.")
                    % {"field": _(declared.label), "max": declared.maximum},
                    field="outcomes",
                )
        elif declared.kind is Kind.FLAG:
            value = bool(value)
        else:
            value = " ".join(str(value or "").split())[:80]
        if value:
            cleaned[name] = value
    return cleaned


def chapter_close(
    *,
    actor,
    chapter: Chapter,
    epilogue: str,
    outcomes: Sequence[OutcomeInput] = (),
    unit_results: Sequence[EntryResultInput] = (),
    notable_events: Iterable[str] | str = (),
    army_results: Sequence[EntryResultInput] = (),
    entry_results: Sequence[EntryResultInput] = (),
) -> Chapter:
    """Close a chapter: the one operation that stores its record and hands it over.

    What the record holds is the campaign's system's (`campaigns.systems`): a system whose
    players bring themselves records one `ChapterOutcome` per participant (a result among
    the system's, and what its close asks: death and kills by zombie type, XP...); a system
    whose players enter rosters records them (`unit_results` for KOLAPS units,
    `army_results` for Rapid 40000 armies, `entry_results` for either, checked by the
    system's `entry_rows`), one outcome per player whose roster played. In one
    transaction: the epilogue, notable events, those rows; status closed, `closed_at` now;
    `settled_at` stays null.
    The `chapter_closed` signal is sent inside the transaction: the post-chapter
    settlement defers its work to the commit.
    The campaign's members are read once, under the chapter's lock: the actor's right to
    close it (checked first, as `require_manager` does) and the players it records; the
    row returned keeps them (`members_read`), so that its card (`chapter_card`, the close
    API's answer) does not read them again.
    """
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().select_related("campaign").get(pk=chapter.pk)
        members = members_of(locked.campaign)
        require(
            campaign_role(actor, locked.campaign, members=members), CAN_MANAGE, visible=CAN_VIEW
        )
        epilogue = epilogue.strip()
        if not epilogue:
            raise Refusal(_("Write the epilogue: how did the chapter end?"), field="epilogue")
        events = _names(notable_events, "notable_events")
        require_open(locked, _("This chapter is already closed."))
        system = campaign_system(locked.campaign.system)
        close = system.game.close
        entry_results = [*entry_results, *unit_results, *army_results]
        if close.per is Per.PLAYER and entry_results:
            raise Refusal(
                _("This campaign's chapters record their players only."), field="outcomes"
            )
        players = members.player_ids
        asked = {f.name for f in close.asked(Per.PLAYER)}
        seen: set[int] = set()
        rows = []
        for outcome in outcomes:
            if outcome.player_id not in players:
                raise Refusal(
                    _("Record outcomes for the campaign's players only."), field="outcomes"
                )
            if outcome.player_id in seen:
                raise Refusal(_("One outcome per player."), field="outcomes")
            if outcome.result not in close.results:
                raise Refusal(
                    _("Choose each player's result among the ones offered."), field="outcomes"
                )
            if (outcome.died and "died" not in asked) or (outcome.kills and "kills" not in asked):
                raise Refusal(_("This campaign's close does not ask that."), field="outcomes")
            seen.add(outcome.player_id)
            rows.append(
                ChapterOutcome(
                    chapter=locked,
                    player_id=outcome.player_id,
                    result=outcome.result,
                    died=bool(outcome.died),
                    side=" ".join(outcome.side.split())[:80],
                    kills=_clean_kills(outcome.kills),
                    notes=outcome.notes.strip(),
                    record=_clean_answers(close, outcome.answers),
                )
            )
        entry_outcomes, entry_records = system.entry_rows(locked, entry_results)
        if seen & {row.player_id for row in entry_outcomes}:
            raise Refusal(_("One outcome per player."), field="outcomes")
        rows += entry_outcomes
        if not rows:
            raise Refusal(_("Record the outcome of at least one participant."), field="outcomes")
        ChapterOutcome.objects.bulk_create(rows)
        if entry_records:
            type(entry_records[0]).objects.bulk_create(entry_records)
        locked.epilogue = epilogue
        locked.notable_events = events
        locked.status = ChapterStatus.CLOSED
        locked.closed_at = timezone.now()
        locked.closed_by = actor
        locked.save(
            update_fields=["epilogue", "notable_events", "status", "closed_at", "closed_by"]
        )
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb="chapter_closed",
            chapter=locked.pk,
            title=locked.title,
            victories=sum(1 for row in rows if row.result == ChapterResult.VICTORY),
            deaths=sum(1 for row in rows if row.died),
            units=len(entry_outcomes),
            characters_lost=sum(len(getattr(row, "losses", ())) for row in entry_records),
        )
        chapter_closed.send(sender=Chapter, chapter=locked)
    locked.members_read = members
    return locked


# --- The live encounter's record -------------------------------------------------------------


def chapter_table_record(*, actor, chapter: Chapter, record: dict) -> Chapter:
    """The live encounter tells its chapter what the close needs: its id when it opens, what
    happened when it ends (KOLAPS: per unit entered, the characters lost and wounded and
    their Moral). Called by the table's services inside their own transaction; the
    organiser reviews it in the close form before the settlement runs."""
    require_manager(actor, chapter.campaign)
    locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
    require_open(locked, _("This chapter is already closed."))
    locked.table_record = dict(record)
    locked.save(update_fields=["table_record"])
    if record.get("ended"):
        _record(
            campaign=chapter.campaign,
            actor=actor,
            verb="encounter_ended",
            chapter=locked.pk,
            title=locked.title,
            encounter=record.get("encounter"),
            turns=record.get("turns"),
        )
    return locked


# --- The encounter log of a chapter being played ---------------------------------------------

MAX_DAMAGE = 100


def encounter_event_record(
    *, actor, chapter: Chapter, player, target=None, damage: int = 0, roll=None
) -> EncounterEvent:
    """Record one roll of the encounter of `chapter`, which must be the chapter being
    played. An organiser records for any player of the campaign; a player for themself.
    The target, when there is one, is another player of the campaign; the roll, when
    given, is one of the rolling player's own recorded server rolls."""
    campaign = chapter.campaign
    members = members_of(campaign)
    players = members.player_ids
    roles = campaign_role(actor, campaign, members=members)
    if not (roles & CAN_MANAGE or (actor.pk == player.pk and roles & CAN_VIEW)):
        require(roles, CAN_MANAGE, visible=CAN_VIEW)
    if player.pk not in players:
        raise Refusal(_("Choose a player of this campaign."), field="player")
    if target is not None and (target.pk not in players or target.pk == player.pk):
        raise Refusal(_("The target is another player of this campaign."), field="target")
    if not isinstance(damage, int) or isinstance(damage, bool) or not 0 <= damage <= MAX_DAMAGE:
        raise Refusal(
            _("Damage is a whole number from 0 to %(max)s.") % {"max": MAX_DAMAGE},
            field="damage",
        )
    if target is None and damage:
        raise Refusal(_("Damage goes to a target: choose whom the roll hit."), field="target")
    if roll is not None and roll.player_id != player.pk:
        raise Refusal(_("Choose one of the rolling player's own server rolls."), field="roll")
    if roll is not None and roll.system != chapter.campaign.system:
        raise Refusal(
            _("This roll was made for another game system than this campaign's."), field="roll"
        )
    with transaction.atomic():
        # Checked under the chapter's lock: a close committing meanwhile cannot miss it.
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        if locked.status != ChapterStatus.CURRENT:
            raise Refusal(_("Rolls are recorded while the chapter is being played."))
        event = EncounterEvent.objects.create(
            chapter=chapter, player=player, target=target, damage=damage, roll=roll
        )
        _record(
            campaign=campaign,
            actor=actor,
            verb="encounter_roll",
            chapter=chapter.pk,
            title=chapter.title,
            player=player.public_name,
            target=target.public_name if target is not None else None,
            damage=damage,
            roll=roll.pk if roll is not None else None,
        )
    return event

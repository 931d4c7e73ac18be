"""Chapters of a campaign and what they carry: invitations to vote, ballots, vocations, the
close record (outcomes per player, KOLAPS units entered and their results), the encounter
log of a chapter being played and the players' calendar feeds.

Written only by `campaigns.chapters.services` (and `campaigns.chapters.entries` for the
rosters entered).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from characters.models import Vocation


class ChapterStatus(models.TextChoices):
    PLANNED = "planned", _("planned")
    CURRENT = "current", _("current")
    CLOSED = "closed", _("closed")


class ChapterQuerySet(models.QuerySet):
    def upcoming_for(self, user) -> "ChapterQuerySet":
        """Chapters not yet closed of the campaigns `user` organises or plays in."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(
            Q(campaign__organiser=user) | Q(campaign__memberships__player=user),
            status__in=[ChapterStatus.PLANNED, ChapterStatus.CURRENT],
        ).distinct()


class Chapter(models.Model):
    """One game of a campaign, planned ahead by its organisers (rule text, "Chapitre").

    `closed_at` is set by `chapter_close`; `settled_at` stays null until the post-chapter
    settlement (traumas, survival points, statistics) has run for this chapter.
    """

    ONE_LINE_FIELDS = ("title",)  # characters/one_line.py

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="chapters"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=160)
    scenario = models.TextField(_("scenario"), blank=True)
    # Requirements ("conditions, comme le nombre de joueur, le nombre de point de survie
    # minimum, la possession de cartes spéciales").
    players_min = models.PositiveSmallIntegerField(_("players at least"), null=True, blank=True)
    players_max = models.PositiveSmallIntegerField(_("players at most"), null=True, blank=True)
    min_survival_points = models.PositiveIntegerField(_("minimum survival points"), default=0)
    required_cards = models.JSONField(_("required cards"), default=list, blank=True)
    required_items = models.JSONField(_("required items"), default=list, blank=True)
    objectives = models.TextField(_("objectives"), blank=True)
    weather = models.CharField(_("weather"), max_length=120, blank=True)
    time_of_day = models.CharField(_("time of day"), max_length=120, blank=True)
    announced_events = models.JSONField(_("announced events"), default=list, blank=True)
    starts_at = models.DateTimeField(_("date and time"), null=True, blank=True)
    duration_minutes = models.PositiveIntegerField(_("duration (minutes)"), default=240)
    place = models.CharField(_("place"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=ChapterStatus.choices, default=ChapterStatus.PLANNED
    )
    # The close record (see ChapterOutcome and ChapterUnitResult for the rows).
    epilogue = models.TextField(_("epilogue"), blank=True)
    notable_events = models.JSONField(_("notable events"), default=list, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The live encounter at the table, as it told the chapter (`chapter_table_record`): its
    # id while it is played, then what happened, for the organiser's close.
    table_record = models.JSONField(default=dict, blank=True)

    objects = ChapterQuerySet.as_manager()

    class Meta:
        verbose_name = _("chapter")
        verbose_name_plural = _("chapters")
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="chapter_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.title}"

    @property
    def awaiting_settlement(self) -> bool:
        return self.status == ChapterStatus.CLOSED and self.settled_at is None


class VoteKind(models.TextChoices):
    NEXT_CHAPTER = "next_chapter", _("next chapter")
    VOCATIONS = "vocations", _("vocations")


class VoteStatus(models.TextChoices):
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")


class Vote(models.Model):
    """A vote of the participants: which candidate chapter comes next, or who takes which
    vocation in `chapter`. Closing it stores `result` for good (see campaigns.votes)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="votes"
    )
    kind = models.CharField(max_length=16, choices=VoteKind.choices)
    # For a vocation vote: the chapter the vocations are for.
    chapter = models.ForeignKey(
        Chapter, on_delete=models.CASCADE, null=True, blank=True, related_name="vocation_votes"
    )
    candidates = models.ManyToManyField(Chapter, blank=True, related_name="candidacies")
    status = models.CharField(max_length=8, choices=VoteStatus.choices, default=VoteStatus.OPEN)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # When the vote closes itself (optional; the organisers may still close it earlier).
    closes_at = models.DateTimeField(_("closes at"), null=True, blank=True)
    # When the automatic "about to close" reminder was claimed: set once, never reset.
    reminded_at = models.DateTimeField(null=True, blank=True)
    # Kept once closed: {"counts": {...}, "winner": chapter id or null, "tie": bool} for a
    # next-chapter vote; {"assignments": {player id: vocation}, "counts": {...}} for vocations.
    result = models.JSONField(null=True, blank=True)
    winner = models.ForeignKey(
        Chapter, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-opened_at", "-pk"]
        indexes = [models.Index(fields=["status", "closes_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.get_status_display()})"


class Ballot(models.Model):
    """One voter's choice. In a next-chapter vote: `chapter`, one ballot per voter. In a
    vocation vote: for one `vocation`, the `nominee` the voter wants in it, one ballot per
    voter and vocation. A voter may change their ballot while the vote is open."""

    vote = models.ForeignKey(Vote, on_delete=models.CASCADE, related_name="ballots")
    voter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    chapter = models.ForeignKey(
        Chapter, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    vocation = models.CharField(max_length=20, blank=True, default="")
    nominee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    cast_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["vote", "voter", "vocation"], name="ballot_unique")
        ]

    def __str__(self) -> str:
        return f"{self.voter} → {self.chapter_id or self.vocation}"


class VocationSource(models.TextChoices):
    CHOSEN = "chosen", _("chosen by the player")
    VOTED = "voted", _("voted")
    ORGANISER = "organiser", _("given by an organiser")


class VocationAssignment(models.Model):
    """Who holds which vocation in a chapter: each vocation at most once per chapter, and
    one vocation per player per chapter."""

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="vocations")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vocation_assignments"
    )
    vocation = models.CharField(max_length=20, choices=Vocation.choices)
    source = models.CharField(max_length=12, choices=VocationSource.choices)
    assigned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["chapter", "assigned_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["chapter", "vocation"], name="vocation_once_per_chapter"
            ),
            models.UniqueConstraint(fields=["chapter", "player"], name="one_vocation_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_vocation_display()}"


class ZombieType(models.TextChoices):
    """Types de Zombies, as the rule text lists them."""

    ZONARD = "zonard", "Zonard"
    BRAILLARD = "braillard", "Braillard"
    VICELARD = "vicelard", "Vicelard"
    SOUDARD = "soudard", "Soudard"
    MASTARD = "mastard", "Mastard"
    CHAROGNARD = "charognard", "Charognard"


class ChapterResult(models.TextChoices):
    """Every result a system's close may record (`GameSystem.close.results` picks)."""

    VICTORY = "victory", _("victory")
    DRAW = "draw", _("draw")
    DEFEAT = "defeat", _("defeat")
    PLAYED = "played", _("took part")


class ChapterOutcome(models.Model):
    """What a chapter meant for one participant: the epilogue's verdict (for them or their
    side), whether they died, their kills by zombie type ({"zonard": 3, ...})."""

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="outcomes")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chapter_outcomes"
    )
    side = models.CharField(_("side"), max_length=80, blank=True)
    result = models.CharField(_("result"), max_length=8, choices=ChapterResult.choices)
    died = models.BooleanField(_("died"), default=False)
    kills = models.JSONField(_("kills by zombie type"), default=dict, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    # The rest of what the system's close asks (`campaigns.systems`): the roster entered
    # ("entry", "value"), its members as they ended ("members": [{"id", "name", "value",
    # "figures", "lost", "wounded", "changed_side", "avatar"}]), the XP awarded ("xp").
    record = models.JSONField(_("close record"), default=dict, blank=True)

    class Meta:
        ordering = ["chapter", "pk"]
        constraints = [models.UniqueConstraint(fields=["chapter", "player"], name="outcome_unique")]

    def __str__(self) -> str:
        return f"{self.player}: {self.result}"


class ChapterUnitEntry(models.Model):
    """A KOLAPS unit a participant entered into a planned chapter of a KOLAPS campaign.

    Written only by `campaigns.chapters.entries` (which checks the unit is valid, the
    player's own, and the chapter still planned, and freezes it when the chapter starts).
    An entry is a plan, not a record: it goes with its unit or chapter (CASCADE); the close
    copies what happened into `ChapterUnitResult`.
    """

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="unit_entries")
    unit = models.ForeignKey(
        "characters.KolapsUnit", on_delete=models.CASCADE, related_name="chapter_entries"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(_("side"), max_length=80, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    # The unit as it was when the chapter started (`campaigns.chapters.entries`); empty
    # while the chapter is planned.
    frozen = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("unit entered")
        verbose_name_plural = _("units entered")
        ordering = ["chapter", "entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["chapter", "unit"], name="unit_entry_unique"),
            models.UniqueConstraint(fields=["chapter", "player"], name="one_unit_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.unit_id} @ {self.chapter_id}"


class ChapterUnitResult(models.Model):
    """A KOLAPS unit that took part in a chapter, and its losses: part of the close record.

    `unit` is the unit entered (SET_NULL: the record outlives the unit, and deleting a
    player account is never blocked by a chapter it once played); `unit_name` and `vu`
    keep the name and value it had at the close. `losses` lists the characters lost as
    `[{"id": 12, "name": "Agent Roux"}, ...]`: ids as they were, names as they were, so
    the record reads the same after a rename or a deletion. The post-chapter settlement
    takes them out of the unit with `characters.kolaps.services.unit_remove_lost`.
    """

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="unit_results")
    unit = models.ForeignKey(
        "characters.KolapsUnit",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chapter_results",
    )
    unit_name = models.CharField(max_length=120)
    vu = models.PositiveIntegerField(_("unit value (VU)"), null=True, blank=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    side = models.CharField(max_length=80, blank=True)
    result = models.CharField(max_length=8, choices=ChapterResult.choices)
    losses = models.JSONField(default=list, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["chapter", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["chapter", "unit"], name="unit_result_unique")
        ]

    def __str__(self) -> str:
        return f"{self.unit_name}: {self.result}"

    @property
    def lost_ids(self) -> list[int]:
        return [loss["id"] for loss in self.losses if loss.get("id") is not None]


class CalendarFeed(models.Model):
    """The secret token of a player's iCalendar feed of upcoming chapters."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar of {self.player}"


class EncounterEvent(models.Model):
    """A roll made in an encounter played in Chronique: who rolled, whom it hit, how hard."""

    chapter = models.ForeignKey(
        "campaigns.Chapter", on_delete=models.CASCADE, related_name="encounter_events"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    roll = models.ForeignKey(
        "rules.RollRecord", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    damage = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["chapter", "player"], name="encounter_event_idx")]

    def __str__(self) -> str:
        return f"chapter {self.chapter_id}: {self.player_id} → {self.target_id} ({self.damage})"


class ChapterArmyEntry(models.Model):
    """A Rapid 40000 army list a participant entered into a planned chapter of a Rapid
    40000 campaign, as a KOLAPS unit enters a KOLAPS chapter (`ChapterUnitEntry`).

    Written only by `campaigns.chapters.entries` (which checks the list is valid, within
    the chapter's points limit, the player's own, and the chapter still planned). `points`
    is the list's total when it was entered, kept for the record.
    """

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="army_entries")
    army = models.ForeignKey(
        "characters.Rapid40kArmy", on_delete=models.CASCADE, related_name="chapter_entries"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(_("side"), max_length=80, blank=True)
    points = models.PositiveIntegerField(_("points"), default=0)
    entered_at = models.DateTimeField(auto_now_add=True)
    # The army as it was when the chapter started, as for a unit.
    frozen = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("army entered")
        verbose_name_plural = _("armies entered")
        ordering = ["chapter", "entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["chapter", "army"], name="army_entry_unique"),
            models.UniqueConstraint(fields=["chapter", "player"], name="one_army_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.army_id} @ {self.chapter_id}"


class SheetEntry(models.Model):
    """A character sheet a participant entered into a planned chapter of a roleplaying
    campaign (Corporates, modern RPG), as a unit or an army enters (`ChapterUnitEntry`).

    Written only by `campaigns.chapters.entries`; frozen when the chapter starts (the
    sheet's levels as they were), and its close record carries the levels the session
    ended with back to the sheet when the chapter is settled (`campaigns.systems.sheets`).
    """

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(_("side"), max_length=80, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    frozen = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True
        verbose_name = _("character entered")
        verbose_name_plural = _("characters entered")
        ordering = ["chapter", "entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["chapter", "character"], name="%(class)s_unique"),
            models.UniqueConstraint(fields=["chapter", "player"], name="%(class)s_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.character_id} @ {self.chapter_id}"  # type: ignore[attr-defined]


class ChapterCorporatesEntry(SheetEntry):
    character = models.ForeignKey(
        "characters.CorporatesCharacter", on_delete=models.CASCADE, related_name="chapter_entries"
    )


class ChapterModernEntry(SheetEntry):
    character = models.ForeignKey(
        "characters.ModernCharacter", on_delete=models.CASCADE, related_name="chapter_entries"
    )

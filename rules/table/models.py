"""The live encounter at the table: an encounter, its combatants and its log.

Written only by `rules.table.services` (one transaction per change, under a lock on the
encounter row). `Encounter.version` counts the changes: every write carries the version its
author saw, and a stale one is refused with the new state instead of overwriting it. The log
(`EncounterEntry`) is append-only but for `undone_by`, and keeps, for each action, the state
of what it changed before it (`before`), which is what an undo puts back.
"""

from django.conf import settings
from django.db import models
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q
from django.utils.translation import gettext_lazy as _

from campaigns.models import Membership, MembershipRole
from rules.engine.systems import system_choices

GAUGE_MIN, GAUGE_MAX = 1, 6


class System(models.TextChoices):
    KOLAPS = "kolaps", "KOLAPS"
    OF_THE_DEAD = "of-the-dead", "Of the Dead"


class Phase(models.TextChoices):
    """The phases' names (a system's adapter lists its own, `rules.table.systems`); not the
    field's choices, so that a system's new phase needs no migration."""

    # KOLAPS: speech, action, then the end phase (K14) that opens the next turn.
    SPEECH = "speech", _("Speech")
    ACTION = "action", _("Action")
    # Of the Dead: movement, action, wrap-up, in initiative order.
    MOVEMENT = "movement", _("Movement")
    WRAP_UP = "wrap_up", _("Wrap-up")
    # Corporates: the declaration of the turn's actions, then its five segments.
    DECLARE = "declare", _("Declaration of actions")
    SEGMENT_1 = "segment_1", _("Segment 1")
    SEGMENT_2 = "segment_2", _("Segment 2")
    SEGMENT_3 = "segment_3", _("Segment 3")
    SEGMENT_4 = "segment_4", _("Segment 4")
    SEGMENT_5 = "segment_5", _("Segment 5")
    # The modern RPG: each round's attitudes, then the actions in initiative order.
    ATTITUDES = "attitudes", _("Attitudes")


class EncounterStatus(models.TextChoices):
    LIVE = "live", _("Being played")
    ENDED = "ended", _("Ended")


class EncounterQuerySet(models.QuerySet):
    """Who may see an encounter, written once: the pages, the API and the writes' locks
    (`rules.table.selectors`, `rules.table.services.lock`) all read it from here."""

    def visible_to(self, user) -> "EncounterQuerySet":
        """The encounters `user` sees, each with `viewer_organises`: whether they organise
        it (who created a pick-up game; the organiser or a co-organiser of a chapter's
        campaign) or else take part in it (who plays a combatant of a pick-up game; a
        player of a chapter's campaign, while a member: who left it no longer sees its
        table). Anyone else hears 404; their rows are left out before PostgreSQL would lock
        them (`select_for_update()`), so an outsider neither waits for a player's write nor
        makes one wait."""
        if not user.is_authenticated:
            return self.none()
        pick_up, in_chapter = Q(chapter__isnull=True), Q(chapter__isnull=False)
        viewer = user.pk
        member = Membership.objects.filter(
            campaign__chapters=OuterRef("chapter_id"), player_id=viewer
        )
        plays = Combatant.objects.filter(encounter=OuterRef("pk"), player_id=viewer)
        # Each term says whether it is a pick-up game or a chapter's: never NULL (SQL's
        # unknown), though a pick-up game's campaign columns are.
        organises = (pick_up & Q(created_by_id=viewer)) | (
            in_chapter
            & (
                Q(chapter__campaign__organiser_id=viewer)
                | Exists(member.filter(role=MembershipRole.CO_ORGANISER))
            )
        )
        takes_part = (pick_up & Exists(plays)) | (
            in_chapter & Exists(member.filter(role=MembershipRole.PLAYER))
        )
        return self.filter(organises | takes_part).annotate(
            viewer_organises=ExpressionWrapper(organises, output_field=BooleanField())
        )


class Encounter(models.Model):
    ONE_LINE_FIELDS = ("title",)  # characters/one_line.py
    # Every game system's slug; the table plays those with an adapter (rules.table.systems).
    system = models.CharField(max_length=20, choices=system_choices(), default=System.KOLAPS)
    # The chapter it is played in; none for a pick-up game.
    chapter = models.ForeignKey(
        "campaigns.Chapter",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="table_encounters",
    )
    # Who created it; the organiser of a pick-up game (a chapter's are its campaign's).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    title = models.CharField(_("title"), max_length=160)
    status = models.CharField(
        max_length=8, choices=EncounterStatus.choices, default=EncounterStatus.LIVE
    )
    turn = models.PositiveSmallIntegerField(default=1)
    phase = models.CharField(max_length=20, default=Phase.SPEECH)
    attacker_side = models.CharField(max_length=80, blank=True)
    version = models.PositiveIntegerField(default=0)
    catalogue_version = models.CharField(max_length=20, blank=True)
    # The spectator link's secret; none once the organiser revoked it (a new one is made on
    # request). An ended encounter keeps its link: a finished game stays watchable until
    # the link is revoked.
    spectator_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = EncounterQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.title


class Combatant(models.Model):
    """A fighter's live state. Santé, Souffle and Moral are the KOLAPS gauges (1-6); the
    turn's trackers (`sante_lost`, `breath_spent`, `engaged`) feed the end phase (K14).
    Another system keeps what is its own in `state` (its adapter's)."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    position = models.PositiveSmallIntegerField(default=0)
    side = models.CharField(max_length=80)
    name = models.CharField(max_length=80)
    # Who plays it: the organiser acts for everyone, a player for their own combatants.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kolaps_character = models.ForeignKey(
        "characters.KolapsCharacter",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    rank = models.CharField(max_length=20, blank=True)
    affiliation = models.CharField(max_length=40, blank=True)
    is_avatar = models.BooleanField(default=False)
    talents = models.JSONField(default=dict, blank=True)
    weapons = models.JSONField(default=list, blank=True)
    armour = models.CharField(max_length=60, blank=True)
    sante = models.PositiveSmallIntegerField(default=GAUGE_MAX)
    souffle = models.PositiveSmallIntegerField(default=GAUGE_MAX)
    moral = models.PositiveSmallIntegerField(default=GAUGE_MAX)
    directive = models.CharField(max_length=12, blank=True)
    revealed = models.BooleanField(default=False)
    on_ground = models.BooleanField(default=False)
    unconscious = models.BooleanField(default=False)
    dead = models.BooleanField(default=False)
    engaged = models.BooleanField(default=False)
    breath_spent = models.BooleanField(default=False)
    sante_lost = models.PositiveSmallIntegerField(default=0)
    wounds = models.PositiveIntegerField(default=0)
    kills = models.PositiveIntegerField(default=0)
    # A system's own live state beyond the fields above (its adapter reads and writes it).
    state = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(**{f"{gauge}__gte": GAUGE_MIN, f"{gauge}__lte": GAUGE_MAX}),
                name=f"table_combatant_{gauge}_1_6",
            )
            for gauge in ("sante", "souffle", "moral")
        ]

    def __str__(self) -> str:
        return self.name


class EntryKind(models.TextChoices):
    CREATED = "created", _("Encounter created")
    ACTION = "action", _("Action")
    UNDO = "undo", _("Undo")
    DIRECTIVE = "directive", _("Order directive")
    REVEAL = "reveal", _("Directive revealed")
    PHASE = "phase", _("Phase")
    END_PHASE = "end_phase", _("End phase")
    ENDED = "ended", _("Encounter ended")
    LINK = "link", _("Spectator link")


# What an undo looks past to find the action it takes back: an undo, and a spectator link
# revoked or made (no change to the game).
UNDO_LOOKS_PAST = (EntryKind.UNDO, EntryKind.LINK)


class EncounterEntry(models.Model):
    """One line of the log: who, when, what, at which turn and phase, and the version of the
    encounter it made."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="entries")
    version = models.PositiveIntegerField()
    turn = models.PositiveSmallIntegerField()
    phase = models.CharField(max_length=20)
    kind = models.CharField(max_length=10, choices=EntryKind.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        Combatant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    target = models.ForeignKey(
        Combatant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    roll = models.ForeignKey(
        "rules.RollRecord", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)
    before = models.JSONField(default=dict, blank=True)
    undone_by = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undoes"
    )

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(
                fields=["encounter", "version"], name="table_entry_one_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.encounter_id} v{self.version} {self.kind}"


class TableWrite(models.Model):
    """A table write made with an idempotency key: the key its device made, and the answer
    it got, so that the same write sent again (a retry after a timeout, a queue sent again
    once back online, a double tap) is answered as the first time and acts once. Kept as
    long as the encounter lives. `answer`: the API's JSON body, compressed (empty for a
    page's form, whose answer is the table as it stands)."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    answer = models.BinaryField(blank=True, default=b"")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["encounter", "author", "key"], name="table_write_once_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.encounter_id} {self.key} v{self.version}"

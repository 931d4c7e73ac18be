"""Load what the profile pages show, in a fixed number of queries, as plain data."""

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.db.models import Count, Q

from characters.models import (
    Player,
    Profile,
    ProfileEvent,
    ProfileStatus,
    Trauma,
    TraumaKind,
    TraumaPermanence,
    Vocation,
)
from characters.profiles.services import ATTRIBUTE_LABELS
from rules.engine.systems import profile_systems
from rules.engine.systems.of_the_dead.effects import sheet_numbers

HISTORY_SHOWN = 50


@dataclass(frozen=True)
class TraumaLine:
    id: int
    name: str
    kind: str
    permanence: str
    effect: dict[str, int] | None
    chapter: str
    active: bool
    healed_at: datetime | None
    notes: str

    @property
    def kind_label(self) -> str:
        return TraumaKind(self.kind).label

    @property
    def permanence_label(self) -> str:
        return TraumaPermanence(self.permanence).label

    @property
    def effect_text(self) -> str:
        return ", ".join(
            f"{ATTRIBUTE_LABELS[name]} {change:+d}" for name, change in (self.effect or {}).items()
        )


@dataclass(frozen=True)
class VocationLine:
    vocation: str
    label: str
    chapter_id: int
    chapter: str
    campaign: str


@dataclass(frozen=True)
class CampaignPlayed:
    id: int
    name: str
    system: str
    chapters_played: int


@dataclass(frozen=True)
class ProfileEventLine:
    at: datetime
    actor: str
    verb: str
    data: dict
    version: int

    @property
    def changed_labels(self) -> str:
        """The names of the fields an edit changed, as the form calls them."""
        fields = {field.name: field for field in Profile._meta.get_fields()}
        return ", ".join(
            str(getattr(fields.get(name), "verbose_name", name))
            for name in (self.data or {}).get("changes", {})
        )

    @property
    def status_label(self) -> str:
        status = (self.data or {}).get("after", "")
        return str(ProfileStatus(status).label) if status in ProfileStatus.values else status


@dataclass(frozen=True)
class ProfileCard:
    id: int
    username: str
    name: str
    status: str
    physique: int
    psychique: int
    reflexes: int
    combat: int
    effective: dict[str, int]
    life_markers: int
    moral: int
    portrait_url: str
    description: str
    equipment: list[str]
    cards: list[str]
    survival_points: int
    version: int
    visibility: dict[str, bool]
    traumas: list[TraumaLine] = field(default_factory=list)
    vocations: list[VocationLine] = field(default_factory=list)
    campaigns: list[CampaignPlayed] = field(default_factory=list)
    history: list[ProfileEventLine] = field(default_factory=list)
    settled_chapters: int = 0
    is_owner: bool = False

    @property
    def status_label(self) -> str:
        return ProfileStatus(self.status).label

    @property
    def active_traumas(self) -> list[TraumaLine]:
        return [t for t in self.traumas if t.active]


VISIBILITY = (
    "is_public",
    "show_attributes",
    "show_description",
    "show_traumas",
    "show_equipment",
    "show_statistics",
    "show_campaigns",
)


def trauma_lines(profile: Profile) -> list[TraumaLine]:
    rows = Trauma.objects.filter(profile=profile).values_list(
        "pk",
        "name",
        "kind",
        "permanence",
        "effect",
        "chapter__title",
        "active",
        "healed_at",
        "notes",
    )
    return [
        TraumaLine(
            id=pk,
            name=name,
            kind=kind,
            permanence=permanence,
            effect=effect,
            chapter=chapter or "",
            active=active,
            healed_at=healed_at,
            notes=notes,
        )
        for pk, name, kind, permanence, effect, chapter, active, healed_at, notes in rows
    ]


def _vocations(player) -> list[VocationLine]:
    # Vocations are given by chapters (`campaigns`): read through the player's own relation.
    rows = (
        player.vocation_assignments.filter(chapter__campaign__system__in=profile_systems())
        .order_by("-chapter__starts_at", "-chapter_id")
        .values_list(
            "vocation", "chapter_id", "chapter__number", "chapter__title", "chapter__campaign__name"
        )
    )
    return [
        VocationLine(
            vocation=vocation,
            label=Vocation(vocation).label,
            chapter_id=chapter_id,
            chapter=f"{number}. {title}",
            campaign=campaign,
        )
        for vocation, chapter_id, number, title, campaign in rows
    ]


def _campaigns(player) -> list[CampaignPlayed]:
    # Campaigns are `campaigns`' own: read through the player's memberships; only those of
    # the systems where this profile plays (`GameSystem.uses_profiles`).
    outcomes = "campaign__chapters__outcomes"
    rows = (
        player.memberships.filter(role="player", campaign__system__in=profile_systems())
        .annotate(played=Count(outcomes, filter=Q(**{f"{outcomes}__player_id": player.pk})))
        .order_by("-campaign__created_at")
        .values_list("campaign_id", "campaign__name", "campaign__system", "played")
    )
    return [CampaignPlayed(id=pk, name=n, system=s, chapters_played=p) for pk, n, s, p in rows]


def _settled(player) -> int:
    return player.chapter_outcomes.filter(chapter__settled_at__isnull=False).count()


def profile_card_of(profile: Profile, player: Player, **extra) -> ProfileCard:
    traumas = extra.pop("traumas", [])
    numbers = sheet_numbers(profile.base_attributes, [t.effect for t in traumas if t.active])
    return ProfileCard(
        id=profile.pk,
        username=player.username,
        name=player.public_name,
        status=profile.status,
        physique=profile.physique,
        psychique=profile.psychique,
        reflexes=profile.reflexes,
        combat=profile.combat,
        effective=numbers.attributes,
        life_markers=profile.life_markers,
        moral=profile.moral,
        portrait_url=profile.portrait_url,
        description=profile.description,
        equipment=list(profile.equipment),
        cards=list(profile.cards),
        survival_points=profile.survival_points,
        version=profile.version,
        visibility={name: getattr(profile, name) for name in VISIBILITY},
        traumas=traumas,
        **extra,
    )


def my_profile_card(user) -> ProfileCard | None:
    """Six queries whatever the number of traumas, vocations, campaigns or history lines;
    None when the player has no profile yet."""
    profile = Profile.objects.filter(player=user).first()
    if profile is None:
        return None
    events = (
        ProfileEvent.objects.filter(profile=profile)
        .order_by("-at", "-pk")
        .values_list("at", "actor__display_name", "actor__username", "verb", "data", "version")[
            :HISTORY_SHOWN
        ]
    )
    return profile_card_of(
        profile,
        user,
        traumas=trauma_lines(profile),
        vocations=_vocations(user),
        campaigns=_campaigns(user),
        history=[
            ProfileEventLine(
                at=at, actor=display or username or "", verb=verb, data=data, version=version
            )
            for at, display, username, verb, data, version in events
        ],
        settled_chapters=_settled(user),
        is_owner=True,
    )


def public_profile_card(viewer, profile: Profile) -> ProfileCard:
    """What the player chose to show of a profile the viewer may see
    (`profile_get_for_user`, which reads it with its player; its owner sees everything).
    A fixed number of queries."""
    is_owner = viewer.is_authenticated and viewer.pk == profile.player_id
    player = profile.player
    show = {name: getattr(profile, name) or is_owner for name in VISIBILITY}
    card = profile_card_of(
        profile,
        player,
        # Read always: the effective attributes count them, even when the list is hidden.
        traumas=trauma_lines(profile),
        vocations=_vocations(player),
        campaigns=_campaigns(player) if show["show_campaigns"] else [],
        settled_chapters=_settled(player) if show["show_statistics"] else 0,
        is_owner=is_owner,
    )
    # Hide what the player keeps private (the owner previews everything).
    hidden = {}
    if not show["show_attributes"]:
        hidden.update(
            physique=0, psychique=0, reflexes=0, combat=0, effective={}, life_markers=0, moral=0
        )
    if not show["show_traumas"]:
        hidden.update(traumas=[])
    if not show["show_description"]:
        hidden.update(portrait_url="", description="")
    if not show["show_equipment"]:
        hidden.update(equipment=[], cards=[])
    if hidden:
        card = replace(card, **hidden)
    return card

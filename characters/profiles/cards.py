"""Load what the profile pages show, in a fixed number of queries, as plain data."""

from dataclasses import dataclass, field
from datetime import datetime

from django.http import Http404

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
from rules.engine.systems.of_the_dead.effects import sheet_numbers

HISTORY_SHOWN = 50


@dataclass(frozen=True)
class TraumaLine:
    id: int
    name: str
    kind: str
    permanence: str
    effect: dict | None
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


def _traumas(profile: Profile) -> list[TraumaLine]:
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


def _vocations(player_id: int) -> list[VocationLine]:
    from campaigns.models import VocationAssignment

    rows = (
        VocationAssignment.objects.filter(player_id=player_id)
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


def _campaigns(player_id: int) -> list[CampaignPlayed]:
    from django.db.models import Count, Q

    from campaigns.models import Campaign

    rows = (
        Campaign.objects.filter(memberships__player_id=player_id, memberships__role="player")
        .annotate(
            played=Count("chapters__outcomes", filter=Q(chapters__outcomes__player_id=player_id))
        )
        .order_by("-created_at")
        .values_list("pk", "name", "system", "played")
    )
    return [CampaignPlayed(id=pk, name=n, system=s, chapters_played=p) for pk, n, s, p in rows]


def _settled(player_id: int) -> int:
    from campaigns.models import ChapterOutcome

    return ChapterOutcome.objects.filter(
        player_id=player_id, chapter__settled_at__isnull=False
    ).count()


def _card(profile: Profile, player: Player, **extra) -> ProfileCard:
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
    return _card(
        profile,
        user,
        traumas=_traumas(profile),
        vocations=_vocations(user.pk),
        campaigns=_campaigns(user.pk),
        history=[
            ProfileEventLine(
                at=at, actor=display or username or "", verb=verb, data=data, version=version
            )
            for at, display, username, verb, data, version in events
        ],
        settled_chapters=_settled(user.pk),
        is_owner=True,
    )


def public_profile_card(viewer, username: str) -> ProfileCard:
    """What the player chose to show; 404 when the profile is not public (its owner always
    sees it). A fixed number of queries."""
    profile = Profile.objects.select_related("player").filter(player__username=username).first()
    if profile is None:
        raise Http404
    is_owner = viewer.is_authenticated and viewer.pk == profile.player_id
    if not (profile.is_public or is_owner):
        raise Http404
    player = profile.player
    show = {name: getattr(profile, name) or is_owner for name in VISIBILITY}
    card = _card(
        profile,
        player,
        # Read always: the effective attributes count them, even when the list is hidden.
        traumas=_traumas(profile),
        vocations=_vocations(player.pk),
        campaigns=_campaigns(player.pk) if show["show_campaigns"] else [],
        settled_chapters=_settled(player.pk) if show["show_statistics"] else 0,
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
        from dataclasses import replace

        card = replace(card, **hidden)
    return card


@dataclass(frozen=True)
class SheetCard:
    profile: ProfileCard
    next_chapter: object | None  # campaigns.chapters.cards.UpcomingLine
    next_vocation: str


def sheet_card(user) -> SheetCard | None:
    """The paper sheet to print again: the profile, its active traumas, equipment and the
    next chapter's starting conditions (rule text: "refaire une nouvelle fiche et
    d'annoncer ses conditions de départ (équipement, trauma…)")."""
    from campaigns.chapters.cards import upcoming_for
    from campaigns.models import VocationAssignment

    profile = Profile.objects.filter(player=user).first()
    if profile is None:
        return None
    card = _card(profile, user, traumas=_traumas(profile), is_owner=True)
    upcoming = upcoming_for(user)
    next_chapter = upcoming[0] if upcoming else None
    vocation = ""
    if next_chapter is not None:
        vocation = (
            VocationAssignment.objects.filter(chapter_id=next_chapter.id, player=user)
            .values_list("vocation", flat=True)
            .first()
            or ""
        )
    return SheetCard(
        profile=card,
        next_chapter=next_chapter,
        next_vocation=Vocation(vocation).label if vocation else "",
    )

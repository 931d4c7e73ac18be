"""The only writer of Of the Dead profiles and their traumas.

Each service locks the profile row, validates, writes, bumps `version`, recomputes the
derived numbers from scratch (`rules.engine.systems.of_the_dead.effects.sheet_numbers`) and
appends one `ProfileEvent` (who, when, what). `actor` is the user acting, or None for system work
(the post-chapter settlement, and undoing it when its chapter is reopened). Pages, the
API and tasks call these; none saves a model.
"""

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.bounds import VERSION_MAX
from characters.models import (
    Profile,
    ProfileEvent,
    ProfileStatus,
    Trauma,
    TraumaKind,
    TraumaPermanence,
)
from characters.permissions import Forbidden, Refusal
from rules.engine.systems.of_the_dead import effects

ATTRIBUTE_LABELS = {
    "physique": "Physique",
    "psychique": "Psychique",
    "reflexes": "Réflexes",
    "combat": "Combat",
}
VISIBILITY_FIELDS = (
    "is_public",
    "show_attributes",
    "show_description",
    "show_traumas",
    "show_equipment",
    "show_statistics",
    "show_campaigns",
)
TEXT_FIELDS = ("description", "portrait_url")
LIST_FIELDS = ("equipment", "cards")
MAX_LIST_ENTRIES = 40
MAX_NAME_LENGTH = 80


def _record(*, profile: Profile, actor, verb: str, **data) -> ProfileEvent:
    return ProfileEvent.objects.create(
        profile=profile, actor=actor, verb=verb, data=data, version=profile.version
    )


def _check_attributes(attributes: dict) -> None:
    """RULES-NOTES O1, with the sentence a player reads beside the field."""
    for name in effects.ATTRIBUTES:
        value = attributes.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise Refusal(_("Give a whole number of points."), field=name)
    for problem in effects.creation_problems(attributes):
        if problem.code == "minimum":
            raise Refusal(
                _("%(attribute)s needs at least 1 point.")
                % {"attribute": ATTRIBUTE_LABELS[problem.field]},
                field=problem.field,
            )
        raise Refusal(
            _(
                "Share exactly 9 points between Physique, Psychique, Réflexes and Combat: "
                "these add up to %(total)s."
            )
            % {"total": problem.total},
            field="attributes",
        )


def _clean_names(values: Iterable[str], field: str) -> list[str]:
    if isinstance(values, str):
        values = values.splitlines()
    names = []
    for value in values:
        if not isinstance(value, str):
            raise Refusal(_("Give names as text."), field=field)
        name = " ".join(value.split())
        if not name:
            continue
        if len(name) > MAX_NAME_LENGTH:
            raise Refusal(
                _("Keep each name under %(n)s characters.") % {"n": MAX_NAME_LENGTH}, field=field
            )
        names.append(name)
    if len(names) > MAX_LIST_ENTRIES:
        raise Refusal(_("At most %(n)s entries.") % {"n": MAX_LIST_ENTRIES}, field=field)
    return names


def _apply_numbers(profile: Profile) -> None:
    """Life markers and Moral from the attributes and the active traumas (O1)."""
    trauma_effects = profile.traumas.filter(active=True).values_list("effect", flat=True)
    numbers = effects.sheet_numbers(profile.base_attributes, list(trauma_effects))
    profile.life_markers = numbers.life_markers
    profile.moral = numbers.moral


def _require_owner(actor, profile: Profile) -> None:
    if actor is not None and actor.pk != profile.player_id:
        raise Forbidden(_("Only its player changes this profile."))


def _locked(profile: Profile) -> Profile:
    return Profile.objects.select_for_update().get(pk=profile.pk)


def _save(profile: Profile) -> None:
    profile.version += 1
    _apply_numbers(profile)
    profile.save()


def _profile_set(locked: Profile, *, actor, name: str, value, verb: str, chapter) -> Profile:
    """Inside the caller's transaction, on the locked row: set one field (nothing when it
    already holds `value`), bump and recompute, and append `verb` with before and after."""
    before = getattr(locked, name)
    if before == value:
        return locked
    setattr(locked, name, value)
    _save(locked)
    _record(
        profile=locked,
        actor=actor,
        verb=verb,
        before=before,
        after=value,
        chapter=getattr(chapter, "pk", None),
    )
    return locked


def profile_create(
    *,
    actor,
    player,
    physique: int,
    psychique: int,
    reflexes: int,
    combat: int,
    description: str = "",
    portrait_url: str = "",
    equipment: Iterable[str] = (),
    cards: Iterable[str] = (),
) -> Profile:
    """Create the player's one Of the Dead character (RULES-NOTES O1)."""
    if actor is not None and actor.pk != player.pk:
        raise Forbidden(_("Only its player creates their profile."))
    attributes = {
        "physique": physique,
        "psychique": psychique,
        "reflexes": reflexes,
        "combat": combat,
    }
    _check_attributes(attributes)
    profile = Profile(
        player=player,
        **attributes,
        description=description.strip(),
        portrait_url=portrait_url.strip(),
        equipment=_clean_names(equipment, "equipment"),
        cards=_clean_names(cards, "cards"),
    )
    with transaction.atomic():
        if Profile.objects.filter(player=player).exists():
            raise Refusal(_("You already have an Of the Dead profile."), field="player")
        numbers = effects.sheet_numbers(attributes, [])
        profile.life_markers, profile.moral = numbers.life_markers, numbers.moral
        profile.save()
        _record(profile=profile, actor=actor, verb="created", **attributes)
    return profile


def profile_update(*, actor, profile: Profile, version: int | None = None, **changes) -> Profile:
    """Change what the player may change: attributes (still O1), portrait, description,
    equipment, cards and what the public page shows. `version`, when given, must be the
    one the player read."""
    _require_owner(actor, profile)
    allowed = {*effects.ATTRIBUTES, *TEXT_FIELDS, *LIST_FIELDS, *VISIBILITY_FIELDS}
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"profile_update cannot change {sorted(unknown)}")
    with transaction.atomic():
        locked = _locked(profile)
        if version is not None and version != locked.version:
            raise Refusal(
                _(
                    "This profile changed since you opened it; reload it and make your "
                    "change again."
                ),
                field="version",
                status=409,
            )
        before = {name: getattr(locked, name) for name in changes}
        attributes = {name: changes.get(name, getattr(locked, name)) for name in effects.ATTRIBUTES}
        if any(name in changes for name in effects.ATTRIBUTES):
            _check_attributes(attributes)
        for name in effects.ATTRIBUTES:
            setattr(locked, name, attributes[name])
        for name in TEXT_FIELDS:
            if name in changes:
                setattr(locked, name, str(changes[name]).strip())
        for name in LIST_FIELDS:
            if name in changes:
                setattr(locked, name, _clean_names(changes[name], name))
        for name in VISIBILITY_FIELDS:
            if name in changes:
                setattr(locked, name, bool(changes[name]))
        changed = {
            name: [before[name], getattr(locked, name)]
            for name in changes
            if before[name] != getattr(locked, name)
        }
        if not changed:
            return locked
        _save(locked)
        _record(profile=locked, actor=actor, verb="updated", changes=changed)
    return locked


def trauma_add(
    *,
    actor,
    profile: Profile,
    name: str,
    kind: str,
    permanence: str = TraumaPermanence.TEMPORARY,
    chapter=None,
    effect: dict | None = None,
    notes: str = "",
) -> Trauma:
    """Note a trauma on the sheet; its effect counts at once in the derived numbers."""
    _require_owner(actor, profile)
    name = " ".join(name.split())
    if not name:
        raise Refusal(_("Name the trauma (amputated, deaf, berserk…)."), field="name")
    if kind not in TraumaKind.values:
        raise Refusal(_("A trauma is physical or psychic."), field="kind")
    if permanence not in TraumaPermanence.values:
        raise Refusal(_("A trauma is temporary or permanent."), field="permanence")
    if effects.effect_problems(effect) is not None:
        raise Refusal(
            _(
                "Write the effect as attribute changes, for example physique -1; attributes "
                "are physique, psychique, reflexes and combat."
            ),
            field="effect",
        )
    with transaction.atomic():
        locked = _locked(profile)
        trauma = Trauma.objects.create(
            profile=locked,
            name=name,
            kind=kind,
            permanence=permanence,
            chapter=chapter,
            effect=effect,
            notes=notes.strip(),
        )
        _save(locked)
        _record(
            profile=locked,
            actor=actor,
            verb="trauma_added",
            trauma=trauma.pk,
            name=name,
            kind=kind,
            permanence=permanence,
            effect=effect,
            chapter=getattr(chapter, "pk", None),
        )
    return trauma


def _trauma_set(
    *, actor, trauma: Trauma, chapter, verb: str, state: dict, also: dict | None = None, refuse=None
) -> Trauma:
    """The one shape of a change to a trauma: lock the profile and the trauma, check the
    actor (None: system work), let `refuse(trauma)` raise a Refusal, do nothing when the
    trauma is already in `state`, else write `state` and `also`, bump and recompute the
    profile, and append one event named `verb`."""
    with transaction.atomic():
        locked = _locked(trauma.profile)
        _require_owner(actor, locked)
        trauma = Trauma.objects.select_for_update().get(pk=trauma.pk)
        if refuse is not None:
            refuse(trauma)
        if all(getattr(trauma, name) == value for name, value in state.items()):
            return trauma
        fields = {**state, **(also or {})}
        for name, value in fields.items():
            setattr(trauma, name, value)
        trauma.save(update_fields=list(fields))
        _save(locked)
        _record(
            profile=locked,
            actor=actor,
            verb=verb,
            trauma=trauma.pk,
            name=trauma.name,
            chapter=getattr(chapter, "pk", None),
        )
    return trauma


def _refuse_healing_permanent(trauma: Trauma) -> None:
    if trauma.permanence == TraumaPermanence.PERMANENT:
        raise Refusal(_("A permanent trauma does not heal."), field="trauma")


def _refuse_healed(trauma: Trauma) -> None:
    if not trauma.active:
        raise Refusal(_("This trauma is healed."), field="trauma")


def trauma_heal(*, actor, trauma: Trauma, chapter=None) -> Trauma:
    """A temporary trauma heals (RULES-NOTES O6, on victory); a permanent one never does."""
    return _trauma_set(
        actor=actor,
        trauma=trauma,
        chapter=chapter,
        verb="trauma_healed",
        state={"active": False},
        also={"healed_at": timezone.now()},
        refuse=_refuse_healing_permanent,
    )


def trauma_make_permanent(*, actor, trauma: Trauma, chapter=None) -> Trauma:
    """A temporary trauma becomes permanent (RULES-NOTES O6, on defeat)."""
    return _trauma_set(
        actor=actor,
        trauma=trauma,
        chapter=chapter,
        verb="trauma_made_permanent",
        state={"permanence": TraumaPermanence.PERMANENT},
        refuse=_refuse_healed,
    )


# Undoing what a post-chapter settlement did, when its chapter is reopened: system work
# only (no actor: the organiser's reopening, campaigns.settlement.services, decides it). Nothing a
# player does reaches these.


def trauma_unheal(*, trauma: Trauma, chapter=None) -> Trauma:
    """A trauma healed by a settlement that is reopened is active again."""
    return _trauma_set(
        actor=None,
        trauma=trauma,
        chapter=chapter,
        verb="trauma_unhealed",
        state={"active": True},
        also={"healed_at": None},
    )


def trauma_make_temporary(*, trauma: Trauma, chapter=None) -> Trauma:
    """A trauma made permanent by a settlement that is reopened is temporary again."""
    return _trauma_set(
        actor=None,
        trauma=trauma,
        chapter=chapter,
        verb="trauma_made_temporary",
        state={"permanence": TraumaPermanence.TEMPORARY},
    )


def profile_set_status(*, actor, profile: Profile, status: str, chapter=None) -> Profile:
    """Alive, dead, zombie or reincarnated (RULES-NOTES O6: a dead player character returns
    as a zombie or takes the reincarnation rule, the player's choice)."""
    if status not in ProfileStatus.values:
        raise Refusal(_("Unknown status."), field="status")
    with transaction.atomic():
        locked = _locked(profile)
        _require_owner(actor, locked)
        if status in (ProfileStatus.ZOMBIE, ProfileStatus.REINCARNATED) and (
            actor is not None and locked.status != ProfileStatus.DEAD
        ):
            raise Refusal(
                _("Only a dead character comes back as a zombie or by reincarnation."),
                field="status",
            )
        return _profile_set(
            locked, actor=actor, name="status", value=status, verb="status_changed", chapter=chapter
        )


def profile_set_survival_points(*, actor, profile: Profile, points: int, chapter=None) -> Profile:
    """Store survival points the settlement recomputed from scratch (never a delta)."""
    if actor is not None:
        raise Forbidden(_("Survival points come from settled chapters only."))
    if not isinstance(points, int) or points < 0:
        raise ValueError("survival points are a whole number >= 0")
    if points > VERSION_MAX:  # the column's range (PositiveIntegerField), never overflowed
        raise Refusal(
            _("These survival points are more than a sheet can hold (%(max)s).")
            % {"max": VERSION_MAX}
        )
    with transaction.atomic():
        return _profile_set(
            _locked(profile),
            actor=actor,
            name="survival_points",
            value=points,
            verb="survival_points_set",
            chapter=chapter,
        )

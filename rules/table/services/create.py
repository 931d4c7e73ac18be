"""Opening an encounter: a chapter's, or a pick-up game of any system the table plays; and
the zombies and other characters an organiser adds to an Of the Dead encounter.

Each opens in one transaction, writes the encounter's first line in the log (`log`), and
for a chapter's encounter records it in the chapter (`campaigns.chapters.services`).
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.chapters.services import chapter_table_record
from campaigns.models import Chapter, ChapterStatus, ZombieType
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from characters.corporates.models import CorporatesCharacter
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.models import Profile
from characters.permissions import Forbidden, Refusal
from characters.profiles.models import ProfileStatus
from characters.rapid40k.models import Rapid40kArmy
from rules.table import of_the_dead, rapid40k
from rules.table.kolaps import adapter as kolaps
from rules.table.kolaps.combatants import unit_combatants
from rules.table.models import Combatant, Encounter, EncounterEntry, EntryKind
from rules.table.selectors import require_role
from rules.table.services.lock import combatants_locked, lock, log, new_token
from rules.table.systems import adapter_for, plays

TITLE_MAX = 160


def _add(encounter: Encounter, combatants: list[Combatant]) -> None:
    for position, combatant in enumerate(combatants):
        combatant.encounter = encounter
        combatant.position = position
        combatant.save()


def _clean_title(title: str, default: str) -> str:
    title = " ".join(str(title or "").split()) or default
    if len(title) > TITLE_MAX:
        raise Refusal(_("A title has at most 160 characters."), field="title")
    return title


def _created(actor, encounter: Encounter, sides: list[str]) -> Encounter:
    if adapter_for(encounter.system).HAS_ATTACKER:
        encounter.attacker_side = sides[0]
    log(encounter, actor, EntryKind.CREATED, data={"sides": sides})
    return encounter


def encounter_create_for_chapter(*, actor, chapter: Chapter, title: str = "") -> Encounter:
    """An organiser opens the live encounter of the chapter being played: its system's
    adapter says who fights on which side (KOLAPS: the units entered)."""
    roles = campaign_role(actor, chapter.campaign)
    if not roles & CAN_VIEW:
        raise Forbidden(_("You are not allowed to do this."))
    if not roles & CAN_MANAGE:
        raise Forbidden(_("Only the campaign's organisers open an encounter."))
    if not plays(chapter.campaign.system):
        raise Refusal(_("The live table does not play this game system."), field="chapter")
    adapter = adapter_for(chapter.campaign.system)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        if locked.status != ChapterStatus.CURRENT:
            raise Refusal(_("An encounter opens while the chapter is being played."))
        locked.campaign = chapter.campaign
        sides, combatants, catalogue_version = adapter.chapter_combatants(locked)
        encounter = Encounter.objects.create(
            system=adapter.SYSTEM,
            chapter=locked,
            created_by=actor,
            title=_clean_title(title, locked.title),
            spectator_token=new_token(),
            catalogue_version=catalogue_version,
            phase=adapter.FIRST_PHASE,
        )
        _add(encounter, combatants)
        chapter_table_record(
            actor=actor, chapter=locked, record={"encounter": encounter.pk, "ended": False}
        )
        return _created(actor, encounter, sides)


def encounter_create_pickup(
    *,
    actor,
    system: str,
    sides: list[str],
    combatants: list[Combatant],
    title: str,
    catalogue_version: str = "",
) -> Encounter:
    """A pick-up game of any system the table plays, from its adapter's sides and unsaved
    combatants: the actor organises it."""
    adapter = adapter_for(system)
    with transaction.atomic():
        encounter = Encounter.objects.create(
            system=adapter.SYSTEM,
            created_by=actor,
            title=title,
            spectator_token=new_token(),
            catalogue_version=catalogue_version,
            phase=adapter.FIRST_PHASE,
        )
        _add(encounter, combatants)
        return _created(actor, encounter, sides)


def encounter_create_quick_party(*, actor, title: str = "") -> Encounter:
    """A pick-up Of the Dead game: your living character, if you have one; you organise it
    and add the zombies and the other characters (`encounter_add_combatants`)."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    profile = (
        Profile.objects.filter(player=actor, status=ProfileStatus.ALIVE)
        .select_related("player")
        .first()
    )
    combatants = [of_the_dead.profile_combatant(profile)] if profile else []
    return encounter_create_pickup(
        actor=actor,
        system=of_the_dead.ADAPTER.SYSTEM,
        sides=[of_the_dead.SURVIVORS, of_the_dead.ZOMBIES],
        combatants=combatants,
        title=_clean_title(title, _("A quick party")),
    )


@dataclass(frozen=True)
class NewCombatants:
    """Combatants an organiser adds to an Of the Dead encounter: `count` zombies of a type
    (named after it, numbered) or one non-player character, with their attributes."""

    kind: str
    zombie_type: str = ""
    name: str = ""
    side: str = ""
    count: int = 1
    reflexes: int = 1
    combat: int = 1
    physique: int = 1
    life: int = 2
    moral: int = 0


ATTRIBUTE_MAX, LIFE_MAX, MORAL_MAX, ADD_MAX = 12, 40, 40, 20


def _new_combatants(spec: NewCombatants, taken: set[str]) -> list[Combatant]:
    if spec.kind not in (of_the_dead.ZOMBIE, of_the_dead.NPC):
        raise Refusal(_("Choose a zombie or a non-player character."), field="kind")
    if spec.kind == of_the_dead.ZOMBIE and spec.zombie_type not in ZombieType.values:
        raise Refusal(_("Choose a zombie type."), field="zombie_type")
    if not 1 <= spec.count <= ADD_MAX:
        raise Refusal(_("From 1 to 20 at once."), field="count")
    for field_name in ("reflexes", "combat", "physique"):
        if not 0 <= getattr(spec, field_name) <= ATTRIBUTE_MAX:
            raise Refusal(_("An attribute from 0 to 12."), field=field_name)
    if not 1 <= spec.life <= LIFE_MAX:
        raise Refusal(_("Life markers from 1 to 40."), field="life")
    if not 0 <= spec.moral <= MORAL_MAX:
        raise Refusal(_("A Moral from 0 to 40."), field="moral")
    side = spec.side or (
        of_the_dead.ZOMBIES if spec.kind == of_the_dead.ZOMBIE else of_the_dead.OTHERS
    )
    if side not in of_the_dead.SIDE_LABELS:
        raise Refusal(_("Choose a side."), field="side")
    base = " ".join(str(spec.name or "").split())
    if spec.kind == of_the_dead.ZOMBIE and not base:
        base = ZombieType(spec.zombie_type).label
    if not base:
        raise Refusal(_("Give the character a name."), field="name")
    if len(base) > 70:
        raise Refusal(_("A name has at most 70 characters."), field="name")
    made = []
    number = 1
    for _i in range(spec.count):
        name = base
        if spec.count > 1 or name in taken:
            while f"{base} {number}" in taken:
                number += 1
            name = f"{base} {number}"
        taken.add(name)
        made.append(
            Combatant(
                side=side,
                name=name,
                state=of_the_dead.new_state(
                    kind=spec.kind,
                    zombie_type=spec.zombie_type if spec.kind == of_the_dead.ZOMBIE else "",
                    reflexes=spec.reflexes,
                    combat=spec.combat,
                    physique=spec.physique,
                    life=spec.life,
                    moral=spec.moral,
                ),
            )
        )
    return made


def encounter_add_combatants(
    *, actor, encounter: Encounter, version: int | None, spec: NewCombatants
) -> EncounterEntry:
    """The organiser adds zombies by type, or a non-player character, to an Of the Dead
    encounter; the initiative order takes them in at once."""
    require_role(actor, encounter, CAN_MANAGE)
    if encounter.system != of_the_dead.ADAPTER.SYSTEM:
        raise Refusal(_("Zombies and non-player characters join Of the Dead encounters."))
    with transaction.atomic():
        locked = lock(actor, encounter, version)
        everyone = combatants_locked(locked)
        made = _new_combatants(spec, {c.name for c in everyone})
        start = max((c.position for c in everyone), default=-1) + 1
        for position, combatant in enumerate(made, start=start):
            combatant.encounter = locked
            combatant.position = position
            combatant.save()
        return log(
            locked, actor, EntryKind.CREATED,
            data={"added": [c.name for c in made], "side": made[0].side},
        )  # fmt: skip


def _two_sides(actor, rosters: list, *, field: str, sentences: dict[str, str]) -> list[str]:
    """Two different rosters (units, armies) for a pick-up game: the actor's own or shared
    with them by link (the callers find another player's by its share token only, never by
    its number). Their names are the sides."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    if len(rosters) != 2 or any(r is None for r in rosters):
        raise Refusal(sentences["two"], field=field)
    if rosters[0].pk == rosters[1].pk:
        raise Refusal(sentences["different"], field=field)
    for roster in rosters:
        if roster.owner_id != actor.pk and not roster.share_token:
            raise Refusal(sentences["own"], field=field)
    names = [r.name for r in rosters]
    return names if names[0] != names[1] else [f"{names[0]} (1)", f"{names[1]} (2)"]


def encounter_create_standalone(*, actor, units: list[KolapsUnit | None], title: str = ""):
    """A pick-up game between two KOLAPS units: your own, or units shared with you by link.
    You organise it; each unit's owner plays its characters."""
    sides = _two_sides(
        actor,
        units,
        field="units",
        sentences={
            "two": _("Choose two units."),
            "different": _("Choose two different units."),
            "own": _("Choose your own units or units shared with you."),
        },
    )
    for unit in units:
        if not KolapsCharacter.objects.filter(unit=unit).exists():
            raise Refusal(_("A unit without characters cannot fight."), field="units")
    return encounter_create_pickup(
        actor=actor,
        system=kolaps.ADAPTER.SYSTEM,
        sides=sides,
        combatants=[
            c
            for unit, side in zip(units, sides, strict=True)
            for c in unit_combatants(unit, side, unit.owner)
        ],
        title=_clean_title(title, " / ".join(u.name for u in units)),
        catalogue_version=units[0].catalogue_version,
    )


def encounter_create_armies(*, actor, armies: list[Rapid40kArmy | None], title: str = ""):
    """A pick-up game of Rapid 40000 between two army lists: your own, or lists shared with
    you by link. You organise it; each list's owner plays its squads."""
    sides = _two_sides(
        actor,
        armies,
        field="armies",
        sentences={
            "two": _("Choose two army lists."),
            "different": _("Choose two different army lists."),
            "own": _("Choose your own army lists or lists shared with you."),
        },
    )
    combatants = [
        c
        for army, side in zip(armies, sides, strict=True)
        for c in rapid40k.army_combatants(army, side, army.owner)
    ]
    if {c.side for c in combatants} != set(sides):
        raise Refusal(_("An army list without squads cannot fight."), field="armies")
    return encounter_create_pickup(
        actor=actor,
        system=rapid40k.ADAPTER.SYSTEM,
        sides=sides,
        combatants=combatants,
        title=_clean_title(title, " / ".join(a.name for a in armies)),
        catalogue_version=armies[0].catalogue_version,
    )


QUICK_SYSTEMS = ("corporates", "modern-rpg")
FIGHTERS_MAX = 12


def encounter_create_quick(
    *,
    actor,
    system: str,
    sides: list[str],
    fighters: list[list[str]],
    title: str = "",
    sheets: list[list[int]] | None = None,
) -> Encounter:
    """A pick-up game of Corporates or the modern RPG: two sides of named fighters at the
    system's default numbers (its adapter's `fighter_state`), and for Corporates, fighters
    drawn from the actor's own character sheets (`sheets`: ids per side; the adapter's
    `sheet_state` feeds their numbers to the resolvers); the actor organises and plays them
    all."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    if system not in QUICK_SYSTEMS:
        raise Refusal(_("The live table does not play this game system."), field="system")
    names = [" ".join(str(s or "").split())[:80] for s in sides]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        raise Refusal(_("Name two different sides."), field="sides")
    rosters = [[" ".join(str(n).split())[:80] for n in side if str(n).strip()] for side in fighters]
    drawn = _quick_sheets(actor, system, sheets)
    if len(rosters) != 2 or not all(r or d for r, d in zip(rosters, drawn, strict=False)):
        raise Refusal(_("Each side needs at least one fighter."), field="fighters")
    if sum(len(r) for r in rosters) + sum(len(d) for d in drawn) > FIGHTERS_MAX:
        raise Refusal(
            _("At most %(n)s fighters in a pick-up game.") % {"n": FIGHTERS_MAX}, field="fighters"
        )
    adapter = adapter_for(system)
    return encounter_create_pickup(
        actor=actor,
        system=system,
        sides=names,
        combatants=[
            *(
                Combatant(
                    side=side, name=sheet.name, player=actor, state=adapter.sheet_state(sheet)
                )
                for side, side_sheets in zip(names, drawn, strict=True)
                for sheet in side_sheets
            ),
            *(
                Combatant(side=side, name=name, player=actor, state=adapter.fighter_state())
                for side, roster in zip(names, rosters, strict=True)
                for name in roster
            ),
        ],
        title=_clean_title(title, " / ".join(names)),
    )


def _quick_sheets(actor, system: str, sheets: list[list[int]] | None) -> list[list]:
    """The actor's own Corporates sheets chosen for each side (another's, or one chosen
    twice, is refused)."""
    if not sheets or not any(sheets):
        return [[], []]
    if not adapter_for(system).DRAWS_FROM_SHEETS:
        raise Refusal(_("Only Corporates fighters are drawn from sheets."), field="sheets")
    if len(sheets) != 2:
        raise Refusal(_("Choose the sheets of each of the two sides."), field="sheets")
    ids = [pk for side in sheets for pk in side]
    own = {c.pk: c for c in CorporatesCharacter.objects.owned_by(actor).filter(pk__in=ids)}
    if len(set(ids)) != len(ids) or set(ids) - set(own):
        raise Refusal(_("Choose your own sheets, each once."), field="sheets")
    return [[own[pk] for pk in side] for side in sheets]

"""KOLAPS at the table: the combatants. A unit's characters as combatants (as the unit is
for a pick-up game, as its chapter froze it, with K12's side changes), the catalogue they
are read with, their weapons and talents, and what their card says of them (K18's notes).
"""

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from characters.kolaps.models import KolapsCharacter, KolapsUnit
from rules.engine.systems.kolaps import at_the_table as k18
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.table.models import Combatant

# The side a character played for before K12 sent it to the other (kept in its state).
K12_FROM = "k12_from"

# K11's order directives, as the table names them.
DIRECTIVE_LABELS = {
    "support": gettext_lazy("Support"),
    "defensive": gettext_lazy("Defensive"),
    "offensive": gettext_lazy("Offensive"),
    "movement": gettext_lazy("Movement"),
}


def catalogue_of(version: str) -> Catalogue:
    try:
        return load_catalogue(version) if version else load_catalogue()
    except (KeyError, ValueError, FileNotFoundError):
        return load_catalogue()


def weapons_of(equipment: Iterable[str], catalogue: Catalogue) -> list[str]:
    """The weapons among a character's equipment, in its order."""
    return [slug for slug in equipment if slug in catalogue.weapons]


def armour_of(equipment: Iterable[str], catalogue: Catalogue) -> str:
    return next((slug for slug in equipment if slug in catalogue.armours), "")


def weapons_for(combatant, kind: str, catalogue: Catalogue) -> list[str]:
    """The combatant's weapons of a kind ("ranged" or "melee")."""
    return [
        w for w in combatant.weapons if w in catalogue.weapons and catalogue.weapons[w].kind == kind
    ]


def talents_of(combatant, catalogue: Catalogue) -> dict[str, int]:
    """The combatant's talents the resolvers know, at a level they accept."""
    return {
        slug: int(level)
        for slug, level in (combatant.talents or {}).items()
        if slug in catalogue.talents and 0 <= int(level) <= 3
    }


def pistols_for(combatant, catalogue: Catalogue) -> list[str]:
    """The combatant's pistols, if it has armed fists (K18; Poing armé: "peuvent utiliser une
    arme de type pistolet au corps à corps"), else none."""
    if k18.ARMED_FIST not in talents_of(combatant, catalogue):
        return []
    return [
        w
        for w in combatant.weapons
        if w in catalogue.weapons and catalogue.weapons[w].talent == k18.PISTOL_TALENT
    ]


def armed_fist_of(combatant, catalogue: Catalogue | None = None) -> bool:
    """Whether the combatant may fight in melee with armed fists (the card offers it)."""
    return bool(pistols_for(combatant, catalogue or load_catalogue()))


def regeneration_of(combatant, catalogue: Catalogue) -> int:
    """K18: "level 0 of inhuman metabolism regenerating 1 Santé in the end phase"."""
    return k18.regeneration(talents_of(combatant, catalogue), catalogue)


def melee_breath_of(combatant) -> dict[str, int]:
    """K18: "1 Souffle per melee turn after the first" (Le Souffle: "où le personnage est
    offensif"): the turns in a row this combatant has been engaged, this one included, and
    the Souffle this turn costs it (an offensive order; taken in the end phase)."""
    turns = int((combatant.state or {}).get("melee_turns", 0)) + 1 if combatant.engaged else 0
    offensive = combatant.directive == "offensive"
    return {"turns": turns, "souffle": k18.melee_breath(turns, offensive) if turns else 0}


def moral_changes_of(combatant) -> int:
    """The Moral the turn's K18 events give or take (the Avatar's never changes, K13)."""
    events = (combatant.state or {}).get("moral_events") or {}
    counted = {e: int(n) for e, n in events.items() if e in k18.EVENTS and n}
    terreur = 0 if combatant.is_avatar else int((combatant.state or {}).get("terreur_moral", 0))
    return k18.moral_from_events(combatant.rank, combatant.is_avatar, counted) + terreur


# K18's Moral effects by value (the activation die), as the card says them.
MORAL_EFFECT_LABELS = {
    "may_change_order": gettext_lazy("may change its order"),
    "must_change_order": gettext_lazy("must take an order of another nature"),
    "flees": gettext_lazy("flees towards the table's edge"),
    "opponent_changes_order": gettext_lazy("the opponent changes its order"),
    "rogue_against_avatar": gettext_lazy("turns against the Avatar, a third faction"),
    "activates_with_another": gettext_lazy("activates with another vampire"),
    "charges_nearest_enemy": gettext_lazy("charges the nearest enemy"),
    "frenzy": gettext_lazy("frenzy: attacks on sight"),
}


def _faces(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def combatant_notes(combatant, catalogue: Catalogue | None = None) -> list[str]:
    """What K18 lets a combatant do, on its card: the activation die's effects at its Moral
    (both tables), the ground, the regeneration and the Moral its turn's events will give."""
    if combatant.dead:
        return []
    catalogue = catalogue or load_catalogue()
    notes = []
    table = k18.load_table_rules().moral_effects.get(combatant.affiliation)
    if table is not None and not combatant.is_avatar:
        effects = [
            _("on %(faces)s, %(effect)s") % {"faces": _faces(low, high), "effect": label}
            for low, high, effect in table[combatant.moral]
            if (label := MORAL_EFFECT_LABELS.get(effect)) is not None
        ]
        if effects:
            notes.append(
                _("Activation die at Moral %(moral)s: %(effects)s.")
                % {"moral": combatant.moral, "effects": "; ".join(effects)}
            )
    if combatant.on_ground:
        rules = k18.load_table_rules()
        notes.append(
            _(
                "On the ground: static, +%(db)s DB, a quarter of its move; a turn in support "
                "to get up."
            )
            % {"db": rules.ground_db}
        )
    healing = regeneration_of(combatant, catalogue)
    if healing:
        notes.append(
            ngettext(
                "Regenerates %(count)s Santé in the end phase.",
                "Regenerates %(count)s Santé in the end phase.",
                healing,
            )
            % {"count": healing}
        )
    change = moral_changes_of(combatant)
    if change:
        notes.append(
            _("Moral in the end phase: %(change)+d (the turn's events).") % {"change": change}
        )
    return notes


def unit_combatants(unit: KolapsUnit, side: str, player) -> list[Combatant]:
    """A unit's characters as (unsaved) combatants of one side, played by `player`."""
    catalogue = catalogue_of(unit.catalogue_version)
    members = KolapsCharacter.objects.filter(unit=unit).order_by("position", "pk")
    return [
        Combatant(
            side=side,
            name=character.name,
            player=player,
            kolaps_character=character,
            rank=character.rank,
            affiliation=character.affiliation,
            is_avatar=character.is_avatar,
            talents=character.talents,
            weapons=weapons_of(character.equipment, catalogue),
            armour=armour_of(character.equipment, catalogue),
            sante=character.sante,
            souffle=character.souffle,
            moral=character.moral,
        )
        for character in members
    ]


def frozen_combatants(frozen: dict, side: str, players: dict, existing: set[int]):
    """A unit as it was frozen when its chapter started (`campaigns.chapters.entries`), as
    (unsaved) combatants: a character who changes sides under K12 (`changes_side_to`)
    plays for the other side, by its player, and remembers the side it came from.
    `existing`: the frozen characters still kept by the unit's player (a campaign imported
    from another site froze ids that are not this site's)."""
    catalogue = catalogue_of(frozen["catalogue_version"])
    combatants = []
    for member in frozen["members"]:
        plays_for = member.get("changes_side_to") or side
        combatants.append(
            Combatant(
                side=plays_for,
                name=member["name"],
                player=players[plays_for],
                kolaps_character_id=member["id"] if member["id"] in existing else None,
                rank=member["rank"],
                affiliation=member["affiliation"],
                is_avatar=member["is_avatar"],
                talents=member["talents"],
                weapons=weapons_of(member["equipment"], catalogue),
                armour=armour_of(member["equipment"], catalogue),
                sante=member["sante"],
                souffle=member["souffle"],
                moral=member["moral"],
                state={K12_FROM: side} if plays_for != side else {},
            )
        )
    return combatants

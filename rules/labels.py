"""The words the calculators, the roll pages and the encounter log show for what the engine
returns (ranks, outcomes, damage rows, modifiers, follow-up rolls, orders, cover)."""

from django.utils.translation import gettext_lazy as _

from rules.engine.systems.kolaps.catalogue import load_catalogue as load_kolaps

RANK_LABELS = {
    "novice": _("Novice"),
    "aguerri": _("Aguerri"),
    "veteran": _("Vétéran"),
    "expert": _("Expert"),
}


# Rapid 40000's contests and Quality rolls (its calculators and its live table).
RAPID40K_OUTCOME_LABELS = {
    "a_wins": _("A wins: B removes a figure"),
    "b_wins": _("B wins: A removes a figure"),
    "tie": _("Tie: nobody removes a figure"),
    "armour_saved": _("Lost by one point: the armour saves"),
    "hit": _("Hit: the target removes a figure"),
    "no_effect": _("No effect"),
    "deviated": _("Deviated: the shot lands at 12 ps"),
    "on_target": _("On target"),
    "holds": _("The squad holds"),
    "flees_one_move": _("Flees: one move to the table edge"),
    "flees_two_moves": _("Flees: two moves to the table edge"),
    "routs": _("Routs: the squad is removed"),
    "disengages": _("Disengages and falls back 2 ps"),
    "stays_engaged": _("Stays in the melee"),
    "destroyed": _("Vehicle destroyed"),
    "immobilised": _("Vehicle immobilised"),
    "undamaged": _("Vehicle undamaged"),
}


def rank_label(rank: str) -> str:
    """`veteran` -> "Vétéran"."""
    return str(RANK_LABELS.get(rank, rank))


def weapon_label(slug: str) -> str:
    """A KOLAPS weapon by its catalogue name ("fa-f4" -> "FA F4"), as the builder shows it."""
    weapon = load_kolaps().weapons.get(slug)
    return weapon.label if weapon is not None else slug


OUTCOME_LABELS = {
    **RAPID40K_OUTCOME_LABELS,
    "critical_failure": _("Critical failure"),
    "failure_with_one": _("Failure with a 1"),
    "failure": _("Failure"),
    "mitigated_success": _("Mitigated success"),
    "success": _("Success"),
    "critical_success": _("Critical success"),
}


ROW_LABELS = {
    "major_incident": _("Major incident"),
    "minor_incident": _("Minor incident"),
    "miss": _("Miss"),
    "hit_but": _("Hit, but…"),
    "superficial": _("Superficial wound"),
    "benign": _("Benign wound"),
    "light": _("Light wound"),
    "serious": _("Serious wound"),
    "grave": _("Grave wound"),
    "very_grave": _("Very grave wound"),
    "lethal": _("Lethal wound"),
    "exchange": _("Harmless exchange"),
}


MODIFIER_LABELS = {
    "opposition": _("6 minus the difference of the scores"),
    "expertise": _("Expertise"),
    "static_target": _("Static target"),
    "talent": _("Talent"),
    "mode": _("Firing mode"),
    "equipment": _("Equipment"),
    "protection": _("Protection"),
    "range": _("Range"),
    "target_movement": _("Target movement"),
    "cover": _("Cover type"),
    "melee": _("Shooting into a melee"),
    "defender": _("Defender's talent"),
    "support": _("Support"),
    "trait": _("Veteran trait"),
}


FOLLOW_UP_LABELS = {
    "dice": _("Dice rolled by hand"),
    "power_dice": _("Weapon power dice"),
    "power_bonus_dice": _("Talent power dice"),
    "death_die": _("Target's death roll"),
    "incident_die": _("Major incident die"),
    "attacker_death_die": _("Attacker's death roll"),
    "stray_die": _("Stray shot die"),
    "stray_death_die": _("Death roll of the ally hit by the stray shot"),
    "temper_die": _("Temper die (1 Moral lost below 3)"),
    "a_dice": _("Exploding die of fighter A"),
    "b_dice": _("Exploding die of fighter B"),
}


ORDER_LABELS = {
    "support": _("Support"),
    "defensive": _("Defensive"),
    "offensive": _("Offensive"),
    "movement": _("Movement"),
}


COVER_LABELS = [
    (0, _("No cover")),
    (1, _("Type 1: light (bush, bin)")),
    (2, _("Type 2: medium (fence, inside a car)")),
    (3, _("Type 3: heavy (car, low wall)")),
    (4, _("Type 4: total (wall)")),
]


def modifier_label(source: str) -> str:
    """`cover:3` -> "Cover type 3"; `talent:tir-instinctif` -> "Talent tir-instinctif"."""
    head, _sep, tail = source.partition(":")
    label = str(MODIFIER_LABELS.get(head, head))
    return f"{label} {tail.replace('_', ' ')}".strip()


# What each resolver of each system is called, here once: the calculators' headings, the
# server rolls' list and page, the encounter log.
RESOLVER_LABELS_BY_SYSTEM = {
    "kolaps": {
        "test": _("Talent test"),
        "ranged": _("Ranged attack"),
        "melee": _("Melee"),
        "death": _("Death roll"),
        "initial_morale": _("Initial morale"),
        "end_phase": _("End phase"),
        "next_attacker": _("Next attacker"),
        "vigilance": _("Vigilance"),
        "six_six_six": _("The 666"),
        "shield": _("Shield roll"),
        "sonar": _("Sonar roll"),
        "terreur": _("Terror roll"),
        "ralliement": _("Rally"),
        "fall": _("Fall"),
        "moral_effect": _("Moral effect"),
        "stray_shot": _("Stray shot"),
        "bookkeeping": _("Bookkeeping"),
    },
    "of-the-dead": {
        "brawl": _("Brawl"),
        "shot": _("Shot"),
        "throw": _("Throw"),
        "blast": _("Blast"),
        "check": _("Check"),
        "initiative": _("Initiative"),
        "movement": _("Movement"),
        "wrap_up": _("End of the turn"),
    },
    "rapid40k": {
        "cost": _("Profile cost"),
        "melee": _("Melee"),
        "shooting": _("Shooting"),
        "overwatch": _("Overwatch"),
        "deviation": _("Missile deviation"),
        "morale": _("Morale"),
        "disengage": _("Disengagement"),
        "vehicle": _("Vehicle attack"),
    },
    "corporates": {
        "action": _("Action roll"),
        "reaction": _("Reaction rolls: who has the initiative"),
        "schedule": _("Turn schedule"),
        "shot": _("Shot and burst"),
        "damage": _("Damage against soak"),
        "covering_fire": _("Covering fire"),
        "melee": _("Melee blow"),
        "critical": _("Critical wound"),
        "cyber": _("Damage to cybernetics"),
        "takedown": _("Trip, hold and throw"),
        "ramming": _("Ramming charge"),
    },
    "modern-rpg": {
        "test": _("Test"),
        "cold_blood": _("Cold-blood test"),
        "attitude": _("Attitudes"),
        "combat": _("Attack and damage"),
        "healing": _("Care"),
        "chase": _("Chase round"),
        "chase_test": _("Chase test: running or driving"),
    },
}
# KOLAPS' and Of the Dead's, for callers that do not know the system (the encounter log).
RESOLVER_LABELS = {
    **RESOLVER_LABELS_BY_SYSTEM["of-the-dead"],
    **RESOLVER_LABELS_BY_SYSTEM["kolaps"],
}


def resolver_label(resolver: str, system: str = "") -> str:
    """`ranged` -> "Ranged attack": what a roll was, in the calculators' words."""
    labels = RESOLVER_LABELS_BY_SYSTEM.get(system, RESOLVER_LABELS)
    return str(labels.get(resolver, resolver.replace("_", " ")))


OUTCOME_LABELS_BY_SYSTEM = {"kolaps": OUTCOME_LABELS, "rapid40k": RAPID40K_OUTCOME_LABELS}


def outcome_label(outcome: str | None, system: str = "kolaps") -> str:
    """A resolver's `outcome` code in words ("holds" -> "The squad holds")."""
    labels = OUTCOME_LABELS_BY_SYSTEM.get(system, OUTCOME_LABELS)
    return str(labels.get(outcome or "", (outcome or "").replace("_", " ")))


# What an incident (K9) or a stray shot does, as the follow-up tables name it.
EFFECT_LABELS = {
    "weapon_destroyed": _("the weapon is destroyed"),
    "attacker_falls": _("the attacker falls"),
    "ally_hit": _("an ally is hit"),
    "disarmed": _("the attacker is disarmed"),
    "shooter_ally_hit": _("an ally of the shooter is hit"),
    "target_ally_hit": _("an ally of the target is hit"),
    "plain_miss": _("a plain miss"),
}


# --- Of the Dead: the words of its catalogue tables, for the calculators, the catalogue page
# and the live table alike.

OTD_MOVE_LABELS = {
    "careful": _("Careful walk"),
    "normal": _("Walk"),
    "run": _("Run"),
    "sprint": _("Sprint"),
}
OTD_COVER_LABELS = {
    "none": _("In the open"),
    "partial": _("Partial cover (less than half hidden)"),
    "cover": _("Cover (more than half hidden)"),
    "hidden": _("Hidden"),
}
OTD_RANGE_LABELS = {"useful": _("Useful range"), "effective": _("Effective range")}
OTD_SIZE_LABELS = {
    "slight": _("Slight"),
    "moderate": _("Moderate"),
    "substantial": _("Substantial"),
}
OTD_TEMPLATE_LABELS = {
    "slight": _("Slight template"),
    "moderate": _("Moderate template"),
    "substantial": _("Substantial template"),
}
OTD_ITEM_LABELS = {"explosive": _("Explosive"), "molotov": _("Molotov cocktail")}

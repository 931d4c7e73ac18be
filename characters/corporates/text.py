"""The words of a Corporates sheet: each number's and each weapon kind's label, keyed as the
catalogue names them (the catalogue holds numbers, the product its words)."""

from django.utils.translation import gettext_lazy as _

NUMBER_LABELS = {
    "combat_pool": _("Melee dice"),
    "combat_bonus": _("Melee bonus"),
    "combat_skill": _("Combat skill"),
    "dodge_skill": _("Dodge"),
    "weapon_defence": _("Weapon defence bonus"),
    "wired_reflexes": _("Wired reflexes"),
    "damage_dice": _("Melee damage dice"),
    "damage_bonus": _("Melee damage bonus"),
    "shot_pool": _("Shooting dice"),
    "shot_bonus": _("Shooting bonus"),
    "firearm_level": _("Firearm level"),
    "gun_damage_dice": _("Firearm damage dice"),
    "gun_damage_bonus": _("Firearm damage bonus"),
    "soak_dice": _("Soak dice"),
    "soak_bonus": _("Soak bonus (protection)"),
    "reaction_pool": _("Reaction dice"),
    "reaction_bonus": _("Reaction bonus"),
    "combat_movement_feint": _("Feint in combat movement"),
    "athletics": _("Athletics"),
}
WEAPON_LABELS = {
    "punch_or_kick": _("punch or kick"),
    "soft": _("soft weapon (plastic bullet)"),
    "blunt": _("blunt weapon"),
    "hard_blunt": _("hard blunt weapon"),
    "cutting": _("cutting weapon"),
    "thrusting": _("thrusting weapon"),
    "bullet": _("bullet"),
    "explosion": _("explosion"),
}
# The sheet's sections, in the order a player reads them (a number the catalogue adds
# later and no section names goes to the last one).
GROUPS = (
    (_("Melee"), ("combat_pool", "combat_bonus", "damage_dice", "damage_bonus")),
    (
        _("Defence"),
        (
            "combat_skill",
            "dodge_skill",
            "weapon_defence",
            "wired_reflexes",
            "combat_movement_feint",
        ),
    ),
    (
        _("Shooting"),
        ("shot_pool", "shot_bonus", "firearm_level", "gun_damage_dice", "gun_damage_bonus"),
    ),
    (
        _("Soak and reactions"),
        ("soak_dice", "soak_bonus", "reaction_pool", "reaction_bonus", "athletics"),
    ),
)


def number_label(name: str) -> str:
    return str(NUMBER_LABELS.get(name, name))


def weapon_label(kind: str) -> str:
    return str(WEAPON_LABELS.get(kind, kind))

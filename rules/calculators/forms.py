"""The calculators' forms: what players describe at the table, each field mapped to the
resolver's input, and the dice they rolled by hand, one field per roll."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.registry import FOLLOW_UPS
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.melee import MELEE_TALENT
from rules.engine.systems.kolaps.ranged import METABOLISM
from rules.engine.systems.kolaps.talent_test import rank_slugs
from rules.labels import (
    COVER_LABELS,
    FOLLOW_UP_LABELS,
    ORDER_LABELS,
    OTD_COVER_LABELS,
    OTD_ITEM_LABELS,
    OTD_RANGE_LABELS,
    OTD_TEMPLATE_LABELS,
    RANK_LABELS,
)

RANGED_DICE_FIELDS = ("dice", *FOLLOW_UPS)
MELEE_DICE_FIELDS = ("a_dice", "b_dice", *RANGED_DICE_FIELDS)
MELEE_TALENTS = ("esquive", "ambidextre")
LEVELS = range(4)


# --- Fields ----------------------------------------------------------------------------------


def dice_field(name: str, help_text: str = "") -> forms.CharField:
    """The faces of one roll typed in by hand ("3 4 5"), labelled by what the roll is for."""
    return forms.CharField(
        label=FOLLOW_UP_LABELS[name],
        required=False,
        help_text=help_text,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


def none_or(choices) -> list:
    """The choices with a first, empty one: nothing chosen."""
    return [("", _("None")), *choices]


def rank_field(initial: str) -> forms.ChoiceField:
    ranks = [(rank, RANK_LABELS[rank]) for rank in rank_slugs()]
    return forms.ChoiceField(label=_("Rank"), choices=ranks, initial=initial)


SANTE = _("Santé")


def sante_field(label=SANTE) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=1, max_value=6, initial=6)


def affiliation_field(initial: str) -> forms.ChoiceField:
    affiliations = [(a.slug, a.label) for a in load_catalogue().affiliations.values()]
    return forms.ChoiceField(label=_("Affiliation"), choices=affiliations, initial=initial)


def level_field(label, initial: int, *, none: str | None = None) -> forms.TypedChoiceField:
    """An expertise level from 0 to 3, 0 named `none` when given."""
    levels = [(n, str(n)) for n in LEVELS]
    if none is not None:
        levels[0] = (0, none)
    return forms.TypedChoiceField(label=label, choices=levels, coerce=int, initial=initial)


def metabolism_field(label) -> forms.ChoiceField:
    levels = none_or((str(n), str(n)) for n in LEVELS)
    return forms.ChoiceField(label=label, choices=levels, required=False)


def armour_field(label) -> forms.ChoiceField:
    armours = none_or((a.slug, a.label) for a in load_catalogue().armours.values())
    return forms.ChoiceField(label=label, choices=armours, required=False)


def weapon_field(kind: str, initial: str) -> forms.ChoiceField:
    weapons = [(w.slug, w.label) for w in load_catalogue().weapons.values() if w.kind == kind]
    return forms.ChoiceField(label=_("Weapon"), choices=weapons, initial=initial)


def specialisation_field(choices) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Specialisation used"), choices=none_or(choices), required=False
    )


def shooting_specialisations() -> list[tuple[str, str]]:
    """`slug:level` of every level of a shooting specialisation that changes the shot."""
    return [
        (f"{t.slug}:{level.level}", f"{t.label} {level.level}")
        for t in load_catalogue().talents.values()
        if t.kind == "specialisation" and set(t.specialises) & {"fusil", "pistolet"}
        for level in t.levels
        if level.db_modifier is not None or level.power_bonus is not None
    ]


def melee_specialisations() -> list[tuple[str, str]]:
    catalogue = load_catalogue()
    return [
        (f"{slug}:{level}", f"{catalogue.talent(slug).label} {level}")
        for slug in MELEE_TALENTS
        for level in catalogue.talent(slug).level_numbers
    ]


def used_talents(data: dict, talents: dict[str, int]) -> list[str]:
    """The talents used in this roll: the specialisation chosen (`slug:level`), added to
    `talents` at its level."""
    use = []
    if data.get("specialisation"):
        slug, _sep, level = data["specialisation"].partition(":")
        talents[slug] = int(level)
        use.append(slug)
    return use


# --- Forms -----------------------------------------------------------------------------------


class CalculatorForm(forms.Form):
    """A calculator: its inputs, then one field per roll the players may type in."""

    RESOLVER = ""  # the KOLAPS resolver the form describes the input of
    SYSTEM = "kolaps"  # the system of that resolver
    DICE_LABELS = FOLLOW_UP_LABELS  # what each dice field is for
    DICE_FIELDS: tuple[str, ...] = ("dice",)
    BLANK_DICE: tuple[str, ...] = ("dice",)  # the dice fields a blank form shows
    DICE_HELP = ""
    MISSING_DICE_FIELD: str | None = None  # where "type the dice" is said (None: the form)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.DICE_FIELDS:
            self.fields[name] = dice_field(name, self.DICE_HELP)

    def typed_dice(self) -> dict[str, list[int]]:
        return typed_dice(self, self.DICE_FIELDS)

    def field_for(self, name: str | None) -> str | None:
        """The field a refusal of the resolver's input `name` belongs to (None: the form)."""
        return name if name in self.fields else None


class TestForm(CalculatorForm):
    RESOLVER = "test"
    DICE_HELP = _("The faces, separated by spaces: 3 4 5")
    MISSING_DICE_FIELD = "dice"

    db = forms.IntegerField(label=_("Difficulty (DB)"), min_value=-20, max_value=30, initial=3)
    rank = rank_field("veteran")
    sante = sante_field()

    def inputs(self) -> dict:
        return {k: self.cleaned_data[k] for k in ("db", "rank", "sante")}


class RangedForm(CalculatorForm):
    """A shot, as players describe it at the table; every field maps to the resolver's input."""

    RESOLVER = "ranged"

    DICE_FIELDS = RANGED_DICE_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        weapons = load_catalogue().weapons.values()
        modes = sorted({mode for weapon in weapons for mode in weapon.db_modifier_by_mode})
        fields = {
            "rank": rank_field("veteran"),
            "sante": sante_field(),
            "affiliation": affiliation_field("apc"),
            "expertise": level_field(_("Weapon expertise"), 2),
            "specialisation": specialisation_field(shooting_specialisations()),
            "armour": armour_field(_("Shooter's gear")),
            "equipment_db": forms.IntegerField(
                label=_("Other equipment (DB)"), min_value=-10, max_value=10, initial=0
            ),
            "weapon": weapon_field("ranged", "fa-f4"),
            "mode": forms.ChoiceField(
                label=_("Firing mode"),
                choices=[("", _("Normal")), *((m, m) for m in modes)],
                required=False,
            ),
            "distance_cm": forms.FloatField(
                label=_("Distance (cm)"), min_value=0, max_value=1000, initial=45
            ),
            "order": forms.ChoiceField(
                label=_("Target's order"), choices=list(ORDER_LABELS.items()), initial="movement"
            ),
            "cover": forms.TypedChoiceField(
                label=_("Cover"), choices=COVER_LABELS, coerce=int, initial=0
            ),
            "against_cover": forms.BooleanField(label=_("Against the cover"), required=False),
            "unconscious": forms.BooleanField(label=_("Target unconscious"), required=False),
            "moved_cm": forms.FloatField(
                label=_("Target moved (cm)"), min_value=0, max_value=1000, initial=0
            ),
            "closing_in": forms.BooleanField(label=_("Moving towards the shooter"), required=False),
            "target_armour": armour_field(_("Target's protection")),
            "extra_protection": forms.IntegerField(
                label=_("Other protection (DB)"), min_value=0, max_value=10, initial=0
            ),
            "metabolism": metabolism_field(_("Target's inhuman metabolism")),
            "target_sante": sante_field(_("Target's Santé")),
            "melee_figures": forms.IntegerField(
                label=_("Figures in the melee"), min_value=0, max_value=20, initial=0
            ),
        }
        # The inputs first, then the dice, as the page shows them.
        self.fields = {**fields, **self.fields}

    GROUPS = (
        (
            _("Shooter"),
            (
                "rank",
                "sante",
                "affiliation",
                "expertise",
                "specialisation",
                "armour",
                "equipment_db",
            ),
        ),
        (_("Weapon"), ("weapon", "mode", "distance_cm")),
        (
            _("Target"),
            (
                "order",
                "cover",
                "against_cover",
                "unconscious",
                "moved_cm",
                "closing_in",
                "target_armour",
                "extra_protection",
                "metabolism",
                "target_sante",
                "melee_figures",
            ),
        ),
    )

    def groups(self):
        return [(legend, [self[name] for name in names]) for legend, names in self.GROUPS]

    FIELD_OF_INPUT = {
        "attacker.rank": "rank",
        "attacker.sante": "sante",
        "attacker.affiliation": "affiliation",
        "attacker.armour": "armour",
        "attacker.talents": "expertise",
        "use": "specialisation",
        "target.order": "order",
        "target.cover": "cover",
        "target.armour": "target_armour",
        "target.sante": "target_sante",
        "target.moved_cm": "moved_cm",
        "target.extra_protection": "extra_protection",
        "target.talents": "metabolism",
    }

    def inputs(self) -> dict:
        d = self.cleaned_data
        weapon = load_catalogue().weapon(d["weapon"])
        talents = {weapon.talent: d["expertise"]}
        use = used_talents(d, talents)
        target_talents = {}
        if d.get("metabolism"):
            target_talents[METABOLISM] = int(d["metabolism"])
        return {
            "attacker": {
                "rank": d["rank"],
                "sante": d["sante"],
                "affiliation": d["affiliation"],
                "talents": talents,
                "armour": d.get("armour") or None,
            },
            "weapon": d["weapon"],
            "mode": d.get("mode") or None,
            "use": use,
            "equipment_db": d["equipment_db"],
            "distance_cm": d["distance_cm"],
            "melee_figures": d["melee_figures"],
            "target": {
                "sante": d["target_sante"],
                "order": d["order"],
                "cover": d["cover"],
                "against_cover": d["against_cover"],
                "unconscious": d["unconscious"],
                "moved_cm": d["moved_cm"],
                "closing_in": d["closing_in"],
                "armour": d.get("target_armour") or None,
                "extra_protection": d["extra_protection"],
                "talents": target_talents,
            },
        }

    def field_for(self, name: str | None) -> str | None:
        return super().field_for(self.FIELD_OF_INPUT.get(name or "", name))


class MeleeForm(CalculatorForm):
    """Two fighters as players describe them; supports are counted, Immobiliser by level."""

    RESOLVER = "melee"
    SIDES = ("a", "b")
    DICE_FIELDS = MELEE_DICE_FIELDS
    BLANK_DICE = ("a_dice", "b_dice")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        specialisations = melee_specialisations()
        fields = {}
        for side, weapon, affiliation in (
            ("a", "matraque-composite", "apc"),
            ("b", "griffes", "sheol"),
        ):
            fighter = {
                "rank": rank_field("aguerri"),
                "sante": sante_field(),
                "affiliation": affiliation_field(affiliation),
                "expertise": level_field(_("Corps à corps"), 1),
                "weapon": weapon_field("melee", weapon),
                "armour": armour_field(_("Protection")),
                "specialisation": specialisation_field(specialisations),
                "charge": level_field(_("Charged with Charge"), 0, none=_("No charge")),
                "supports": forms.IntegerField(
                    label=_("Supports"), min_value=0, max_value=10, initial=0
                ),
                "charged_supports": forms.IntegerField(
                    label=_("Supports that charged"), min_value=0, max_value=10, initial=0
                ),
                "immobiliser": level_field(_("A support's Immobiliser"), 0, none=_("None")),
                "metabolism": metabolism_field(_("Inhuman metabolism")),
            }
            fields.update({f"{side}_{name}": field for name, field in fighter.items()})
        # The fighters first, then the dice, as the page shows them.
        self.fields = {**fields, **self.fields}

    def groups(self):
        names = [n for n in self.fields if n[:2] in ("a_", "b_") and not n.endswith("_dice")]
        return [
            (_("Fighter A"), [self[n] for n in names if n.startswith("a_")]),
            (_("Fighter B"), [self[n] for n in names if n.startswith("b_")]),
        ]

    def _fighter(self, side: str) -> dict:
        d = {k[2:]: v for k, v in self.cleaned_data.items() if k.startswith(f"{side}_")}
        talents = {MELEE_TALENT: d["expertise"]}
        use = used_talents(d, talents)
        if d["charge"]:
            charge = "charge-sheol" if d["affiliation"] == "sheol" else "charge-apc"
            talents[charge] = d["charge"]
        if d.get("metabolism"):
            talents[METABOLISM] = int(d["metabolism"])
        supports = [{"charged": True}] * min(d["charged_supports"], d["supports"])
        supports += [{"charged": False}] * (d["supports"] - len(supports))
        if supports and d["immobiliser"]:
            supports[0] = {**supports[0], "talents": {"immobiliser": d["immobiliser"]}}
        return {
            "rank": d["rank"],
            "sante": d["sante"],
            "affiliation": d["affiliation"],
            "talents": talents,
            "charged": bool(d["charge"]),
            "weapon": d["weapon"],
            "armour": d.get("armour") or None,
            "use": use,
            "supports": supports,
        }

    def inputs(self) -> dict:
        return {"a": self._fighter("a"), "b": self._fighter("b")}

    def field_for(self, name: str | None) -> str | None:
        return super().field_for((name or "").replace(".", "_"))


# --- Of the Dead (RULES-NOTES O2-O4) ---------------------------------------------------------

OF_THE_DEAD_DICE_LABELS = {
    "attacker_dice": _("Attacker's dice"),
    "attacker_reroll": _("Attacker's zeal reroll"),
    "defender_dice": _("Defender's dice"),
    "defender_reroll": _("Defender's zeal reroll"),
    "thrower_dice": _("Thrower's dice"),
    "zone_dice": _("Zone's dice (steps)"),
    "scatter_die": _("Scatter: steps (1 die)"),
}
OF_THE_DEAD_POOL = 12


def pool_field(label, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=OF_THE_DEAD_POOL, initial=initial)


def modifiers_field() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Other modifiers (dice)"),
        min_value=-OF_THE_DEAD_POOL,
        max_value=OF_THE_DEAD_POOL,
        initial=0,
    )


def surrounded_field() -> forms.IntegerField:
    return forms.IntegerField(label=_("Surrounded by"), min_value=0, max_value=20, initial=0)


def marker_field(label) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


class OfTheDeadForm(CalculatorForm):
    """An Of the Dead brawl, shot or throw as players describe it; a field `side_name` is the
    resolver's `side.name`."""

    SYSTEM = "of-the-dead"
    DICE_LABELS = OF_THE_DEAD_DICE_LABELS
    SIDES: tuple[tuple[str, object], ...] = ()
    TOP: tuple[str, ...] = ()  # fields of the body itself, not of a side

    def __init__(self, *args, **kwargs):
        # The dice fields are this system's: its own labels, not the KOLAPS follow-ups'.
        forms.Form.__init__(self, *args, **kwargs)
        for name in self.DICE_FIELDS:
            self.fields[name] = forms.CharField(
                label=OF_THE_DEAD_DICE_LABELS[name],
                required=False,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            )
        fields = self.side_fields()
        self.fields = {**fields, **self.fields}

    def side_fields(self) -> dict:
        raise NotImplementedError

    def groups(self):
        out = []
        for side, legend in self.SIDES:
            names = [
                n for n in self.fields if n.startswith(f"{side}_") and n not in self.DICE_FIELDS
            ]
            out.append((legend, [self[n] for n in names]))
        if self.TOP:
            out.append((_("The throw"), [self[n] for n in self.TOP]))
        return out

    def inputs(self) -> dict:
        body: dict = {name: self.cleaned_data[name] for name in self.TOP}
        for side, _legend in self.SIDES:
            body[side] = {
                name.removeprefix(f"{side}_"): value
                for name, value in self.cleaned_data.items()
                if name.startswith(f"{side}_") and name not in self.DICE_FIELDS
                and value is not None
            }  # fmt: skip
        return body

    def field_for(self, name: str | None) -> str | None:
        return super().field_for((name or "").replace(".", "_"))


def _fighter_fields(side: str, attribute: str, attribute_label, initial: int, *, zeal=True) -> dict:
    fields = {
        f"{side}_{attribute}": pool_field(attribute_label, initial),
        f"{side}_modifiers": modifiers_field(),
        f"{side}_caution": marker_field(_("Discards a caution marker")),
    }
    if zeal:
        fields[f"{side}_zeal"] = marker_field(_("Has a zeal marker (reroll)"))
    fields[f"{side}_surrounded_by"] = surrounded_field()
    return fields


def _life_field() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Life markers left"), min_value=1, max_value=60, initial=4, required=False
    )


class BrawlForm(OfTheDeadForm):
    RESOLVER = "brawl"
    DICE_FIELDS = ("attacker_dice", "attacker_reroll", "defender_dice", "defender_reroll")
    BLANK_DICE = ("attacker_dice", "defender_dice")
    SIDES = (("attacker", _("Attacker")), ("defender", _("Defender")))

    def side_fields(self) -> dict:
        return {
            **_fighter_fields("attacker", "combat", _("Combat"), 3),
            "attacker_stealth": marker_field(_("Leaves stealth to attack")),
            **_fighter_fields("defender", "combat", _("Combat"), 2),
            "defender_life": _life_field(),
        }


class ShotForm(OfTheDeadForm):
    RESOLVER = "shot"
    DICE_FIELDS = BrawlForm.DICE_FIELDS
    BLANK_DICE = BrawlForm.BLANK_DICE
    SIDES = (("attacker", _("Shooter")), ("defender", _("Target")))
    TOP = ()

    RANGE_LABELS = OTD_RANGE_LABELS
    COVER_LABELS = OTD_COVER_LABELS

    def side_fields(self) -> dict:
        return {
            **_fighter_fields("attacker", "combat", _("Combat"), 3, zeal=False),
            "attacker_stealth": marker_field(_("Leaves stealth to attack")),
            "attacker_range": forms.ChoiceField(
                label=_("Range"), choices=list(self.RANGE_LABELS.items()), initial="useful"
            ),
            **_fighter_fields("defender", "reflexes", _("Réflexes"), 2),
            "defender_cover": forms.ChoiceField(
                label=_("Cover"), choices=list(self.COVER_LABELS.items()), initial="none"
            ),
            "defender_life": _life_field(),
        }

    def inputs(self) -> dict:
        body = super().inputs()
        body["range"] = body["attacker"].pop("range")
        return body


class ThrowForm(OfTheDeadForm):
    RESOLVER = "throw"
    DICE_FIELDS = ("thrower_dice", "zone_dice", "scatter_die")
    BLANK_DICE = ("thrower_dice", "zone_dice")
    SIDES = (("thrower", _("Thrower")),)
    TOP = ("item", "size", "distance_cm", "zone_modifiers")

    ITEM_LABELS = OTD_ITEM_LABELS
    SIZE_LABELS = OTD_TEMPLATE_LABELS

    def side_fields(self) -> dict:
        return {
            "thrower_combat": pool_field(_("Combat"), 3),
            "thrower_physique": pool_field(_("Physique"), 3),
            "thrower_modifiers": modifiers_field(),
            "thrower_caution": marker_field(_("Discards a caution marker")),
            "thrower_surrounded_by": surrounded_field(),
            "item": forms.ChoiceField(
                label=_("What is thrown"),
                choices=list(self.ITEM_LABELS.items()),
                initial="explosive",
            ),
            "size": forms.ChoiceField(
                label=_("Blast template"),
                choices=list(self.SIZE_LABELS.items()),
                initial="moderate",
            ),
            "distance_cm": forms.FloatField(
                label=_("Distance (cm)"), min_value=0, max_value=300, initial=6
            ),
            "zone_modifiers": forms.IntegerField(
                label=_("The zone's modifiers (dice)"),
                min_value=-OF_THE_DEAD_POOL,
                max_value=OF_THE_DEAD_POOL,
                initial=0,
            ),
        }


def typed_dice(form: forms.Form, names) -> dict[str, list[int]]:
    """The dice fields `names` typed in, as lists of faces ("6 3" -> [6, 3]); a face that is
    not a whole number is an error beside its field."""
    typed: dict[str, list[int]] = {}
    for name in names:
        text = form.cleaned_data.get(name, "").replace(",", " ").split()
        if not text:
            continue
        try:
            typed[name] = [int(v) for v in text]
        except ValueError:
            form.add_error(name, _("Each die is a whole number from 1 to 6."))
    return typed

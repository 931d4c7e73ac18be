"""The forms of the table: a roll of the encounter log, and the live encounter's action,
order directive and pick-up game."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.chapters.services import encounter_event_record
from campaigns.models import ZombieType
from characters.accounts.forms import ServiceForm
from characters.bidi import isolate_text
from characters.models import Player
from characters.widgets import RENDERER
from rules.dice_calculators.cards import label_lazy
from rules.labels import (
    OTD_COVER_LABELS,
    OTD_ITEM_LABELS,
    OTD_MOVE_LABELS,
    OTD_RANGE_LABELS,
    OTD_SIZE_LABELS,
)
from rules.rolls.models import RollRecord
from rules.table import of_the_dead
from rules.table.corporates import RANGE_BANDS as CORPORATES_RANGES
from rules.table.kolaps.combatants import DIRECTIVE_LABELS
from rules.table.modern import ATTITUDE_LABELS
from rules.table.rapid40k import VEHICLE_ATTACKS
from rules.table.rapid40k import weapon_choices as rapid40k_weapons
from rules.table.services import ActionInput, NewCombatants
from rules.table.systems import adapter_for


class EncounterRollForm(ServiceForm):
    """One roll of the encounter being played: who rolled (yourself, or anyone for an
    organiser), whom it hit, the damage, and which recorded server roll it was."""

    player = forms.ChoiceField(label=_("Who rolled"))
    target = forms.ChoiceField(label=_("Target"), required=False)
    damage = forms.IntegerField(label=_("Damage"), min_value=0, max_value=100, initial=0)
    roll = forms.ChoiceField(
        label=_("Server roll"),
        required=False,
        help_text=_("One of your recorded server rolls, if the dice were rolled here."),
    )

    def __init__(self, *args, card, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [
            (str(pk), isolate_text(name)) for pk, name in card.record_for
        ]
        self.fields["target"].choices = [("", _("Nobody (a roll without a target)"))] + [
            (str(pk), isolate_text(name)) for pk, name in card.players
        ]
        self.fields["roll"].choices = [("", _("Rolled at the table"))] + [
            (str(pk), label) for pk, label in card.my_rolls
        ]

    def save(self, actor, chapter):
        data = self.cleaned_data
        player = Player.objects.filter(pk=data["player"]).first()
        target = Player.objects.filter(pk=data["target"]).first() if data["target"] else None
        roll = RollRecord.objects.filter(pk=data["roll"]).first() if data["roll"] else None
        return self.run(
            encounter_event_record,
            actor=actor,
            chapter=chapter,
            player=player,
            target=target,
            damage=data["damage"],
            roll=roll,
        )


# --- The live encounter -----------------------------------------------------------------------

ROLL_CHOICES = [("server", _("Roll on the server")), ("hand", _("Dice rolled by hand"))]


def parse_dice(text: str, top: int = 6) -> list[int] | None:
    """ "3 4 5" or "3,4,5" -> [3, 4, 5]; None when it is not a list of faces 1 to `top`."""
    parts = str(text or "").replace(",", " ").split()
    if not all(re.fullmatch(r"[0-9]{1,2}", part) and 1 <= int(part) <= top for part in parts):
        return None
    return [int(part) for part in parts]


class TableActionForm(ServiceForm):
    """An action at the table: who, on whom, what, and the dice (the server's, or typed in)."""

    default_renderer = RENDERER
    template_name = "rules/table/action_fields.html"  # its visible fields (`{{ form }}`)

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    kind = forms.ChoiceField(label=_("Action"))
    actor = forms.TypedChoiceField(label=_("Who acts"), coerce=int, required=False)
    target = forms.TypedChoiceField(label=_("Target"), coerce=int)
    weapon = forms.ChoiceField(label=_("Weapon"), required=False)
    distance_cm = forms.FloatField(
        label=_("Distance (cm)"), min_value=0, max_value=1000, initial=20, required=False
    )
    cover = forms.IntegerField(
        label=_("Cover"), min_value=0, max_value=4, initial=0, required=False
    )
    wound = forms.ChoiceField(label=_("Wound"), required=False)
    allies_near = forms.TypedMultipleChoiceField(
        label=_("The target's allies within 25 cm"),
        help_text=_("A lethal wound costs them 1 Moral (none unless ticked)."),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    # KOLAPS K18: armed fists (a pistol in melee), a shot into a melee and its stray shot.
    armed_fist = forms.BooleanField(
        label=_("With armed fists (a pistol in melee)"),
        help_text=_("Poing armé: the Pistolet expertise and the pistol's point-blank power."),
        required=False,
    )
    melee_figures = forms.IntegerField(
        label=_("Figures in the melee shot into"),
        help_text=_("0 when the target is not in a melee."),
        min_value=0,
        max_value=20,
        required=False,
    )
    stray_ally = forms.TypedChoiceField(
        label=_("The shooter's ally a stray shot would hit"),
        help_text=_("Between the shooter and the target, or else the nearest to the shooter."),
        coerce=int,
        required=False,
    )
    roll = forms.ChoiceField(
        label=_("Dice"), choices=ROLL_CHOICES, initial="server", required=False
    )
    dice = forms.CharField(label=_("Attack dice"), required=False)
    a_dice = forms.CharField(label=_("Melee score die of who acts"), required=False)
    b_dice = forms.CharField(label=_("Melee score die of the target"), required=False)
    power_dice = forms.CharField(label=_("Weapon power dice"), required=False)
    death_die = forms.CharField(label=_("Death roll"), required=False)
    stray_die = forms.CharField(label=_("Stray shot die"), required=False)
    stray_death_die = forms.CharField(
        label=_("Death roll of the ally hit by the stray shot"), required=False
    )
    # Corporates and the modern RPG (their adapters' FORM_FIELDS, OPTION_FIELDS, HAND_DICE).
    attitude = forms.ChoiceField(
        label=_("Attitude"), choices=list(ATTITUDE_LABELS.items()), required=False
    )
    declared = forms.IntegerField(
        label=_("Declared actions this turn"), min_value=1, max_value=5, required=False
    )
    amount = forms.IntegerField(
        label=_("Damage, attack margin or wound levels"),
        min_value=0,
        max_value=200,
        required=False,
    )
    shot_range = forms.ChoiceField(
        label=_("Range band"),
        choices=[(band, label_lazy(band)) for band in CORPORATES_RANGES],
        required=False,
    )
    protection_dice = forms.CharField(label=_("Target's protection die"), required=False)
    vest_dice = forms.CharField(label=_("Vest dice"), required=False)
    damage_rolled = forms.CharField(
        label=_("Damage dice rolled (each 6 then its extra die)"), required=False
    )
    soak_rolled = forms.CharField(label=_("Soak dice rolled"), required=False)
    # Rapid 40000 (rules.table.rapid40k): the weapon a squad fires, the bonuses its player
    # claims, what it attacks a vehicle with, and the deviation roll by hand.
    squad_weapon = forms.ChoiceField(label=_("Weapon"), required=False)
    aimed = forms.BooleanField(label=_("Aimed shot (Tir visé)"), required=False)
    charged = forms.BooleanField(label=_("After a charge"), required=False)
    power_attack = forms.BooleanField(label=_("Power attack"), required=False)
    chef_nearby = forms.BooleanField(label=_("A Chef within command distance"), required=False)
    vehicle_attack = forms.ChoiceField(
        label=_("Against a vehicle"),
        choices=list(VEHICLE_ATTACKS.items()),
        required=False,
    )
    deviation_dice = forms.CharField(label=_("Deviation roll (3 dice)"), required=False)
    # Of the Dead (rules.table.of_the_dead): the move declared, range and cover of a shot,
    # what is thrown, the adversaries around, and its dice by hand.
    move = forms.ChoiceField(label=_("Move"), choices=list(OTD_MOVE_LABELS.items()), required=False)
    range = forms.ChoiceField(
        label=_("Range"), choices=list(OTD_RANGE_LABELS.items()), required=False
    )
    otd_cover = forms.ChoiceField(
        label=_("Cover"), choices=list(OTD_COVER_LABELS.items()), required=False
    )
    item = forms.ChoiceField(
        label=_("Thrown"), choices=list(OTD_ITEM_LABELS.items()), required=False
    )
    size = forms.ChoiceField(
        label=_("Blast size"), choices=list(OTD_SIZE_LABELS.items()), required=False
    )
    surrounded_by = forms.IntegerField(
        label=_("Adversaries around the target (or the shooter)"),
        min_value=0,
        max_value=20,
        required=False,
    )
    out_of_turn = forms.BooleanField(
        label=_("Out of turn (organiser): this combatant acts now, whatever the order"),
        required=False,
    )
    attacker_dice = forms.CharField(label=_("Dice of who acts"), required=False)
    attacker_reroll = forms.CharField(label=_("Zeal reroll of who acts"), required=False)
    defender_dice = forms.CharField(label=_("Dice of the target"), required=False)
    defender_reroll = forms.CharField(label=_("Zeal reroll of the target"), required=False)
    thrower_dice = forms.CharField(label=_("Thrower's dice"), required=False)
    zone_dice = forms.CharField(label=_("Zone's dice"), required=False)
    scatter_die = forms.CharField(label=_("Scatter die"), required=False)
    roller_dice = forms.CharField(label=_("Roller's dice"), required=False)
    against_dice = forms.CharField(label=_("Dice against"), required=False)

    def __init__(self, *args, card, wounds, weapons, **kwargs):
        adapter = adapter_for(card.system)
        self.hand_dice = tuple(adapter.HAND_DICE)
        self.die_max = adapter.DIE_MAX
        # The system's own fields, handed to its adapter as the action's options.
        self.option_fields = tuple(adapter.OPTION_FIELDS)
        shown = {"version", *adapter.FORM_FIELDS, *self.hand_dice}
        # Only the system's fields are copied for this form (Django copies every declared
        # field of every system for each form otherwise).
        self.base_fields = {n: f for n, f in type(self).base_fields.items() if n in shown}
        super().__init__(*args, **kwargs)
        self.order_fields(["version", *adapter.FORM_FIELDS, *self.hand_dice])
        self.fields["kind"].choices = list(adapter.KIND_LABELS.items())
        self.fields["actor"].choices = [("", "—")] + [
            (c.id, isolate_text(c.name)) for c in card.mine
        ]
        if card.your_turn:
            # The figure whose turn it is (O5), when it is this device's to play.
            self.fields["actor"].initial = card.your_turn[0]["id"]
        self.fields["target"].choices = [(c.id, _named(c)) for c in card.combatants]
        if "weapon" in self.fields:
            self.fields["weapon"].choices = [("", _("Their first weapon")), *weapons]
        if "squad_weapon" in self.fields:
            self.fields["squad_weapon"].choices = [
                ("", _("The one most of its figures carry")),
                *rapid40k_weapons(),
            ]
        for name, text in adapter.FIELD_LABELS.items():
            self.fields[name].label = text
        if "allies_near" in self.fields:
            self.fields["allies_near"].choices = [
                (c.id, _named(c)) for c in card.combatants if not c.dead
            ]
        if "stray_ally" in self.fields:
            self.fields["stray_ally"].choices = [("", "—")] + [
                (c.id, _named(c)) for c in card.combatants if not c.dead
            ]
        if "out_of_turn" in self.fields and not card.can_manage:
            del self.fields["out_of_turn"]  # the organiser's override (docs/table.md)
        if "armed_fist" in self.fields and not any(c.armed_fist for c in card.mine):
            del self.fields["armed_fist"]  # offered only to who has armed fists
        if "wound" in self.fields:
            self.fields["wound"].choices = [("", "—"), *wounds]
        for name in self.hand_dice:
            self.fields[name].widget.attrs.update(inputmode="numeric", placeholder="3 4 5")

    def clean(self):
        data = super().clean()
        if data.get("roll") == "hand":
            for name in self.hand_dice:
                if parse_dice(data.get(name, ""), self.die_max) is None:
                    self.add_error(
                        name,
                        _("Each die is a whole number from 1 to %(top)s.") % {"top": self.die_max},
                    )
        return data

    def action(self):
        data = self.cleaned_data
        dice = None
        if data.get("roll") == "hand":
            dice = {
                name: parse_dice(data.get(name, ""), self.die_max) or [] for name in self.hand_dice
            }
        return ActionInput(
            kind=data["kind"],
            actor=data.get("actor") or None,
            target=data.get("target"),
            weapon=data.get("weapon") or "",
            distance_cm=data.get("distance_cm"),
            cover=data.get("cover") or 0,
            wound=data.get("wound") or "",
            dice=dice,
            options={
                name: data[name] for name in self.option_fields if data.get(name) not in (None, "")
            },
        )


def _named(c) -> str:
    """A combatant among the form's words: "name (side)", each isolated (characters.bidi)."""
    return f"{isolate_text(c.name)} ({isolate_text(c.side)})"


class TableDirectiveForm(ServiceForm):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    combatant = forms.IntegerField(widget=forms.HiddenInput)
    directive = forms.ChoiceField(label=_("Order"), choices=list(DIRECTIVE_LABELS.items()))


class TableStandaloneForm(ServiceForm):
    """A pick-up game: two units, yours or shared with you by link."""

    title = forms.CharField(label=_("Title"), max_length=160, required=False)
    first = forms.TypedChoiceField(label=_("First side"), coerce=int)
    second = forms.TypedChoiceField(label=_("Second side"), coerce=int)

    def __init__(self, *args, units, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(u.pk, isolate_text(u.name)) for u in units]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices


class TableArmiesForm(ServiceForm):
    """A pick-up game of Rapid 40000: two of your army lists."""

    armies_title = forms.CharField(label=_("Title"), max_length=160, required=False)
    first_army = forms.TypedChoiceField(label=_("First army"), coerce=int)
    second_army = forms.TypedChoiceField(label=_("Second army"), coerce=int)

    def __init__(self, *args, armies, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(a.pk, isolate_text(a.name)) for a in armies]
        self.fields["first_army"].choices = choices
        self.fields["second_army"].choices = choices


class TableQuickForm(ServiceForm):
    """A pick-up game of Corporates or the modern RPG: two sides and their fighters' names
    (one per line or separated by commas), at the system's default numbers."""

    system = forms.ChoiceField(
        label=_("Game system"),
        choices=[("corporates", "Corporates"), ("modern-rpg", _("Modern RPG"))],
    )
    quick_title = forms.CharField(label=_("Title"), max_length=160, required=False)
    first_side = forms.CharField(label=_("First side"), max_length=80)
    first_fighters = forms.CharField(
        label=_("Its fighters (one per line)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    second_side = forms.CharField(label=_("Second side"), max_length=80)
    second_fighters = forms.CharField(
        label=_("Its fighters (one per line)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    # Corporates: fighters drawn from your character sheets, their numbers the sheet's.
    first_sheets = forms.TypedMultipleChoiceField(
        label=_("First side's Corporates sheets"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    second_sheets = forms.TypedMultipleChoiceField(
        label=_("Second side's Corporates sheets"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, sheets=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(c.pk, isolate_text(c.name)) for c in sheets]
        for name in ("first_sheets", "second_sheets"):
            if choices:
                self.fields[name].choices = choices
            else:
                del self.fields[name]

    @staticmethod
    def names(text: str) -> list[str]:
        return [part.strip() for part in text.replace(",", "\n").splitlines() if part.strip()]

    def arguments(self) -> dict:
        data = self.cleaned_data
        return {
            "system": data["system"],
            "sides": [data["first_side"], data["second_side"]],
            "fighters": [self.names(data["first_fighters"]), self.names(data["second_fighters"])],
            "sheets": [data.get("first_sheets") or [], data.get("second_sheets") or []],
            "title": data["quick_title"],
        }


class TableAddForm(ServiceForm):
    """The organiser adds zombies of a type, or a non-player character, to an Of the Dead
    encounter, with their attributes (those of the zombie's card or the scenario)."""

    default_renderer = RENDERER

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    kind = forms.ChoiceField(
        label=_("Who"),
        choices=[
            (of_the_dead.ZOMBIE, _("Zombies")),
            (of_the_dead.NPC, _("A non-player character")),
        ],
    )
    zombie_type = forms.ChoiceField(label=_("Zombie type"), required=False)
    count = forms.IntegerField(label=_("How many"), min_value=1, max_value=20, initial=1)
    name = forms.CharField(label=_("Name"), max_length=70, required=False)
    side = forms.ChoiceField(
        label=_("Side"), choices=[("", "—"), *of_the_dead.SIDE_LABELS.items()], required=False
    )
    reflexes = forms.IntegerField(label=_("Réflexes"), min_value=0, max_value=12, initial=1)
    combat = forms.IntegerField(label=_("Combat"), min_value=0, max_value=12, initial=2)
    physique = forms.IntegerField(label=_("Physique"), min_value=0, max_value=12, initial=1)
    life = forms.IntegerField(label=_("Life markers"), min_value=1, max_value=40, initial=2)
    moral = forms.IntegerField(label=_("Moral"), min_value=0, max_value=40, initial=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["zombie_type"].choices = [("", "—"), *ZombieType.choices]
        for name in ("count", "reflexes", "combat", "physique", "life", "moral"):
            self.fields[name].widget.attrs.update(inputmode="numeric")

    def spec(self) -> NewCombatants:
        data = self.cleaned_data
        return NewCombatants(
            kind=data["kind"],
            zombie_type=data.get("zombie_type") or "",
            name=data.get("name") or "",
            side=data.get("side") or "",
            count=data["count"],
            reflexes=data["reflexes"],
            combat=data["combat"],
            physique=data["physique"],
            life=data["life"],
            moral=data["moral"],
        )


class TableQuickPartyForm(ServiceForm):
    """A pick-up Of the Dead game: a title; your character joins if it is alive."""

    title = forms.CharField(label=_("Title"), max_length=160, required=False)


NOBODY = "none"


class TableStrayForm(forms.Form):
    """KOLAPS, Tir dans une mêlée 2-3 and 6: the figure a stray shot hits on the target's
    side (`none`: nobody, when the face asks for an ally in the melee and none is there), and
    its death roll, by the server or typed in."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    ally = forms.RegexField(
        label=_("Who is hit"),
        regex=r"^([0-9]{1,9}|none)$",
        error_messages={
            "required": _("Choose the figure the stray shot hits."),
            "invalid": _("Choose the figure the stray shot hits."),
        },
    )
    roll = forms.ChoiceField(
        label=_("Dice"), choices=ROLL_CHOICES, initial="server", required=False
    )
    death_die = forms.CharField(label=_("Death roll"), required=False)

    def clean(self):
        data = super().clean()
        data["dice"] = None
        if data.get("roll") == "hand":
            faces = parse_dice(data.get("death_die", ""))
            if faces is not None and len(faces) > 1:
                faces = None
            if faces is None:
                self.add_error("death_die", _("Type one die, from 1 to 6."))
            else:
                data["dice"] = {"death_die": faces}
        return data

    def ally_id(self) -> int | None:
        ally = self.cleaned_data["ally"]
        return None if ally == NOBODY else int(ally)

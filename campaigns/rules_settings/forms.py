"""The form of a campaign's rules settings: one choice per open setting of its system,
each labelled in the player's language, its default marked."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.systems.open_settings import settings_of

SETTING_LABELS = {
    "tie_succeeds": _("A result equal to the difficulty succeeds"),
    "damage_points_per_level": _("Points of margin per damage level"),
    "odd_level_goes_to": _("The odd level of a 50/50 weapon goes to"),
    "burst_hits_capped_by_bullets": _("A burst hits with at most the bullets it fired"),
    "immobile_defence": _("Defence of a still or unaware defender"),
    "critical_adds": _("The critical roll adds"),
    "initiative_within_margin": _("Reaction rolls within 5 of each other"),
    "visibility_rounding": _("Rounding of the visibility malus"),
    "critical_failure": _("A critical failure is"),
    "advantage_die": _("Advantages move the threshold of"),
    "threshold_combination": _("Attitudes combine"),
    "vest_die_sides": _("Vest dice"),
    "surprised": _("A surprised character"),
    "hp_per_healing_success": _("Hit points per care success"),
    "chase_loss_die": _("The 1D of chase events"),
    "characteristic_names": _("Characteristics"),
    "buckshot_die": _("Buckshot's 1D (to hit and damage)"),
    "vehicle_bonus": _("A vehicle's sportivité or maniabilité point is"),
    "opposed_points_per_level": _("Points of margin per level of an opposed roll"),
    "army_points": _("Army cost agreed for the campaign (0: each game agrees its own)"),
}
VALUE_LABELS = {
    "true": _("yes"),
    "false": _("no"),
    "first_named": _("the kind the table names first"),
    "wound": _("wound"),
    "fatigue": _("fatigue"),
    "wound_levels_of_the_blow": _("the blow's wound levels"),
    "damage_levels_of_the_blow": _("the blow's damage levels"),
    "simultaneous": _("simultaneous"),
    "higher_result": _("the higher result acts first"),
    "down": _("down"),
    "nearest": _("to the nearest"),
    "one_without_success": _("a characteristic or skill 1 with no success"),
    "any_one": _("any characteristic or skill 1"),
    "characteristic": _("the characteristic die"),
    "skill": _("the skill die"),
    "sum_of_shifts": _("both shift the threshold"),
    "target_first": _("the target's attitude first"),
    "acts_last": _("acts last"),
    "loses_round": _("loses the round"),
    "reflexes_endurance_sang_froid_empathie": _("Réflexes, Endurance, Sang-froid, Empathie"),
    "advantages": _("an advantage (a malus point: a disadvantage)"),
    "dice": _("a d6 more in the pool (a malus point: a disadvantage)"),
}


def _key(value) -> str:
    return str(value).lower()


def value_label(value) -> str:
    label = VALUE_LABELS.get(_key(value))
    return str(label) if label is not None else str(value)


class RulesSettingsForm(forms.Form):
    def __init__(self, system: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, setting in settings_of(system).items():
            default = _("(default)")
            self.fields[key] = forms.ChoiceField(
                label=SETTING_LABELS.get(key, key),
                choices=[
                    (
                        _key(choice),
                        f"{value_label(choice)} {default}"
                        if choice == setting["default"]
                        else value_label(choice),
                    )
                    for choice in setting["choices"]
                ],
                initial=_key(setting["default"]),
                required=False,
            )

    def chosen(self) -> dict:
        """The settings given (a setting left blank keeps its value or its default)."""
        return {key: value for key, value in self.cleaned_data.items() if value not in ("", None)}

    @staticmethod
    def initial_for(values: dict) -> dict:
        return {key: _key(value) for key, value in values.items()}

"""The sheet form of a Corporates character: one whole-number field per number the
catalogue's `sheet` section names (its range the catalogue's), the weapon's damage kind
chosen from the damage table, the levels carried. The service checks the sheet again."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.corporates.cards import number_groups
from characters.corporates.text import number_label, weapon_label
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.corporates.sheet import sheet_defaults, weapon_kinds


class SheetForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    equipment = forms.CharField(
        label=_("Equipment"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    weapon = forms.ChoiceField(label=_("Melee weapon's damage"))
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        catalogue = load_catalogue()
        self.numbers = list(catalogue.sheet["numbers"])
        defaults = sheet_defaults(catalogue)
        self.fields["weapon"].choices = [(k, weapon_label(k)) for k in weapon_kinds(catalogue)]
        self.fields["weapon"].initial = catalogue.sheet["weapon_default"]
        for name, bounds in catalogue.sheet["numbers"].items():
            self.fields[name] = forms.IntegerField(
                label=number_label(name),
                min_value=bounds["min"],
                max_value=bounds["max"],
                initial=defaults[name],
            )
        top = catalogue.sheet["levels_max"]
        self.fields["fatigue"] = forms.IntegerField(
            label=_("Fatigue levels"), min_value=0, max_value=top, initial=0
        )
        self.fields["wounds"] = forms.IntegerField(
            label=_("Wound levels"), min_value=0, max_value=top, initial=0
        )
        self.groups = number_groups(self.numbers)

    def group_fields(self) -> list[tuple[str, list]]:
        """The number fields by section, for the template."""
        return [(label, [self[n] for n in names]) for label, names in self.groups]

    def sheet(self) -> dict:
        """The fields the service takes."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "description": data.get("description", ""),
            "equipment": data.get("equipment", ""),
            "numbers": {n: data[n] for n in self.numbers},
            "weapon": data["weapon"],
            "fatigue": data["fatigue"],
            "wounds": data["wounds"],
        }

    @classmethod
    def initial_for(cls, character) -> dict:
        return {
            "name": character.name,
            "description": character.description,
            "equipment": character.equipment,
            **character.numbers,
            "weapon": character.weapon,
            "fatigue": character.fatigue,
            "wounds": character.wounds,
            "version": character.version,
        }

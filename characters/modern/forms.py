"""The sheet form of a modern RPG character: the four characteristic dice, a level for each
skill of the catalogue (0: untrained) and the specialities ticked from the catalogue's list
(each with the characteristic it depends on), equipment and gauges. Nothing is typed but
numbers, so a name the catalogue does not know, or a speciality twice, cannot be sent; the
creation rules are the service's (and the engine's) to check."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.modern.text import characteristic_label, skill_label, speciality_label
from rules.engine.systems.modern.catalogue import load_catalogue

CATALOGUE = load_catalogue()
DIE_CHOICES = [(str(s), f"d{s}") for s in CATALOGUE.dice["sides"]]
SKILL_PREFIX = "skill_"


def speciality_choices() -> list[tuple[str, str]]:
    """Each speciality with the characteristic it depends on, as the player reads them."""
    return [
        (name, f"{speciality_label(name)} ({characteristic_label(characteristic)})")
        for name, characteristic in CATALOGUE.creation["specialities"].items()
    ]


class SheetForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    specialities = forms.MultipleChoiceField(
        label=_("Specialities"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("3 XP each, +2 for each other speciality of the same characteristic."),
    )
    equipment = forms.CharField(
        label=_("Equipment"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    hp_max = forms.IntegerField(label=_("Hit points"), min_value=1, max_value=100, initial=10)
    hp = forms.IntegerField(
        label=_("Hit points now"), min_value=-100, max_value=100, required=False
    )
    stress = forms.IntegerField(
        label=_("Stress points"), min_value=0, max_value=24, initial=0, required=False
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        creation = CATALOGUE.creation
        for name in creation["characteristics"]:
            self.fields[name] = forms.TypedChoiceField(
                label=characteristic_label(name),
                choices=DIE_CHOICES,
                coerce=int,
                initial="8",
            )
        self.fields["specialities"].choices = speciality_choices()
        for name in creation["skills"]:
            self.fields[SKILL_PREFIX + name] = forms.IntegerField(
                label=skill_label(name),
                min_value=0,
                max_value=creation["skill_level_max"],
                initial=0,
                required=False,
                help_text=_("1 XP a level; 0: untrained."),
            )
        skills = [SKILL_PREFIX + name for name in creation["skills"]]
        order = ["name", *creation["characteristics"], *skills, "specialities"]
        self.order_fields(order)

    def skill_fields(self) -> list:
        return [self[SKILL_PREFIX + name] for name in CATALOGUE.creation["skills"]]

    def sheet(self) -> dict:
        """The fields the service takes."""
        data = self.cleaned_data
        sheet = {
            "name": data["name"],
            "description": data.get("description", ""),
            "characteristics": {n: data[n] for n in CATALOGUE.creation["characteristics"]},
            "skills": {
                name: data[SKILL_PREFIX + name]
                for name in CATALOGUE.creation["skills"]
                if data.get(SKILL_PREFIX + name)
            },
            "specialities": list(data.get("specialities") or []),
            "equipment": data.get("equipment", ""),
            "hp_max": data["hp_max"],
            "stress": data.get("stress") or 0,
        }
        if data.get("hp") is not None:
            sheet["hp"] = data["hp"]
        return sheet

    @classmethod
    def initial_for(cls, character) -> dict:
        return {
            "name": character.name,
            "description": character.description,
            **{n: str(v) for n, v in character.characteristics.items()},
            **{SKILL_PREFIX + k: v for k, v in character.skills.items()},
            "specialities": [name for name, _characteristic in character.specialities],
            "equipment": character.equipment,
            "hp_max": character.hp_max,
            "hp": character.hp,
            "stress": character.stress,
            "version": character.version,
        }

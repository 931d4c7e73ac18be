"""The sheet form of a modern RPG character: the four characteristic dice, skills and
specialities one per line, equipment and gauges. Lines are read here; the creation rules
are the service's (and the engine's) to check."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.modern.cards import CHARACTERISTIC_LABELS
from rules.engine.systems.modern.catalogue import load_catalogue

CATALOGUE = load_catalogue()
DIE_CHOICES = [(str(s), f"d{s}") for s in CATALOGUE.dice["sides"]]


def _lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line.strip()]


class SheetForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    skills = forms.CharField(
        label=_("Skills"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One per line: the skill, then its level (1 XP a level). Example: tir 4"),
    )
    specialities = forms.CharField(
        label=_("Specialities"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "One per line, in the order bought: the speciality, then its characteristic "
            "(3 XP, +2 for each earlier one on the same characteristic). Example: course endurance"
        ),
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
        for name in CATALOGUE.creation["characteristics"]:
            self.fields[name] = forms.TypedChoiceField(
                label=CHARACTERISTIC_LABELS.get(name, name),
                choices=DIE_CHOICES,
                coerce=int,
                initial="8",
            )
        order = ["name", *CATALOGUE.creation["characteristics"]]
        self.order_fields(order)

    def clean_skills(self):
        skills = {}
        for parts in _lines(self.cleaned_data["skills"]):
            if len(parts) < 2 or not re.fullmatch(r"[0-9]{1,3}", parts[-1]):
                raise forms.ValidationError(
                    _("Write each skill as its name then its level, for example: tir 4.")
                )
            skills[" ".join(parts[:-1])] = int(parts[-1])
        return skills

    def clean_specialities(self):
        names = CATALOGUE.creation["characteristics"]
        out = []
        for parts in _lines(self.cleaned_data["specialities"]):
            if len(parts) < 2 or parts[-1] not in names:
                raise forms.ValidationError(
                    _("Write each speciality as its name then one of: %(names)s.")
                    % {"names": ", ".join(names)}
                )
            out.append([" ".join(parts[:-1]), parts[-1]])
        return out

    def sheet(self) -> dict:
        """The fields the service takes."""
        data = self.cleaned_data
        sheet = {
            "name": data["name"],
            "description": data.get("description", ""),
            "characteristics": {n: data[n] for n in CATALOGUE.creation["characteristics"]},
            "skills": data.get("skills") or {},
            "specialities": data.get("specialities") or [],
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
            "skills": "\n".join(f"{k} {v}" for k, v in character.skills.items()),
            "specialities": "\n".join(f"{n} {c}" for n, c in character.specialities),
            "equipment": character.equipment,
            "hp_max": character.hp_max,
            "hp": character.hp,
            "stress": character.stress,
            "version": character.version,
        }

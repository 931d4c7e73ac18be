"""The form of a Corporates or modern RPG calculator, built from its resolver's input
schema: a whole number, a yes/no, a choice or a list of typed dice per property, each
labelled from `cards.LABELS`. Blank fields are left out, so the engine applies its stated
defaults; the campaign settings are the catalogue's defaults (docs/rules.md)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.dice_calculators.cards import LABELS, label, label_lazy
from rules.engine.registry import Resolver
from rules.engine.systems.modern.catalogue import load_catalogue as modern_catalogue

SKIPPED = frozenset({"settings", "characters"})
# The chase events of both terrains, in the catalogue's order (a key in both is one choice).
EVENT_KEYS = list(
    dict.fromkeys(
        event["key"] for events in modern_catalogue().chase["events"].values() for event in events
    )
)


def _choice_value(raw: str, choices: list):
    for choice in choices:
        if str(choice) == raw:
            return choice
    return raw


class DiceField(forms.CharField):
    """Dice typed as faces separated by spaces or commas: "6 3 4"."""

    def to_python(self, value):
        text = super().to_python(value).replace(",", " ")
        if not text.strip():
            return None
        try:
            return [int(part) for part in text.split()]
        except ValueError:
            raise forms.ValidationError(
                _("Type the faces as whole numbers separated by spaces."), code="faces"
            ) from None


class ResolverForm(forms.Form):
    """The inputs of one resolver, and the dice typed in by hand."""

    def __init__(self, resolver: Resolver, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.resolver = resolver
        self.choices: dict[str, list] = {}
        self.dice_names: list[str] = []
        for name, spec in resolver.input_schema["properties"].items():
            if name in SKIPPED or name not in LABELS:
                continue
            field = self._field(name, spec)
            if field is not None:
                field.label = LABELS[name]
                self.fields[name] = field

    def _field(self, name: str, spec: dict):
        required = name in self.resolver.input_schema.get("required", [])
        if required and "default" not in spec and "minimum" in spec:
            # A required number the rules give no default: the form starts at its least
            # valid value, so the page's first "Odds" answers instead of "required".
            spec = {**spec, "default": spec["minimum"]}
        if name in self.resolver.dice_fields and spec.get("type") == "array":
            self.dice_names.append(name)
            return DiceField(required=False)
        if name == "event":
            self.dice_names.append(name)
            return forms.ChoiceField(
                choices=[("", "—"), *((k, label(k)) for k in EVENT_KEYS)], required=False
            )
        if name in self.resolver.dice_fields:
            self.dice_names.append(name)
            return forms.IntegerField(
                required=False, min_value=spec.get("minimum"), max_value=spec.get("maximum")
            )
        enum = spec.get("enum") or spec.get("items", {}).get("enum")
        if spec.get("type") == "array" and enum:
            self.choices[name] = list(enum)
            return forms.MultipleChoiceField(
                choices=[(str(v), label(v)) for v in enum],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        if enum:
            self.choices[name] = list(enum)
            choices = [("", "—") if v is None else (str(v), label(v)) for v in enum]
            return forms.ChoiceField(
                choices=choices, required=required, initial=spec.get("default")
            )
        if spec.get("type") == "boolean":
            return forms.BooleanField(required=False, initial=spec.get("default", False))
        if spec.get("type") == "integer":
            return forms.IntegerField(
                required=required,
                min_value=spec.get("minimum"),
                max_value=spec.get("maximum"),
                initial=spec.get("default"),
            )
        if spec.get("type") == "number":
            return forms.FloatField(
                required=required,
                min_value=spec.get("minimum"),
                max_value=spec.get("maximum"),
                initial=spec.get("default"),
            )
        return None

    def _value(self, name: str, value):
        if name in self.choices:
            if isinstance(value, list):
                return [_choice_value(v, self.choices[name]) for v in value] or None
            return None if value == "" else _choice_value(value, self.choices[name])
        return value

    def inputs(self) -> dict:
        """What the resolver reads: every filled field but the typed dice."""
        out = {}
        for name, value in self.cleaned_data.items():
            if name in self.dice_names:
                continue
            value = self._value(name, value)
            if value is None:
                continue
            if isinstance(self.fields[name], forms.BooleanField) and not value:
                continue
            out[name] = value
        return out

    def typed_dice(self) -> dict:
        return {
            name: self._value(name, self.cleaned_data[name])
            for name in self.dice_names
            if self.cleaned_data.get(name) not in (None, "", [])
        }

    def field_for(self, path: str | None) -> str | None:
        """The form field a refusal names (`settings.x` and nested paths go to the form)."""
        name = (path or "").split(".")[0]
        return name if name in self.fields else None


SEGMENTS = [(str(s), str(s)) for s in range(1, 6)]


class TurnCharacterForm(forms.Form):
    """One character of a Corporates turn: declared actions, a delay, survival mode, and the
    segments of its undeclared actions."""

    name = forms.CharField(label=_("Name"), max_length=40, required=False)
    declared = forms.TypedChoiceField(
        label=_("Declared actions this turn"),
        choices=SEGMENTS,
        coerce=int,
        empty_value=1,
        required=False,
    )
    delay = forms.IntegerField(
        label=_("Delay of the first action (segments)"), min_value=0, max_value=4, required=False
    )
    survival_from = forms.TypedChoiceField(
        label=_("Survival mode from segment"),
        choices=[("", "—"), *SEGMENTS],
        coerce=int,
        empty_value=None,
        required=False,
    )
    undeclared = forms.TypedMultipleChoiceField(
        label=_("Undeclared actions in segments"),
        choices=SEGMENTS,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def character(self) -> dict | None:
        """The resolver's input for this row, or None for a row left blank."""
        data = self.cleaned_data
        if not data or not data.get("name"):
            return None
        return {
            "name": data["name"],
            "declared": data["declared"],
            "delays": {"1": data["delay"]} if data.get("delay") else {},
            "survival_from": data.get("survival_from"),
            "undeclared": sorted(data.get("undeclared") or []),
        }


TurnFormSet = forms.formset_factory(TurnCharacterForm, extra=4, max_num=12, validate_max=True)


class ChaseRoundForm(forms.Form):
    """One round of a chase as the organiser runs it: the state so far and the round's
    successes; the event is drawn on the server."""

    terrain = forms.ChoiceField(
        label=_("Terrain"), choices=[("foot", label_lazy("foot")), ("road", label_lazy("road"))]
    )
    objective = forms.IntegerField(
        label=_("Objective points"), min_value=1, max_value=200, initial=40
    )
    points = forms.IntegerField(
        label=_("Objective points so far"), min_value=0, max_value=400, initial=0
    )
    lead = forms.IntegerField(label=_("Lead now"), min_value=0, max_value=200, initial=6)
    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=200, initial=1)
    risk = forms.ChoiceField(
        label=_("Risk taken"),
        choices=[(k, label_lazy(k)) for k in modern_catalogue().chase["risks"]],
        initial="normal",
    )
    pursued_successes = forms.IntegerField(
        label=_("Pursued's successes"), min_value=0, max_value=40, initial=0
    )
    pursuer_successes = forms.IntegerField(
        label=_("Pursuer's successes"), min_value=0, max_value=40, initial=0
    )

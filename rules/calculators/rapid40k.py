"""The Rapid 40000 calculators: one page per resolver (cost, melee, shooting, overwatch,
deviation, morale, disengagement, vehicles), the form built from a table of fields.

Each field maps to the resolver's JSON input (`a_combat` -> `{"a": {"combat": ...}}`), so a
refusal of the resolver (`a.combat`) lands on the field that caused it. The odds, the
judged dice and the server rolls go through `rules.rolls.services` as KOLAPS' do.
"""

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from characters.permissions import Refusal
from rules.calculators.forms import typed_dice
from rules.engine.registry import resolver_get, resolvers_of
from rules.engine.systems.rapid40k.catalogue import load_catalogue
from rules.labels import RAPID40K_OUTCOME_LABELS, RESOLVER_LABELS_BY_SYSTEM
from rules.rolls.services import resolve, roll_on_server

SYSTEM = "rapid40k"

RESOLVER_LABELS = RESOLVER_LABELS_BY_SYSTEM[SYSTEM]
OUTCOME_LABELS = RAPID40K_OUTCOME_LABELS

DICE_LABELS = {
    "dice": _("Your 3 dice"),
    "a_dice": _("A's dice (attacker)"),
    "b_dice": _("B's dice (defender or target)"),
    "deviation_dice": _("The 3 dice of the Quality roll"),
}


def _catalogue_choices(mapping) -> list[tuple[str, str]]:
    return [(slug, entry.label) for slug, entry in mapping.items()]


def _quality(label=None) -> forms.IntegerField:
    lo, hi = load_catalogue().quality_range
    return forms.IntegerField(
        label=label or _("Quality (the 3 of 3+)"), min_value=lo, max_value=hi, initial=3
    )


def _combat(label=None) -> forms.IntegerField:
    lo, hi = load_catalogue().combat_range
    return forms.IntegerField(label=label or _("Combat"), min_value=lo, max_value=hi, initial=3)


def _figures(label, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=1, max_value=8, initial=initial)


def _rules(label=None) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label or _("Special rules"),
        choices=_catalogue_choices(load_catalogue().special_rules),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


def _flag(label) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


def _weapon(kinds=None, initial="fusil_assaut") -> forms.ChoiceField:
    weapons = load_catalogue().weapons
    choices = [(s, w.label) for s, w in weapons.items() if kinds is None or w.kind in kinds]
    return forms.ChoiceField(label=_("Weapon"), choices=choices, initial=initial)


def _shot_fields() -> dict[str, forms.Field]:
    return {
        "weapon": _weapon(),
        "shooters": _figures(_("Shooters with this weapon"), 3),
        "quality": _quality(_("Leader's Quality (deviation of blast weapons)")),
        "combat": _combat(_("Leader's Combat")),
        "special_rules": _rules(_("Leader's special rules")),
        "aimed": _flag(_("Aimed shot (two actions)")),
        "target_figures": _figures(_("Target figures"), 4),
        "target_combat": _combat(_("Target leader's Combat")),
        "target_special_rules": _rules(_("Target leader's special rules")),
    }


def _melee_fields() -> dict[str, forms.Field]:
    fields: dict[str, forms.Field] = {}
    for side, figures in (("a", 2), ("b", 4)):
        fields.update(
            {
                f"{side}_figures": _figures(_("Figures engaged"), figures),
                f"{side}_combat": _combat(_("Leader's Combat")),
                f"{side}_special_rules": _rules(_("Leader's special rules")),
                f"{side}_charged": _flag(_("Charged")),
                f"{side}_power_attack": _flag(_("Power attack (two actions)")),
            }
        )
    return fields


def _form_fields(resolver: str) -> dict[str, forms.Field]:
    catalogue = load_catalogue()
    if resolver == "cost":
        vehicles = [("", _("None: price the profile")), *_catalogue_choices(catalogue.vehicles)]
        return {
            "quality": _quality(),
            "combat": _combat(),
            "weapon": _weapon(),
            "special_rules": _rules(),
            "vehicle": forms.ChoiceField(label=_("Vehicle"), choices=vehicles, required=False),
        }
    if resolver == "melee":
        return _melee_fields()
    if resolver in ("shooting", "overwatch"):
        return _shot_fields()
    if resolver == "morale":
        return {
            "quality": _quality(_("Leader's Quality")),
            "special_rules": _rules(_("Leader's special rules")),
            "chef_nearby": _flag(_("A Chef within command distance")),
        }
    if resolver == "vehicle":
        attacks = [("missile", _("Missile")), ("explosive_charge", _("Explosive charge"))]
        return {
            "attack": forms.ChoiceField(label=_("Attack"), choices=attacks, initial="missile"),
            "quality": _quality(_("Leader's Quality")),
            "combat": _combat(_("Leader's Combat")),
            "weapon": _weapon({"blast_template"}, "lance_missile"),
            "vehicle": forms.ChoiceField(
                label=_("Vehicle"), choices=_catalogue_choices(catalogue.vehicles)
            ),
        }
    return {"quality": _quality(_("Leader's Quality"))}


class Rapid40kForm(forms.Form):
    """The inputs of one Rapid 40000 resolver, then a field per roll typed in by hand."""

    def __init__(self, resolver: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.resolver = resolver
        self.dice_fields = resolver_get(SYSTEM, resolver).dice_fields
        self.fields.update(_form_fields(resolver))
        for name in self.dice_fields:
            self.fields[name] = forms.CharField(
                label=DICE_LABELS[name],
                required=False,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            )

    def input_fields(self):
        return [self[name] for name in self.fields if name not in self.dice_fields]

    def dice(self):
        return [self[name] for name in self.dice_fields]

    def groups(self) -> list[tuple[str, list]]:
        """(legend, fields): which squad each field describes, a fieldset each, so a phone
        reader knows that this "Leader's Combat" is squad B's."""
        fields = self.input_fields()
        if self.resolver == "melee":
            sides = (("a", _("Squad A (attacker)")), ("b", _("Squad B (defender)")))
            return [
                (legend, [f for f in fields if f.name.startswith(f"{side}_")])
                for side, legend in sides
            ]
        if self.resolver in ("shooting", "overwatch"):
            target = [f for f in fields if f.name.startswith("target_")]
            shooters = [f for f in fields if not f.name.startswith("target_")]
            return [(_("Shooting squad"), shooters), (_("Target squad"), target)]
        if self.resolver == "cost":
            return [(_("Profile"), fields)]
        if self.resolver == "vehicle":
            return [(_("Attacking squad and vehicle"), fields)]
        return [(_("Squad"), fields)]

    def inputs(self) -> dict:
        data: dict = {}
        for name, value in self.cleaned_data.items():
            if name in self.dice_fields or value in ("", None):
                continue
            prefix, _sep, rest = name.partition("_")
            if prefix in ("a", "b", "target") and rest:
                data.setdefault(prefix, {})[rest] = value
            else:
                data[name] = value
        return data

    def typed_dice(self) -> dict[str, list[int]]:
        return typed_dice(self, self.dice_fields)

    def field_for(self, name: str | None) -> str | None:
        candidate = (name or "").replace(".", "_")
        return candidate if candidate in self.fields else None


def _labelled(outcomes: dict[str, float], exact: dict[str, str]) -> list[tuple]:
    """(key, label, probability, exact chance)."""
    return [(k, str(OUTCOME_LABELS.get(k, k)), p, exact.get(k, p)) for k, p in outcomes.items()]


def _calculate(request: HttpRequest, form: Rapid40kForm) -> dict:
    context: dict = {}
    inputs = form.inputs()
    name = form.resolver
    try:
        odds = resolve(
            system=SYSTEM, name=name, verb="odds" if name != "cost" else "evaluate", data=inputs
        )
        if name == "cost":
            context["price"] = odds
        else:
            context["odds"] = odds
            context["odds_rows"] = _labelled(odds["outcomes"], odds.get("outcomes_exact", {}))
        if request.method == "POST" and name != "cost":
            if request.POST.get("action") == "roll":
                record = roll_on_server(player=request.user, system=SYSTEM, name=name, data=inputs)
                context["result"], context["record"] = record.outcome, record
            else:
                typed = form.typed_dice()
                if not typed and not form.errors:
                    form.add_error(None, _("Type the dice you rolled, or roll on the server."))
                elif not form.errors:
                    context["result"] = resolve(
                        system=SYSTEM, name=name, verb="evaluate", data={**inputs, **typed}
                    )
    except Refusal as refusal:
        form.add_error(form.field_for(refusal.field), str(refusal.message))
    result = context.get("result")
    if result:
        context["result_label"] = OUTCOME_LABELS.get(result.get("outcome"), result.get("outcome"))
    return context


@require_http_methods(["GET", "POST"])
def rapid40k_calculator(request: HttpRequest, resolver: str) -> HttpResponse:
    """GET: the odds (or the price) of what the form describes. POST: judge typed dice, or
    roll on the server and record the roll."""
    if resolver_get(SYSTEM, resolver) is None:
        raise Http404
    data = request.POST if request.method == "POST" else (request.GET or None)
    form = Rapid40kForm(resolver, data)
    context: dict = {
        "form": form,
        "resolver": resolver,
        "heading": RESOLVER_LABELS[resolver],
        "calculators": [(r.name, RESOLVER_LABELS[r.name]) for r in resolvers_of(SYSTEM)],
    }
    if form.is_bound and form.is_valid():
        context.update(_calculate(request, form))
    template = "rules/calculators/rapid40k.html"
    if request.htmx and request.htmx.target == "rapid40k-panel":
        template += "#rapid40k-panel"
    return render(request, template, context)

"""The table calculator (phone first) and the player's record of server rolls."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from characters.permissions import Refusal
from rules.engine.registry import FOLLOW_UPS
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.talent_test import rank_slugs
from rules.labels import (
    COVER_LABELS,
    FOLLOW_UP_LABELS,
    ORDER_LABELS,
    OUTCOME_LABELS,
    RANK_LABELS,
    ROW_LABELS,
    modifier_label,
)
from rules.rolls.models import RollRecord
from rules.rolls.selectors import roll_get_for_user
from rules.rolls.services import resolve, roll_on_server, roll_replay
from rules.table.cards import chapters_being_played


class TestForm(forms.Form):
    db = forms.IntegerField(label=_("Difficulty (DB)"), min_value=-20, max_value=30, initial=3)
    rank = forms.ChoiceField(
        label=_("Rank"), choices=[(r, RANK_LABELS[r]) for r in rank_slugs()], initial="veteran"
    )
    sante = forms.IntegerField(label=_("Santé"), min_value=1, max_value=6, initial=6)
    dice = forms.CharField(
        label=_("Dice rolled by hand"),
        required=False,
        help_text=_("The faces, separated by spaces: 3 4 5"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def inputs(self) -> dict:
        return {k: self.cleaned_data[k] for k in ("db", "rank", "sante")}

    def typed_dice(self) -> list[int] | None:
        return _typed_dice(self, ("dice",)).get("dice")


def _form_data(request: HttpRequest):
    """What a calculator form is bound to: the POST, the GET query, or nothing (a blank form)."""
    return request.POST if request.method == "POST" else (request.GET or None)


def _labelled(outcomes: dict[str, float]) -> list[tuple[str, str, float, float]]:
    """(key, label, probability, percent) in the order of the outcome table."""
    order = list(OUTCOME_LABELS)
    return [
        (key, str(OUTCOME_LABELS[key]), outcomes[key], outcomes[key] * 100)
        for key in sorted(outcomes, key=order.index)
    ]


@require_http_methods(["GET", "POST"])
def kolaps_test(request: HttpRequest) -> HttpResponse:
    """GET: the odds of the test in the form. POST: judge typed dice, or roll on the server."""
    form = TestForm(_form_data(request), initial={"db": 3, "rank": "veteran", "sante": 6})
    context: dict = {"form": form}
    if form.is_bound and form.is_valid():
        inputs = form.inputs()
        context["odds"] = resolve(system="kolaps", name="test", verb="odds", data=inputs)
        context["odds_rows"] = _labelled(context["odds"]["outcomes"])
        context["six_percent"] = context["odds"]["six_six_six"] * 100
        if request.method == "POST":
            try:
                if request.POST.get("action") == "roll":
                    record = roll_on_server(
                        player=request.user, system="kolaps", name="test", data=inputs
                    )
                    context["result"], context["record"] = record.outcome, record
                else:
                    dice = form.typed_dice()
                    if dice is None and not form.errors:
                        form.add_error(
                            "dice", _("Type the dice you rolled, or roll on the server.")
                        )
                    if dice is not None:
                        context["result"] = resolve(
                            system="kolaps",
                            name="test",
                            verb="evaluate",
                            data={**inputs, "dice": dice},
                        )
            except Refusal as refusal:
                form.add_error(
                    refusal.field if refusal.field in form.fields else None, str(refusal.message)
                )
    template = "rules/calculators/kolaps_test.html"
    if request.htmx and request.htmx.target == "test-panel":
        template += "#test-panel"
    return render(request, template, context)


@login_required
@require_GET
def roll_list(request: HttpRequest) -> HttpResponse:
    rolls = RollRecord.objects.for_user(request.user)[:100]
    return render(request, "rules/rolls/roll_list.html", {"rolls": rolls})


@login_required
@require_GET
def roll_detail(request: HttpRequest, pk: int) -> HttpResponse:
    record = roll_get_for_user(request.user, pk)
    return render(
        request,
        "rules/rolls/roll_detail.html",
        {
            "record": record,
            "replay": roll_replay(record=record),
            "playing": chapters_being_played(request.user),
        },
    )


# --- The ranged-combat calculator (RULES-NOTES K7-K11) -------------------------------------


def _catalogue_choices():
    catalogue = load_catalogue()
    ranged = [(w.slug, w.label) for w in catalogue.weapons.values() if w.kind == "ranged"]
    melee = [(w.slug, w.label) for w in catalogue.weapons.values() if w.kind == "melee"]
    armours = [("", _("None")), *((a.slug, a.label) for a in catalogue.armours.values())]
    modes = sorted({m for w in catalogue.weapons.values() for m in w.db_modifier_by_mode})
    shooting = [
        (f"{t.slug}:{level.level}", f"{t.label} {level.level}")
        for t in catalogue.talents.values()
        if t.kind == "specialisation" and set(t.specialises) & {"fusil", "pistolet"}
        for level in t.levels
        if level.db_modifier is not None or level.power_bonus is not None
    ]
    return catalogue, ranged, melee, armours, modes, shooting


def _dice_field(name: str) -> forms.CharField:
    return forms.CharField(
        label=FOLLOW_UP_LABELS[name],
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


def _typed_dice(form: forms.Form, names: tuple[str, ...]) -> dict[str, list[int]]:
    """The dice fields typed in, as lists of faces ("6 3" -> [6, 3])."""
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


RANGED_DICE_FIELDS = ("dice", *FOLLOW_UPS)
CHOICE_AFFILIATIONS = [("apc", "APC"), ("sheol", "Shéol"), ("chrisme", "Chrisme")]


class RangedForm(forms.Form):
    """A shot, as players describe it at the table; every field maps to the resolver's input."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _catalogue, ranged, _melee, armours, modes, shooting = _catalogue_choices()
        ranks = [(r, RANK_LABELS[r]) for r in rank_slugs()]
        levels = [(n, str(n)) for n in range(4)]
        f = self.fields
        f["rank"] = forms.ChoiceField(label=_("Rank"), choices=ranks, initial="veteran")
        f["sante"] = forms.IntegerField(label=_("Santé"), min_value=1, max_value=6, initial=6)
        f["affiliation"] = forms.ChoiceField(
            label=_("Affiliation"), choices=CHOICE_AFFILIATIONS, initial="apc"
        )
        f["expertise"] = forms.TypedChoiceField(
            label=_("Weapon expertise"), choices=levels, coerce=int, initial=2
        )
        f["specialisation"] = forms.ChoiceField(
            label=_("Specialisation used"), choices=[("", _("None")), *shooting], required=False
        )
        f["armour"] = forms.ChoiceField(label=_("Shooter's gear"), choices=armours, required=False)
        f["equipment_db"] = forms.IntegerField(
            label=_("Other equipment (DB)"), min_value=-10, max_value=10, initial=0
        )
        f["weapon"] = forms.ChoiceField(label=_("Weapon"), choices=ranged, initial="fa-f4")
        f["mode"] = forms.ChoiceField(
            label=_("Firing mode"),
            choices=[("", _("Normal")), *((m, m) for m in modes)],
            required=False,
        )
        f["distance_cm"] = forms.FloatField(
            label=_("Distance (cm)"), min_value=0, max_value=1000, initial=45
        )
        f["order"] = forms.ChoiceField(
            label=_("Target's order"), choices=list(ORDER_LABELS.items()), initial="movement"
        )
        f["cover"] = forms.TypedChoiceField(
            label=_("Cover"), choices=COVER_LABELS, coerce=int, initial=0
        )
        f["against_cover"] = forms.BooleanField(label=_("Against the cover"), required=False)
        f["unconscious"] = forms.BooleanField(label=_("Target unconscious"), required=False)
        f["moved_cm"] = forms.FloatField(
            label=_("Target moved (cm)"), min_value=0, max_value=1000, initial=0
        )
        f["closing_in"] = forms.BooleanField(label=_("Moving towards the shooter"), required=False)
        f["target_armour"] = forms.ChoiceField(
            label=_("Target's protection"), choices=armours, required=False
        )
        f["extra_protection"] = forms.IntegerField(
            label=_("Other protection (DB)"), min_value=0, max_value=10, initial=0
        )
        f["metabolism"] = forms.ChoiceField(
            label=_("Target's inhuman metabolism"),
            choices=[("", _("None")), *((str(n), str(n)) for n in range(4))],
            required=False,
        )
        f["target_sante"] = forms.IntegerField(
            label=_("Target's Santé"), min_value=1, max_value=6, initial=6
        )
        f["melee_figures"] = forms.IntegerField(
            label=_("Figures in the melee"), min_value=0, max_value=20, initial=0
        )
        for name in RANGED_DICE_FIELDS:
            f[name] = _dice_field(name)

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
        use = []
        if d.get("specialisation"):
            slug, _sep, level = d["specialisation"].partition(":")
            talents[slug] = int(level)
            use.append(slug)
        target_talents = {}
        if d.get("metabolism"):
            target_talents["metabolisme-inhumain-vampire"] = int(d["metabolism"])
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
        name = self.FIELD_OF_INPUT.get(name or "", name)
        return name if name in self.fields else None


def _odds_rows(rows: dict[str, float]) -> list[tuple[str, str, float, float]]:
    return [(key, str(ROW_LABELS[key]), p, p * 100) for key, p in rows.items()]


def _calculate(request: HttpRequest, form, resolver: str, dice_fields: tuple[str, ...]) -> dict:
    """Odds for a valid form; on POST, the typed dice judged or a server roll recorded."""
    context: dict = {}
    inputs = form.inputs()
    try:
        odds = resolve(system="kolaps", name=resolver, verb="odds", data=inputs)
        context["odds"] = odds
        if request.method == "POST":
            if request.POST.get("action") == "roll":
                record = roll_on_server(
                    player=request.user, system="kolaps", name=resolver, data=inputs
                )
                context["result"], context["record"] = record.outcome, record
            else:
                typed = _typed_dice(form, dice_fields)
                if not typed and not form.errors:
                    form.add_error(None, _("Type the dice you rolled, or roll on the server."))
                elif not form.errors:
                    context["result"] = resolve(
                        system="kolaps", name=resolver, verb="evaluate", data={**inputs, **typed}
                    )
    except Refusal as refusal:
        form.add_error(form.field_for(refusal.field), str(refusal.message))
    result = context.get("result")
    if result and result.get("pending"):
        pending = result["pending"]
        context["pending_label"] = FOLLOW_UP_LABELS.get(pending["field"], pending["field"])
    context["shown_dice"] = [
        form[name]
        for name in dice_fields
        if name in ("dice", "a_dice", "b_dice")
        or form.data.get(name)
        or (result and result.get("pending", {}).get("field") == name)
    ]
    return context


def _calculator_page(
    request: HttpRequest,
    form,
    *,
    resolver: str,
    dice_fields: tuple[str, ...],
    blank_dice: tuple[str, ...],
    odds_context,
) -> HttpResponse:
    """A combat calculator page (`rules/calculators/kolaps_<resolver>.html`), or one of its
    two partials `<resolver>-panel` and `<resolver>-odds` when htmx targets it.
    `odds_context(odds)` gives what the page shows of the odds; `blank_dice` are the dice
    fields shown on a blank form."""
    context: dict = {"form": form}
    if form.is_bound and form.is_valid():
        context.update(_calculate(request, form, resolver, dice_fields))
        odds = context.get("odds")
        if odds:
            context.update(odds_context(odds))
    else:
        context["shown_dice"] = [form[name] for name in blank_dice]
    template = f"rules/calculators/kolaps_{resolver}.html"
    if request.htmx and request.htmx.target in (f"{resolver}-panel", f"{resolver}-odds"):
        template += f"#{request.htmx.target}"
    return render(request, template, context)


def _ranged_odds_context(odds: dict) -> dict:
    return {
        "odds_rows": _odds_rows(odds.get("rows", {})),
        "modifier_rows": [(modifier_label(m["source"]), m["db"]) for m in odds["modifiers"]],
        "death_percent": odds.get("target_dies", 0) * 100,
    }


@require_http_methods(["GET", "POST"])
def kolaps_ranged(request: HttpRequest) -> HttpResponse:
    """GET: the DB, dice and odds of a shot. POST: judge typed dice, or roll on the server."""
    return _calculator_page(
        request,
        RangedForm(_form_data(request)),
        resolver="ranged",
        dice_fields=RANGED_DICE_FIELDS,
        blank_dice=("dice",),
        odds_context=_ranged_odds_context,
    )


# --- The melee calculator (RULES-NOTES K10) --------------------------------------------------

MELEE_DICE_FIELDS = ("a_dice", "b_dice", *RANGED_DICE_FIELDS)
MELEE_TALENTS = ("esquive", "ambidextre")


class MeleeForm(forms.Form):
    """Two fighters as players describe them; supports are counted, Immobiliser by level."""

    SIDES = ("a", "b")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        catalogue, _ranged, melee, armours, _modes, _shooting = _catalogue_choices()
        ranks = [(r, RANK_LABELS[r]) for r in rank_slugs()]
        levels = [(n, str(n)) for n in range(4)]
        specialisations = [
            (f"{slug}:{level}", f"{catalogue.talent(slug).label} {level}")
            for slug in MELEE_TALENTS
            for level in catalogue.talent(slug).level_numbers
        ]
        f = self.fields
        for side, weapon, affiliation in (
            ("a", "matraque-composite", "apc"),
            ("b", "griffes", "sheol"),
        ):
            f[f"{side}_rank"] = forms.ChoiceField(label=_("Rank"), choices=ranks, initial="aguerri")
            f[f"{side}_sante"] = forms.IntegerField(
                label=_("Santé"), min_value=1, max_value=6, initial=6
            )
            f[f"{side}_affiliation"] = forms.ChoiceField(
                label=_("Affiliation"), choices=CHOICE_AFFILIATIONS, initial=affiliation
            )
            f[f"{side}_expertise"] = forms.TypedChoiceField(
                label=_("Corps à corps"), choices=levels, coerce=int, initial=1
            )
            f[f"{side}_weapon"] = forms.ChoiceField(
                label=_("Weapon"), choices=melee, initial=weapon
            )
            f[f"{side}_armour"] = forms.ChoiceField(
                label=_("Protection"), choices=armours, required=False
            )
            f[f"{side}_specialisation"] = forms.ChoiceField(
                label=_("Specialisation used"),
                choices=[("", _("None")), *specialisations],
                required=False,
            )
            f[f"{side}_charge"] = forms.TypedChoiceField(
                label=_("Charged with Charge"),
                choices=[(0, _("No charge")), *((n, str(n)) for n in range(1, 4))],
                coerce=int,
                initial=0,
            )
            f[f"{side}_supports"] = forms.IntegerField(
                label=_("Supports"), min_value=0, max_value=10, initial=0
            )
            f[f"{side}_charged_supports"] = forms.IntegerField(
                label=_("Supports that charged"), min_value=0, max_value=10, initial=0
            )
            f[f"{side}_immobiliser"] = forms.TypedChoiceField(
                label=_("A support's Immobiliser"),
                choices=[(0, _("None")), *((n, str(n)) for n in range(1, 4))],
                coerce=int,
                initial=0,
            )
            f[f"{side}_metabolism"] = forms.ChoiceField(
                label=_("Inhuman metabolism"),
                choices=[("", _("None")), *((str(n), str(n)) for n in range(4))],
                required=False,
            )
        for name in MELEE_DICE_FIELDS:
            f[name] = _dice_field(name)

    def groups(self):
        names = [n for n in self.fields if n[:2] in ("a_", "b_") and not n.endswith("_dice")]
        return [
            (_("Fighter A"), [self[n] for n in names if n.startswith("a_")]),
            (_("Fighter B"), [self[n] for n in names if n.startswith("b_")]),
        ]

    def _fighter(self, side: str) -> dict:
        d = {k[2:]: v for k, v in self.cleaned_data.items() if k.startswith(f"{side}_")}
        talents = {"corps-a-corps": d["expertise"]}
        use = []
        if d.get("specialisation"):
            slug, _sep, level = d["specialisation"].partition(":")
            talents[slug] = int(level)
            use.append(slug)
        if d["charge"]:
            charge = "charge-sheol" if d["affiliation"] == "sheol" else "charge-apc"
            talents[charge] = d["charge"]
        if d.get("metabolism"):
            talents["metabolisme-inhumain-vampire"] = int(d["metabolism"])
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
        name = (name or "").replace(".", "_")
        return name if name in self.fields else None


def _melee_odds_context(odds: dict) -> dict:
    return {
        "sides": [
            {
                "name": side,
                "strikes": odds["attacker"][side] * 100,
                "dies": odds["dies"][side] * 100,
                "rows": _odds_rows(odds["rows"][side]),
            }
            for side in ("a", "b")
        ],
        "exchange_percent": odds["exchange"] * 100,
    }


@require_http_methods(["GET", "POST"])
def kolaps_melee(request: HttpRequest) -> HttpResponse:
    """GET: who strikes, every row and each death. POST: judge typed dice, or roll."""
    return _calculator_page(
        request,
        MeleeForm(_form_data(request)),
        resolver="melee",
        dice_fields=MELEE_DICE_FIELDS,
        blank_dice=("a_dice", "b_dice"),
        odds_context=_melee_odds_context,
    )

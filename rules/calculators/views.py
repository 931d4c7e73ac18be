"""The table calculators (phone first): the odds of what the form describes, then the dice
typed in by hand judged, or rolled and recorded on the server."""

from collections.abc import Callable

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from characters.permissions import Refusal
from rules.calculators.forms import (
    BrawlForm,
    CalculatorForm,
    MeleeForm,
    RangedForm,
    ShotForm,
    TestForm,
    ThrowForm,
)
from rules.labels import OUTCOME_LABELS, ROW_LABELS, modifier_label
from rules.rolls.services import resolve, roll_on_server

PAGES = "rules/calculators"
# The dice fields a combat page always shows once its form is valid; the follow-ups appear
# when typed in or asked for.
FIRST_DICE = ("dice", "a_dice", "b_dice")


def _form_data(request: HttpRequest):
    """What a calculator form is bound to: the POST, the GET query, or nothing (a blank form)."""
    return request.POST if request.method == "POST" else (request.GET or None)


def _initial_data(form_class: type[CalculatorForm]) -> dict:
    """The starting values of a blank form, as a browser would submit them."""
    blank = form_class()
    data = {}
    for name, field in blank.fields.items():
        value = blank.get_initial_for_field(field, name)
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    return data


def _labelled(outcomes: dict[str, float], exact: dict[str, str] | None = None) -> list[tuple]:
    """(key, label, probability, exact chance) in the order of the outcome table."""
    order = list(OUTCOME_LABELS)
    exact = exact or {}
    return [
        (key, str(OUTCOME_LABELS[key]), outcomes[key], exact.get(key, outcomes[key]))
        for key in sorted(outcomes, key=order.index)
    ]


def _odds_rows(rows: dict[str, float], exact: dict[str, str] | None = None) -> list[tuple]:
    exact = exact or {}
    return [(key, str(ROW_LABELS[key]), p, exact.get(key, p)) for key, p in rows.items()]


def _calculate(request: HttpRequest, form: CalculatorForm, resolver: str) -> dict:
    """Odds for a valid form; on POST, the typed dice judged or a server roll recorded."""
    context: dict = {}
    inputs = form.inputs()
    try:
        system = form.SYSTEM
        context["odds"] = resolve(system=system, name=resolver, verb="odds", data=inputs)
        if request.method == "POST":
            if request.POST.get("action") == "roll":
                record = roll_on_server(
                    player=request.user, system=system, name=resolver, data=inputs
                )
                context["result"], context["record"] = record.outcome, record
            else:
                typed = form.typed_dice()
                if not typed and not form.errors:
                    form.add_error(
                        form.MISSING_DICE_FIELD,
                        _("Type the dice you rolled, or roll on the server."),
                    )
                elif not form.errors:
                    context["result"] = resolve(
                        system=system, name=resolver, verb="evaluate", data={**inputs, **typed}
                    )
    except Refusal as refusal:
        form.add_error(form.field_for(refusal.field), str(refusal.message))
    result = context.get("result")
    if result and result.get("pending"):
        pending = result["pending"]
        context["pending_label"] = form.DICE_LABELS.get(pending["field"], pending["field"])
    context["shown_dice"] = [
        form[name]
        for name in form.DICE_FIELDS
        if name in FIRST_DICE
        or name in form.BLANK_DICE
        or form.data.get(name)
        or (result and result.get("pending", {}).get("field") == name)
    ]
    return context


def _calculator_page(
    request: HttpRequest,
    form: CalculatorForm,
    *,
    odds_context: Callable[[dict], dict],
    partials: dict[str, str],
) -> HttpResponse:
    """A calculator page (`rules/calculators/kolaps_<resolver>.html`), or the partial that
    `partials` names for the element htmx targets. `odds_context(odds)` gives what the page
    shows of the odds."""
    resolver = form.RESOLVER
    combat = f"{resolver}-odds" in partials
    context: dict = {
        "form": form,
        "resolver": resolver,
        "odds_target": f"{resolver}-odds" if combat else None,
        "odds_template": f"{PAGES}/_{resolver}_odds.html" if combat else None,
    }
    if form.is_bound and form.is_valid():
        context.update(_calculate(request, form, resolver))
        odds = context.get("odds")
        if odds:
            context.update(odds_context(odds))
    else:
        context["shown_dice"] = [form[name] for name in form.BLANK_DICE]
    template = f"{PAGES}/kolaps_{resolver}.html"
    if request.htmx and request.htmx.target in partials:
        template = partials[request.htmx.target]
    return render(request, template, context)


def _calculator(
    form_class: type[CalculatorForm],
    odds_context: Callable[[dict], dict],
    partials: dict[str, str],
    doc: str,
) -> Callable[[HttpRequest], HttpResponse]:
    """The page of the calculator whose form is `form_class` (its `RESOLVER`)."""

    @require_http_methods(["GET", "POST"])
    def page(request: HttpRequest) -> HttpResponse:
        data = _form_data(request)
        if data is None:
            # A page just opened shows the odds of its starting values at once.
            opened = form_class(_initial_data(form_class))
            data = opened.data if opened.is_valid() else None
        return _calculator_page(
            request,
            form_class(data),
            odds_context=odds_context,
            partials=partials,
        )

    page.__name__ = page.__qualname__ = f"kolaps_{form_class.RESOLVER}"
    page.__doc__ = doc
    return page


def _combat_partials(resolver: str) -> dict[str, str]:
    return {
        f"{resolver}-panel": f"{PAGES}/_combat_panel.html",
        f"{resolver}-odds": f"{PAGES}/_odds.html",
    }


# --- The talent test (RULES-NOTES K4-K6) -----------------------------------------------------


def _test_odds_context(odds: dict) -> dict:
    return {"odds_rows": _labelled(odds["outcomes"], odds.get("outcomes_exact"))}


kolaps_test = _calculator(
    TestForm,
    _test_odds_context,
    {"test-panel": f"{PAGES}/_test_panel.html"},
    "GET: the odds of the test in the form. POST: judge typed dice, or roll on the server.",
)


# --- The ranged-combat calculator (RULES-NOTES K7-K11) -------------------------------------


def _ranged_odds_context(odds: dict) -> dict:
    return {
        "odds_rows": _odds_rows(odds.get("rows", {}), odds.get("rows_exact")),
        "modifier_rows": [(modifier_label(m["source"]), m["db"]) for m in odds["modifiers"]],
    }


kolaps_ranged = _calculator(
    RangedForm,
    _ranged_odds_context,
    _combat_partials("ranged"),
    "GET: the DB, dice and odds of a shot. POST: judge typed dice, or roll on the server.",
)


# --- The melee calculator (RULES-NOTES K10) --------------------------------------------------


def _melee_odds_context(odds: dict) -> dict:
    return {
        "sides": [
            {
                "name": side,
                "strikes_exact": odds.get("attacker_exact", odds["attacker"])[side],
                "dies_exact": odds.get("dies_exact", odds["dies"])[side],
                "dies": odds["dies"][side] * 100,
                "rows": _odds_rows(odds["rows"][side], odds.get("rows_exact", {}).get(side)),
            }
            for side in MeleeForm.SIDES
        ],
        "exchange_percent": odds["exchange"] * 100,
        "exchange": odds.get("exchange_exact", odds["exchange"]),
    }


kolaps_melee = _calculator(
    MeleeForm,
    _melee_odds_context,
    _combat_partials("melee"),
    "GET: who strikes, every row and each death. POST: judge typed dice, or roll.",
)


# --- Of the Dead: brawl, shot, throw (RULES-NOTES O2-O4) ------------------------------------

OF_THE_DEAD_FORMS: dict[str, type[CalculatorForm]] = {
    "brawl": BrawlForm,
    "shot": ShotForm,
    "throw": ThrowForm,
}
OF_THE_DEAD_CALCULATORS = {
    "brawl": _("Brawl"),
    "shot": _("Shot"),
    "throw": _("Explosive"),
}
BLOCKED_LABELS = {
    "attacker_panicked": _("A panicked figure cannot act in the action phase."),
    "attacker_stunned": _("A stunned figure cannot attack."),
    "attacker_burning": _("A burning figure cannot attack."),
    "defender_stealthy": _("A figure in stealth cannot be attacked."),
    "defender_hidden": _("A hidden figure cannot be attacked."),
    "shooter_surrounded": _("Surrounded by 4 or more, a figure cannot shoot."),
    "thrower_surrounded": _("Surrounded by 3 or more, a figure cannot throw."),
    "too_far": _("The throw reaches as many steps (3 cm) as the thrower's Physique."),
}


def _damage_rows(damage: dict[str, float]) -> list[tuple[str, str, float, float]]:
    rows = []
    for key, p in damage.items():
        label = _("No damage") if key == "0" else _("Damage: %(n)s") % {"n": key}
        rows.append((key, str(label), p, p))
    return rows


def _percent(rows: list[tuple[object, float]]) -> list[tuple[str, float, float]]:
    return [(str(label), p, p * 100) for label, p in rows]


def _of_the_dead_odds_context(odds: dict) -> dict:
    """What the page shows of an Of the Dead answer: why it cannot be made, or its rows."""
    context: dict = {"blocked": [BLOCKED_LABELS[reason] for reason in odds.get("blocked", [])]}
    if context["blocked"]:
        return context
    if "damage" in odds and isinstance(odds["damage"], dict):
        context["odds_rows"] = _damage_rows(odds["damage"])
        rows = [
            (_("At least 1 damage"), odds["hit"]),
            (_("Critical-damage card"), odds["critical_card"]),
        ]
        if "target_dies" in odds:
            rows.append((_("The target dies"), odds["target_dies"]))
        rows += [
            (_("Attacker's lucky break (team +1 Moral)"), odds["attacker"]["lucky_break"]),
            (_("Attacker's backfire (team -1 Moral)"), odds["attacker"]["backfire"]),
            (_("Defender's lucky break (team +1 Moral)"), odds["defender"]["lucky_break"]),
            (_("Defender's backfire (team -1 Moral)"), odds["defender"]["backfire"]),
        ]
    else:
        scatter = odds["scatter"]
        rows = [
            (_("Lands where aimed"), odds["on_target"]),
            (_("Scatters 1D6 steps over 180°"), scatter["180"]),
            (_("Critical failure: scatters 1D6 steps over 360°"), scatter["360"]),
            (_("Lucky break (team +1 Moral)"), odds["lucky_break"]),
            (_("Backfire (team -1 Moral)"), odds["backfire"]),
        ]
    context["summary_rows"] = _percent(rows)
    return context


@require_http_methods(["GET", "POST"])
def of_the_dead_calculator(request: HttpRequest, resolver: str) -> HttpResponse:
    """GET: the dice and odds of an Of the Dead brawl, shot or throw. POST: judge typed dice,
    or roll on the server, recorded."""
    form_class = OF_THE_DEAD_FORMS.get(resolver)
    if form_class is None:
        raise Http404
    form = form_class(_form_data(request))
    context: dict = {
        "form": form,
        "resolver": resolver,
        "calculators": OF_THE_DEAD_CALCULATORS,
        "odds_target": f"{resolver}-odds",
        "odds_template": f"{PAGES}/_of_the_dead_odds.html",
    }
    if form.is_bound and form.is_valid():
        context.update(_calculate(request, form, resolver))
        if context.get("odds"):
            context.update(_of_the_dead_odds_context(context["odds"]))
    else:
        context["shown_dice"] = [form[name] for name in form.BLANK_DICE]
    partials = {
        f"{resolver}-panel": f"{PAGES}/_of_the_dead_panel.html",
        f"{resolver}-odds": f"{PAGES}/_odds.html",
    }
    template = f"{PAGES}/of_the_dead.html"
    if request.htmx and request.htmx.target in partials:
        template = partials[request.htmx.target]
    return render(request, template, context)

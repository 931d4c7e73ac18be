"""The calculators of Corporates and the modern RPG (phone first): a page per system listing
its resolvers, and a page per resolver whose form comes from the resolver's input schema.
GET shows the odds of what the form describes; POST judges the dice typed in, or rolls on
the server and records the roll. The API twin is `POST /api/v1/rules/<system>/<resolver>/<verb>`:
both go through `rules.rolls.services`."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from characters.permissions import Refusal
from rules.dice_calculators.cards import (
    SYSTEM_NAMES,
    TITLES,
    facts,
    label,
    odds_tables,
    page_slug,
    resolver_name,
)
from rules.dice_calculators.forms import ChaseRoundForm, ResolverForm, TurnFormSet
from rules.dice_calculators.services import InForce, settings_in_force
from rules.engine.registry import Resolver, resolver_get, resolvers_of
from rules.rolls.services import resolve, roll_on_server

PAGES = "rules/dice_calculators"


def _calculators(system: str) -> list[tuple[str, str]]:
    """(page slug, title) of the system's resolvers that have a calculator page (the turn
    schedule has its own)."""
    return [
        (page_slug(r.name), str(TITLES[(system, r.name)]))
        for r in resolvers_of(system)
        if (system, r.name) in TITLES
    ]


def _resolver_or_404(system: str, name: str) -> Resolver:
    resolver = resolver_get(system, name)
    if system not in SYSTEM_NAMES or resolver is None or (system, name) not in TITLES:
        raise Http404
    return resolver


def settings_shown(request: HttpRequest, system: str) -> tuple[InForce, dict]:
    """The settings in force (`?campaign=<id>`: that campaign's) and what a page shows of
    them. A malformed id or a campaign of another system is a 404 here, as a page address
    that leads nowhere."""
    try:
        in_force = settings_in_force(
            user=request.user, system=system, campaign_id=request.GET.get("campaign")
        )
    except Refusal:
        raise Http404 from None
    query = f"?campaign={in_force.campaign.pk}" if in_force.campaign else ""
    return in_force, {
        "in_force": in_force,
        "settings_lines": in_force.lines(system),
        "campaign_query": query,
    }


def verdict(name: str, result: dict) -> list[str]:
    """What a player reads first: hit or miss, success or failure, and the worst news."""
    words = []
    if "success" in result:
        if name == "shot":
            words.append(label("hit" if result["success"] else "miss"))
        else:
            words.append(label("success" if result["success"] else "failure"))
    if "hit" in result:
        words.append(label("hit" if result["hit"] else "miss"))
    for key in ("critical_failure", "hits_cover", "bystander_hit", "out_of_action", "dead"):
        if result.get(key):
            words.append(label(key))
    return words


def _run(request: HttpRequest, form: ResolverForm, system: str, name: str, settings: dict) -> dict:
    context: dict = {}
    inputs = form.inputs()
    if settings:
        inputs["settings"] = settings
    try:
        odds = resolve(system=system, name=name, verb="odds", data=inputs)
        context["tables"] = odds_tables(system, name, odds)
        context["odds_facts"] = facts(odds)
        if request.method == "POST":
            if request.POST.get("action") == "roll":
                record = roll_on_server(player=request.user, system=system, name=name, data=inputs)
                context["result"], context["record"] = record.outcome, record
            else:
                typed = form.typed_dice()
                if not typed:
                    form.add_error(None, _("Type the dice you rolled, or roll on the server."))
                else:
                    context["result"] = resolve(
                        system=system, name=name, verb="evaluate", data={**inputs, **typed}
                    )
    except Refusal as refusal:
        form.add_error(form.field_for(refusal.field), str(refusal.message))
    result = context.get("result")
    if result is not None:
        context["result_facts"] = facts(result)
        context["result_key"] = label(result["key"]) if "key" in result else None
        context["result_event"] = label(result["event"]) if "event" in result else None
        context["verdict"] = verdict(name, result)
    return context


@require_http_methods(["GET", "POST"])
def resolver_calculator(request: HttpRequest, system: str, resolver: str) -> HttpResponse:
    """GET: the odds of the form. POST: judge typed dice, or roll on the server. With
    `?campaign=<id>` (a campaign the user can see, of this system) the resolver takes that
    campaign's stored rules settings, and the page says which are in force.

    The address names the resolver in kebab-case (`covering-fire`); the older
    `covering_fire` answers a permanent redirect there, its query kept, so bookmarks work."""
    if "_" in resolver:
        _resolver_or_404(system, resolver)
        target = reverse("dice-calculator", args=[system, page_slug(resolver)])
        query = request.META.get("QUERY_STRING")
        return redirect(f"{target}?{query}" if query else target, permanent=True)
    slug, resolver = resolver, resolver_name(resolver)
    found = _resolver_or_404(system, resolver)
    in_force, shown = settings_shown(request, system)
    if request.method == "POST":
        data = request.POST
    else:
        params = request.GET.copy()
        params.pop("campaign", None)
        data = params or None
    form = ResolverForm(found, data)
    context = {
        **shown,
        "page_url": reverse("dice-calculator", args=[system, slug]) + shown["campaign_query"],
        "form": form,
        "system": system,
        "system_name": SYSTEM_NAMES[system],
        "resolver": resolver,
        "slug": slug,
        "title": TITLES[(system, resolver)],
        "calculators": _calculators(system),
        "dice_fields": [form[name] for name in form.dice_names],
        "input_fields": [field for field in form if field.name not in form.dice_names],
    }
    if form.is_bound and form.is_valid():
        context.update(_run(request, form, system, resolver, in_force.settings))
    template = f"{PAGES}/calculator.html"
    if request.htmx and request.htmx.target == "calculator-panel":
        template += "#calculator-panel"
    return render(request, template, context)


@require_GET
def corporates_turn(request: HttpRequest) -> HttpResponse:
    """The Corporates turn tracker: who acts in which segment, with what malus dice
    (Répartition des actions dans le tour, Le mode Survie). Its API twin is
    `POST /api/v1/rules/corporates/schedule/odds`."""
    formset = TurnFormSet(request.GET or None)
    context: dict = {"formset": formset}
    if formset.is_bound and formset.is_valid():
        characters = [c for form in formset if (c := form.character())]
        if characters:
            try:
                plan = resolve(
                    system="corporates",
                    name="schedule",
                    verb="odds",
                    data={"characters": characters},
                )
            except Refusal as refusal:
                context["refusal"] = refusal.message
            else:
                context["plan"] = plan
                context["segments"] = range(1, 6)
    template = f"{PAGES}/turn.html"
    if request.htmx and request.htmx.target == "turn-plan":
        template += "#turn-plan"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def modern_chase(request: HttpRequest) -> HttpResponse:
    """The organiser's chase tracker (Courses poursuites): each round adds the pursued's
    successes to the objective points, moves the lead by the successes' difference and draws
    an event on the server (recorded); the chase ends when the lead falls to 0 or the
    objective is reached. The state travels in the form: nothing is stored but the rolls.
    `?campaign=<id>`: the campaign's rules settings (the 1D of the events)."""
    form = ChaseRoundForm(request.POST or None)
    in_force, shown = settings_shown(request, "modern-rpg")
    context: dict = {"form": form, **shown}
    if request.method == "POST" and form.is_valid():
        state = form.cleaned_data
        inputs = {
            "settings": in_force.settings,
            "terrain": state["terrain"],
            "lead": state["lead"],
            "risk": state["risk"],
            "round": state["round"],
            "pursued_successes": state["pursued_successes"],
            "pursuer_successes": state["pursuer_successes"],
        }
        try:
            record = roll_on_server(
                player=request.user, system="modern-rpg", name="chase", data=inputs
            )
        except Refusal as refusal:
            form.add_error(None, str(refusal.message))
        else:
            outcome = record.outcome
            points = state["points"] + state["pursued_successes"]
            context.update(
                outcome=outcome,
                event=label(outcome["event"]),
                strikes=label(outcome["strikes"]) if outcome["strikes"] else None,
                risk_effects=[label(key) for key in outcome.get("risk_effects", [])],
                record=record,
                escaped=points >= state["objective"] and not outcome["caught"],
                form=ChaseRoundForm(
                    initial={
                        **state,
                        "points": points,
                        "lead": outcome["lead"],
                        "round": state["round"] + 1,
                        "pursued_successes": 0,
                        "pursuer_successes": 0,
                    }
                ),
                points=points,
            )
    template = f"{PAGES}/chase.html"
    if request.htmx and request.htmx.target == "chase-panel":
        template += "#chase-panel"
    return render(request, template, context)

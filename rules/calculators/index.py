"""The page of a game system's index, `/rules/<system>/`: its calculators, catalogue and
table, from the card its API twin (`SystemIndexAPI`) serialises."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rules.calculators.cards import system_index_card
from rules.dice_calculators.views import settings_shown
from rules.engine.systems import system_get


@require_GET
def system_index(request: HttpRequest, system: str) -> HttpResponse:
    """The index of one system (`?campaign=<id>`, for Corporates and the modern RPG: its
    calculators with that campaign's rules settings)."""
    card = system_index_card(system)
    if card is None:
        raise Http404
    reads_settings = system_get(system).index.reads_campaign_settings
    shown = settings_shown(request, system)[1] if reads_settings else {}
    context = {"card": card, "system": system, "campaign_query": "", **shown}
    return render(request, "rules/calculators/system_index.html", context)

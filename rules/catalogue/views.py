"""The catalogue of a game system, for anyone: one card, one template."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rules.catalogue.cards import catalogue_card


@require_GET
def catalogue(request: HttpRequest, system: str) -> HttpResponse:
    card = catalogue_card(system, request.GET.get("q", ""))
    template = "rules/catalogue/catalogue.html"
    if request.htmx and request.htmx.target == "catalogue-entries":
        template += "#catalogue-entries"
    return render(request, template, {"card": card})

"""Campaign pages."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.cards import campaign_card, campaign_list_for


@login_required
@require_GET
def campaign_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "campaigns/campaign_list.html", {"campaigns": campaign_list_for(request.user)}
    )


@login_required
@require_GET
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    card = campaign_card(request.user, pk)
    template = "campaigns/campaign_detail.html"
    if request.htmx and request.htmx.target == "campaign-history":
        template += "#campaign-history"
    return render(request, template, {"campaign": card})

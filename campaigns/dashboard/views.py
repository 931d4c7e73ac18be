"""The signed-in player's home: one card, one template."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.dashboard.cards import dashboard_card


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request, "campaigns/dashboard/dashboard.html", {"card": dashboard_card(request.user)}
    )

"""Pages of the campaign export: the download (organisers) and the import form."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.selectors import campaign_get_for_user
from campaigns.transfer import services
from campaigns.transfer.forms import CampaignImportForm
from characters.permissions import Refusal


@login_required
@require_GET
def campaign_export(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk, need="manage")
    response = HttpResponse(
        services.campaign_export_text(actor=request.user, campaign=campaign),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def campaign_import(request: HttpRequest) -> HttpResponse:
    form = CampaignImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_import(actor=request.user, text=form.content())
        except Refusal as refusal:
            form.add_error(None, str(refusal.message))
        else:
            return redirect("campaign-detail", pk=campaign.pk)
    return render(
        request,
        "campaigns/transfer/import.html",
        {"form": form, "max_kb": -(-services.max_bytes() // 1024)},
    )

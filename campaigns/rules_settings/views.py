"""The page of a campaign's rules settings: members read them, organisers change them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.permissions import CAN_MANAGE, campaign_role
from campaigns.rules_settings.forms import RulesSettingsForm
from campaigns.rules_settings.services import (
    campaign_rules_settings,
    campaign_rules_settings_set,
)
from campaigns.selectors import campaign_get_for_user
from characters.permissions import Refusal


@login_required
@require_http_methods(["GET", "POST"])
def campaign_rules_settings_page(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk)
    can_manage = bool(campaign_role(request.user, campaign) & CAN_MANAGE)
    if request.method == "POST":
        form = RulesSettingsForm(campaign.system, request.POST)
        if form.is_valid():
            try:
                campaign_rules_settings_set(
                    actor=request.user, campaign=campaign, settings=form.chosen()
                )
            except Refusal as refusal:
                form.add_error(None, str(refusal.message))
            else:
                messages.success(request, _("The rules settings are saved."))
                return redirect("campaign-rules-settings", campaign.pk)
    else:
        form = RulesSettingsForm(
            campaign.system,
            initial=RulesSettingsForm.initial_for(campaign_rules_settings(campaign)),
        )
    return render(
        request,
        "campaigns/rules_settings.html",
        {"campaign": campaign, "form": form, "can_manage": can_manage},
    )

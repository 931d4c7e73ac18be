"""Campaign pages: the list, one campaign, create and edit it, invitations, joining and
leaving, co-organisers.

Short views: fetch and authorise, call one service, render. A `Refusal` escaping a view
becomes the refusal page (config.middleware).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services
from campaigns.cards import campaign_card, campaign_list_for
from campaigns.forms import CampaignForm, CoOrganiserForm
from campaigns.selectors import campaign_get_for_user, invitation_get_for_user
from characters.kept import fragment_key
from rules.engine.systems import system_get


@login_required
@require_GET
def campaign_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "campaigns/campaign_list.html", {"campaigns": campaign_list_for(request.user)}
    )


@login_required
@require_GET
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    card = campaign_card(request.user, campaign_get_for_user(request.user, pk))
    template = "campaigns/campaign_detail.html"
    if request.htmx and request.htmx.target == "campaign-history":
        template += "#campaign-history"
    # Its longest lists, kept as rendered under keys naming all they show (they hold no
    # form, no token, nothing of the request's own).
    kept = {
        "seconds": settings.CAMPAIGN_FRAGMENT_CACHE_SECONDS,
        "chapters": fragment_key(card.chapters),
        "history": fragment_key(card.history),
    }
    # Its system's calculators read a campaign's rules settings (`GameSystem.index`).
    settings_calculators = system_get(card.summary.system).index.reads_campaign_settings
    return render(
        request,
        template,
        {"campaign": card, "kept": kept, "settings_calculators": settings_calculators},
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    # A GET may name the system (and what was typed) to redraw the form for it.
    form = CampaignForm(request.POST or None, initial=request.GET.dict())
    if request.method == "POST" and form.is_valid():
        campaign = form.save(request.user)
        if campaign is not None:
            messages.success(request, _("The campaign is created. Invite its players."))
            return redirect("campaign-detail", campaign.pk)
    return render(request, "campaigns/campaign_form.html", {"form": form, "campaign": None})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk, need="manage")
    if request.method == "POST":
        form = CampaignForm(request.POST, campaign=campaign)
        if form.is_valid() and form.save(request.user) is not None:
            messages.success(request, _("The campaign is saved."))
            return redirect("campaign-detail", campaign.pk)
    else:
        form = CampaignForm(
            campaign=campaign,
            initial={name: getattr(campaign, name) for name in services.CAMPAIGN_EDITABLE},
        )
    return render(request, "campaigns/campaign_form.html", {"form": form, "campaign": campaign})


def _invitations_fragment(request, campaign) -> HttpResponse:
    return render(
        request,
        "campaigns/campaign_detail.html#campaign-invitations",
        {"campaign": campaign_card(request.user, campaign)},
    )


@login_required
@require_POST
def invitation_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk, need="manage")
    services.invitation_create(actor=request.user, campaign=campaign)
    if request.htmx:
        return _invitations_fragment(request, campaign)
    return redirect("campaign-detail", pk)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, pk: int, invitation: int) -> HttpResponse:
    invitation = invitation_get_for_user(request.user, pk, invitation)
    services.invitation_revoke(actor=request.user, invitation=invitation)
    if request.htmx:
        return _invitations_fragment(request, invitation.campaign)
    messages.success(request, _("The link no longer works."))
    return redirect("campaign-detail", pk)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_join(request: HttpRequest, token: str) -> HttpResponse:
    invitation = services.invitation_for_token(token)
    if request.method == "POST":
        services.campaign_join(player=request.user, token=token)
        messages.success(request, _("Welcome to the campaign."))
        return redirect("campaign-detail", invitation.campaign_id)
    return render(request, "campaigns/campaign_join.html", {"invitation": invitation})


@login_required
@require_POST
def campaign_leave(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk)
    services.campaign_leave(player=request.user, campaign=campaign)
    messages.success(request, _("You left the campaign."))
    return redirect("campaign-list")


@login_required
@require_POST
def campaign_co_organisers(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_user(request.user, pk, need="manage")
    form = CoOrganiserForm(request.POST)
    remove = request.POST.get("action") == "remove"
    if form.is_valid() and form.save(request.user, campaign, remove=remove) is not None:
        messages.success(request, _("Co-organisers are saved."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    return redirect("campaign-detail", pk)

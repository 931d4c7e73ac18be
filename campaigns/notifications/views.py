"""The notifications page (opt in or out) and the unsubscribe link of every mail, which
works without logging in: GET shows what it will do, POST does it (a mail scanner that
opens links changes nothing)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.notifications import services
from campaigns.selectors import vote_get_for_user
from characters.permissions import Refusal


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    refusal = None
    if request.method == "POST":
        enabled = request.POST.get("enabled") == "on"
        try:
            services.notifications_set(
                player=request.user, enabled=enabled, language=get_language()
            )
        except Refusal as exc:
            refusal = exc.message
        else:
            messages.success(
                request,
                _("E-mail notifications are on.")
                if enabled
                else _("E-mail notifications are off."),
            )
            return redirect("notifications")
    subscription = services.subscription_for(request.user)
    return render(
        request,
        "campaigns/notifications/notifications.html",
        {
            "subscription": subscription,
            "refusal": refusal,
            "history": services.notification_history(request.user),
        },
    )


@require_http_methods(["GET", "POST"])
def notifications_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    subscription = services.subscription_for_token(token)
    done = False
    if request.method == "POST":
        subscription = services.notifications_unsubscribe(token=token)
        done = True
    return render(
        request,
        "campaigns/notifications/unsubscribe.html",
        {"subscription": subscription, "done": done, "token": token},
    )


@login_required
@require_POST
def vote_remind(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser tells the players who have not voted that the vote closes soon."""
    vote = vote_get_for_user(request.user, pk)
    services.vote_remind(actor=request.user, vote=vote)
    messages.success(request, _("The players who have not voted are told the vote closes soon."))
    return redirect("vote-detail", pk)

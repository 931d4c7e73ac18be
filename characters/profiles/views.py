"""Of the Dead profile pages: short views, one service call each."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.permissions import Refusal
from characters.profiles import services as profiles
from characters.profiles.cards import my_profile_card, public_profile_card
from characters.profiles.forms import ProfileForm, TraumaForm
from characters.profiles.selectors import profile_get_for_user, profile_of, trauma_get_for_user


def _profile_page(request, form=None, trauma_form=None, status=200):
    card = my_profile_card(request.user)
    profile = profile_of(request.user) if card else None
    if form is None:
        form = ProfileForm(
            initial=ProfileForm.initial_for(profile) if profile else None, profile=profile
        )
    context = {"card": card, "form": form, "trauma_form": trauma_form or TraumaForm()}
    return render(request, "characters/profiles/profile.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile_mine(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _profile_page(request)
    profile = profile_of(request.user)
    form = ProfileForm(request.POST, profile=profile)
    if form.is_valid() and form.save(request.user) is not None:
        messages.success(request, _("Your profile is saved."))
        return redirect("profile-mine")
    return _profile_page(request, form=form)


@login_required
@require_POST
def profile_trauma_add(request: HttpRequest) -> HttpResponse:
    profile = profile_of(request.user)
    if profile is None:
        messages.error(request, _("Create your profile first."))
        return redirect("profile-mine")
    form = TraumaForm(request.POST)
    saved = form.is_valid() and form.save(request.user, profile) is not None
    if request.htmx:
        card = my_profile_card(request.user)
        return render(
            request,
            "characters/profiles/profile.html#profile-traumas",
            {"card": card, "trauma_form": TraumaForm() if saved else form},
        )
    if saved:
        messages.success(request, _("The trauma is noted."))
        return redirect("profile-mine")
    return _profile_page(request, trauma_form=form)


@login_required
@require_POST
def profile_trauma_heal(request: HttpRequest, trauma: int) -> HttpResponse:
    """The player heals one of their temporary traumas by hand (the settlement heals them
    on a victory, RULES-NOTES O6)."""
    trauma = trauma_get_for_user(request.user, trauma)
    error = ""
    try:
        profiles.trauma_heal(actor=request.user, trauma=trauma)
    except Refusal as refusal:
        error = str(refusal.message)
    if request.htmx:
        return render(
            request,
            "characters/profiles/profile.html#profile-traumas",
            {"card": my_profile_card(request.user), "trauma_form": TraumaForm(), "error": error},
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("The trauma is healed."))
    return redirect("profile-mine")


@require_GET
def profile_public(request: HttpRequest, username: str) -> HttpResponse:
    return render(
        request,
        "characters/profiles/profile_public.html",
        {"card": public_profile_card(request.user, profile_get_for_user(request.user, username))},
    )

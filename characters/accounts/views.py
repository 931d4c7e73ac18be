"""Account pages: short views, one service call each."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from characters.accounts import services
from characters.accounts.forms import AccountForm, LoginForm, PasswordChangeForm, SignupForm
from characters.accounts.selectors import account_get_for_user
from characters.accounts.throttles import LOGIN_THROTTLED, login_attempt_refused


def _next_page(request: HttpRequest) -> str:
    """Where the visitor was going before they signed up (an invitation link, say): a path
    of this site only, else the home page."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


class LoginView(auth_views.LoginView):
    """Django's login page, with the attempts of one address bounded (throttles.py)."""

    authentication_form = LoginForm
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        if login_attempt_refused(request):
            messages.error(request, LOGIN_THROTTLED)
            context = self.get_context_data(form=self.get_form_class()(request))
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_page = _next_page(request)
    if request.user.is_authenticated:
        return redirect(next_page or settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        player = form.save()
        if player is not None:
            login(request, player, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome to Chronique, %(name)s!") % {"name": player})
            return redirect(next_page or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": next_page})


def _account_context(player, form: AccountForm | None = None) -> dict:
    from rest_framework.authtoken.models import Token

    return {
        "player": player,
        "form": form
        or AccountForm(initial={"email": player.email, "display_name": player.display_name}),
        "token": Token.objects.filter(user=player).first(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    player = account_get_for_user(request.user)
    form = None
    if request.method == "POST":
        form = AccountForm(request.POST)
        if form.is_valid() and form.save(player) is not None:
            messages.success(request, _("Your account is saved."))
            return redirect("account")
    return render(request, "characters/accounts/account.html", _account_context(player, form))


@login_required
@require_POST
def account_token(request: HttpRequest) -> HttpResponse:
    player = account_get_for_user(request.user)
    if request.POST.get("action") == "revoke":
        services.player_token_revoke(player=player)
    else:
        services.player_token(player=player, rotate=True)
    if request.htmx:
        return render(
            request, "characters/accounts/account.html#api-token", _account_context(player)
        )
    return redirect("account")


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        player = form.save(account_get_for_user(request.user))
        if player is not None:
            update_session_auth_hash(request, player)
            messages.success(request, _("Your password is changed."))
            return redirect("account")
    return render(request, "registration/password_change_form.html", {"form": form})

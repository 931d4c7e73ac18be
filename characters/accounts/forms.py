"""Forms parse input; the services decide. A service refusal lands on its field."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.utils.translation import gettext_lazy as _

from characters.accounts import services
from characters.permissions import Refusal


class ServiceForm(forms.Form):
    """A form whose `run` calls one service and shows its refusal on the field."""

    def run(self, operation, **kwargs):
        try:
            return operation(**kwargs)
        except Refusal as refusal:
            field = refusal.field if refusal.field in self.fields else None
            self.add_error(field, str(refusal.message))
            return None


def password_field(label, autocomplete: str) -> forms.CharField:
    """A password input, never stripped, with the browser's autocomplete hint."""
    return forms.CharField(
        label=label,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
    )


class PasswordPairMixin:
    """Both password fields must match before any service is asked."""

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data


class SignupForm(PasswordPairMixin, ServiceForm):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
        help_text=_("Letters, digits and @/./+/-/_ only."),
    )
    email = forms.EmailField(
        label=_("E-mail address"), widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    display_name = forms.CharField(label=_("Display name"), max_length=80, required=False)
    password = password_field(_("Password"), "new-password")
    password_again = password_field(_("Password again"), "new-password")

    def save(self):
        data = self.cleaned_data
        return self.run(
            services.player_signup,
            username=data["username"],
            email=data["email"],
            password=data["password"],
            display_name=data["display_name"],
        )


class AccountForm(ServiceForm):
    email = forms.EmailField(
        label=_("E-mail address"), widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=80,
        required=False,
        help_text=_("Shown to the other players; your username when empty."),
    )

    def save(self, player):
        return self.run(services.player_update, player=player, **self.cleaned_data)


class PasswordChangeForm(PasswordPairMixin, ServiceForm):
    old_password = password_field(_("Current password"), "current-password")
    password = password_field(_("New password"), "new-password")
    password_again = password_field(_("New password again"), "new-password")

    def save(self, player):
        return self.run(
            services.player_change_password,
            player=player,
            old_password=self.cleaned_data["old_password"],
            new_password=self.cleaned_data["password"],
        )


class ResetSetPasswordForm(SetPasswordForm):
    """Django's reset form, saving through the service layer."""

    def save(self, commit=True):
        services.player_set_password(player=self.user, password=self.cleaned_data["new_password1"])
        return self.user


class LoginForm(AuthenticationForm):
    username = forms.CharField(
        label=_("Username"),
        widget=forms.TextInput(
            attrs={"autofocus": True, "autocomplete": "username", "autocapitalize": "none"}
        ),
    )

"""Forms of the campaign pages: create and edit a campaign, name its co-organisers."""

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _

from campaigns import services
from characters.accounts.forms import ServiceForm
from characters.models import Player
from rules.engine.systems import system_get, uses_profiles

# The systems whose campaigns are made of chapters, named as the systems' registry names them.
# One name per system, translated where it has one ("Modern RPG": "JdR moderne").
SYSTEM_CHOICES = [(slug, _(system_get(slug).name)) for slug in services.CAMPAIGN_SYSTEMS]


def text_field(label, rows=3):
    return forms.CharField(label=label, required=False, widget=forms.Textarea(attrs={"rows": rows}))


class CampaignForm(ServiceForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    system = forms.ChoiceField(label=_("Game system"), choices=SYSTEM_CHOICES)
    description = text_field(_("Description"))
    chapters_planned = forms.IntegerField(
        label=_("Number of chapters"),
        required=False,
        min_value=1,
        max_value=99,
        help_text=_("Leave empty for as many chapters as players."),
    )
    survival_points_survive = forms.IntegerField(
        label=_("Survival points for surviving a chapter"),
        min_value=0,
        max_value=10,
        initial=1,
        help_text=_("Of the Dead campaigns only."),
    )
    survival_points_victory = forms.IntegerField(
        label=_("Extra survival points for a victory"),
        min_value=0,
        max_value=10,
        initial=1,
        help_text=_("Of the Dead campaigns only."),
    )

    # Of the Dead's survival points: asked only of a system whose players bring their
    # profile (`GameSystem.uses_profiles`).
    PROFILE_FIELDS = ("survival_points_survive", "survival_points_victory")

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        if campaign is not None:
            del self.fields["system"]
            system = campaign.system
        else:
            system = (self.data or self.initial).get("system") or SYSTEM_CHOICES[0][0]
            # Choosing a system redraws the form with its own questions (htmx; without
            # JavaScript the survival points say whom they concern).
            self.fields["system"].widget.attrs.update(
                {
                    "hx-get": reverse_lazy("campaign-create"),
                    "hx-trigger": "change",
                    "hx-include": "closest form",
                    "hx-select": "#campaign-form",
                    "hx-target": "#campaign-form",
                    "hx-swap": "outerHTML",
                }
            )
        if not uses_profiles(system):
            for name in self.PROFILE_FIELDS:
                del self.fields[name]

    def save(self, actor):
        if self.campaign is None:
            return self.run(services.campaign_create, organiser=actor, **self.cleaned_data)
        return self.run(
            services.campaign_update, actor=actor, campaign=self.campaign, **self.cleaned_data
        )


class CoOrganiserForm(ServiceForm):
    username = forms.CharField(label=_("Username"), max_length=150)

    def save(self, actor, campaign, remove=False):
        player = Player.objects.filter(username__iexact=self.cleaned_data["username"]).first()
        if player is None:
            self.add_error("username", _("Nobody has this username."))
            return None
        operation = services.co_organiser_remove if remove else services.co_organiser_add
        result = self.run(operation, actor=actor, campaign=campaign, player=player)
        return True if remove and not self.errors else result

"""Forms of the profile pages: they parse, `characters.profiles.services` decides."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.accounts.forms import ServiceForm
from characters.models import TraumaKind, TraumaPermanence
from characters.profiles import services as profiles


def _attribute(label):
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=9,
        # Counted live by static/js/chronique.js into the form's #attribute-points.
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-points": "attributes"}),
    )


def _lines(label, help_text):
    return forms.CharField(
        label=label,
        required=False,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class ProfileForm(ServiceForm):
    physique = _attribute("Physique")
    psychique = _attribute("Psychique")
    reflexes = _attribute("Réflexes")
    combat = _attribute("Combat")
    portrait_url = forms.URLField(
        label=_("Portrait (image address)"), required=False, assume_scheme="https"
    )
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 4})
    )
    equipment = _lines(_("Equipment carried"), _("One item per line."))
    cards = _lines(_("Cards carried"), _("One card per line."))

    def __init__(self, *args, profile=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.profile = profile
        if profile is not None:
            for name, label in (
                ("is_public", _("Public profile: other players can look it up")),
                ("show_attributes", _("Show my attributes")),
                ("show_description", _("Show my portrait and description")),
                ("show_traumas", _("Show my traumas")),
                ("show_equipment", _("Show my equipment and cards")),
                ("show_statistics", _("Show my statistics and reputation")),
                ("show_campaigns", _("Show the campaigns I played")),
            ):
                self.fields[name] = forms.BooleanField(label=label, required=False)
            self.fields["version"] = forms.IntegerField(widget=forms.HiddenInput)

    @classmethod
    def initial_for(cls, profile) -> dict:
        data = {name: getattr(profile, name) for name in profiles.VISIBILITY_FIELDS}
        data.update(
            physique=profile.physique,
            psychique=profile.psychique,
            reflexes=profile.reflexes,
            combat=profile.combat,
            portrait_url=profile.portrait_url,
            description=profile.description,
            equipment="\n".join(profile.equipment),
            cards="\n".join(profile.cards),
            version=profile.version,
        )
        return data

    def save(self, player):
        data = dict(self.cleaned_data)
        if self.profile is None:
            return self.run(profiles.profile_create, actor=player, player=player, **data)
        version = data.pop("version")
        return self.run(
            profiles.profile_update, actor=player, profile=self.profile, version=version, **data
        )


class TraumaForm(ServiceForm):
    name = forms.CharField(label=_("Trauma"), max_length=120)
    kind = forms.ChoiceField(label=_("Kind"), choices=TraumaKind.choices)
    permanence = forms.ChoiceField(label=_("Permanence"), choices=TraumaPermanence.choices)
    effect_attribute = forms.ChoiceField(
        label=_("Attribute it changes"),
        required=False,
        choices=[("", _("none")), *profiles.ATTRIBUTE_LABELS.items()],
    )
    effect_change = forms.IntegerField(
        label=_("Change"), required=False, min_value=-9, max_value=9, initial=-1
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def clean(self):
        data = super().clean()
        if data.get("effect_attribute") and not data.get("effect_change"):
            self.add_error("effect_change", _("Say by how much (for example -1)."))
        return data

    def save(self, player, profile):
        data = self.cleaned_data
        effect = None
        if data.get("effect_attribute"):
            effect = {data["effect_attribute"]: data["effect_change"]}
        return self.run(
            profiles.trauma_add,
            actor=player,
            profile=profile,
            name=data["name"],
            kind=data["kind"],
            permanence=data["permanence"],
            effect=effect,
            notes=data["notes"],
        )

"""Forms of the KOLAPS pages: they parse input (a bad number is a field error, never a
500); the services decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.files import FileOrTextForm
from characters.kolaps import services, text
from characters.kolaps.unit_file import MAX_BYTES


def archetype_choices():
    cat = services.catalogue()
    grouped = []
    for affiliation in cat.affiliations.values():
        archetypes = cat.archetypes_of(affiliation.slug)
        if archetypes:
            grouped.append((affiliation.label, [(a.slug, a.label) for a in archetypes]))
    return grouped


def archetype_options():
    """For the builder's list: by affiliation, each archetype with the ranks it allows
    (space-separated, for the rank list to offer only those)."""
    cat = services.catalogue()
    grouped = []
    for affiliation in cat.affiliations.values():
        archetypes = cat.archetypes_of(affiliation.slug)
        if archetypes:
            options = [(a.slug, a.label, " ".join(a.ranks)) for a in archetypes]
            grouped.append((affiliation.label, options))
    return grouped


def rank_choices():
    cat = services.catalogue()
    return [(slug, text.rank_label(cat, slug)) for slug in cat.ranks]


class UnitCreateForm(forms.Form):
    name = forms.CharField(label=_("Unit name"), max_length=80)


class CharacterCreateForm(forms.Form):
    name = forms.CharField(label=_("Character name"), max_length=80)
    archetype = forms.ChoiceField(label=_("Archetype"), choices=archetype_choices)
    rank = forms.ChoiceField(label=_("Rank"), choices=rank_choices)
    unit = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)


class CharacterChangeForm(forms.Form):
    op = forms.ChoiceField(choices=[(op, op) for op in (*services.CHARACTER_OPS, "duplicate")])
    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    talent = forms.CharField(required=False, max_length=60)
    group = forms.IntegerField(required=False, min_value=1, max_value=20)
    item = forms.CharField(required=False, max_length=60)
    sante = forms.IntegerField(label=_("Santé"), required=False, min_value=1, max_value=6)
    souffle = forms.IntegerField(label=_("Souffle"), required=False, min_value=1, max_value=6)
    moral = forms.IntegerField(label=_("Moral"), required=False, min_value=1, max_value=6)
    name = forms.CharField(label=_("Name"), required=False, max_length=80)
    rank = forms.CharField(label=_("Rank"), required=False, max_length=20)

    def fields_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("op")
        data.pop("version")
        return data


class UnitChangeForm(forms.Form):
    """`op` and `character`, or `act` = "op:character id" (one button per character in one
    form, so the list of 30 carries one CSRF token, not 30)."""

    op = forms.ChoiceField(
        choices=[(op, op) for op in (*services.UNIT_OPS, "duplicate")], required=False
    )
    act = forms.RegexField(regex=r"^(avatar|remove):[1-9][0-9]{0,9}$", required=False)
    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    character = forms.IntegerField(label=_("Character"), required=False, min_value=1)
    name = forms.CharField(label=_("Name"), required=False, max_length=80)

    def clean(self):
        data = super().clean()
        if data.get("act"):
            op, character = data["act"].split(":")
            data["op"], data["character"] = op, int(character)
        if not data.get("op"):
            raise forms.ValidationError(_("Choose what to do."))
        return data


class UndoForm(forms.Form):
    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class CompareForm(forms.Form):
    opponent_vu = forms.IntegerField(label=_("Opponent's VU"), min_value=0, max_value=100000)


class ImportForm(FileOrTextForm):
    def max_bytes(self) -> int:
        return MAX_BYTES

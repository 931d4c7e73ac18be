"""The import form: a file, or its text pasted."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.transfer.services import max_bytes


class CampaignImportForm(forms.Form):
    file = forms.FileField(label=_("Campaign export (JSON file)"), required=False)
    text = forms.CharField(
        label=_("…or paste its text"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )

    def clean(self):
        data = super().clean()
        if not data.get("file") and not data.get("text"):
            raise forms.ValidationError(_("Choose a file or paste its text."))
        return data

    def content(self) -> bytes | str:
        """The file's bytes (one more than the limit at most: the service says it is too
        large), or the pasted text."""
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read(max_bytes() + 1)
        return self.cleaned_data["text"]

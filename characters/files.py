"""A JSON document to import, as a file or its text pasted: the one form every importer shows."""

from django import forms
from django.utils.translation import gettext_lazy as _


class FileOrTextForm(forms.Form):
    """A file, or its text pasted; `content()` reads one byte more than `max_bytes()` at
    most, so that the importer's service says the file is too large."""

    file = forms.FileField(label=_("JSON file"), required=False)
    text = forms.CharField(
        label=_("…or paste its text"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )

    def max_bytes(self) -> int:
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if not data.get("file") and not data.get("text"):
            raise forms.ValidationError(_("Choose a file or paste its text."))
        return data

    def content(self) -> bytes | str:
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read(self.max_bytes() + 1)
        return self.cleaned_data["text"]

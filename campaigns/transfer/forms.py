"""The import form: a file, or its text pasted."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.transfer.services import max_bytes
from characters.files import FileOrTextForm


class CampaignImportForm(FileOrTextForm):
    file = forms.FileField(label=_("Campaign export (JSON file)"), required=False)

    def max_bytes(self) -> int:
        return max_bytes()

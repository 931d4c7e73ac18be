"""Choices a form declares once, when its module is imported, read in the language of the
page that shows them: the chase tracker's terrain and risk read "à pied", "sur la route",
"à fond" on English pages, and the Corporates table's range bands "courte", "moyenne"."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from rules.table.forms import TableActionForm
from tests.factories import PlayerFactory

WORDS = {
    "en": ["on foot", "on the road", "flat out"],
    "fr": ["à pied", "sur la route", "à fond"],
}
BANDS = {"en": ["short", "medium", "long", "extreme"], "fr": ["courte", "moyenne", "longue"]}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_chase_tracker_offers_terrain_and_risk_in_the_pages_language(client, language):
    client.force_login(PlayerFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("modern-chase")).content.decode()
    options = re.findall(r"<option [^>]*>([^<]*)</option>", html)
    assert [word for word in WORDS[language] if word not in options] == []
    other = WORDS["fr" if language == "en" else "en"]
    assert [word for word in other if word in options] == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_corporates_table_offers_range_bands_in_the_readers_language(language):
    with translation.override(language):
        shown = [str(label) for _band, label in TableActionForm.base_fields["shot_range"].choices]
    assert [band for band in BANDS[language] if band not in shown] == []

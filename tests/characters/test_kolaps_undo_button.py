"""The KOLAPS history and its undo button agree: after the last undoable change is taken
back, the page offers no undo it would refuse ("Il n'y a plus rien à annuler" under a
button, with "a créé Agente Nadia" listed just above)."""

import pytest
from django.conf import settings
from django.urls import reverse

from characters.kolaps import undo as kolaps_undo
from characters.permissions import Refusal
from tests.factories import PlayerFactory
from tests.table_fixtures import police_unit

pytestmark = pytest.mark.django_db


def test_the_undo_button_goes_when_only_creations_are_left(client):
    owner = PlayerFactory()
    unit = police_unit(owner, "Brigade", members=("Nadia",))
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("kolaps-unit-history", args=[unit.pk])
    assert 'data-testid="undo"' in client.get(url).content.decode()  # the Avatar can go
    unit.refresh_from_db()
    kolaps_undo.unit_undo(actor=owner, unit=unit, version=unit.version)
    html = client.get(url).content.decode()
    assert "Nadia" in html  # her creation is still listed...
    assert 'data-testid="undo"' not in html  # ...and no button offers to undo it
    assert 'id="nothing-to-undo"' in html
    unit.refresh_from_db()
    with pytest.raises(Refusal, match="a creation is not undone"):
        kolaps_undo.unit_undo(actor=owner, unit=unit, version=unit.version)

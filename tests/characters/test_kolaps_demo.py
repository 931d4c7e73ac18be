"""The demo shows KOLAPS units: alice's valid one, bruno's draft with problems; twice is once."""

import pytest
from django.core.management import call_command
from django.utils import translation

from characters.kolaps.cards import unit_card
from characters.kolaps.models import KolapsChange, KolapsUnit
from config.demo.kolaps_units import DEMO_KOLAPS_DRAFT, DEMO_KOLAPS_VALID

pytestmark = pytest.mark.django_db


def test_it_loads_a_valid_and_a_draft_unit_idempotently():
    call_command("demo_load", verbosity=0)
    changes = KolapsChange.objects.count()
    call_command("demo_load", verbosity=0)
    assert KolapsChange.objects.count() == changes
    # alice also has a unit of the settled chapter's demo (config/demo/system_settlements.py).
    valid = KolapsUnit.objects.get(owner__username="alice", name=DEMO_KOLAPS_VALID)
    # bruno also has the valid pack of the live encounter's demo (config/demo/table.py).
    draft = KolapsUnit.objects.get(owner__username="bruno", name=DEMO_KOLAPS_DRAFT)
    # Expert 4 + Vétéran 3 (+1 PU: Tir instinctif 3) + Aguerri 2 + Novice 1
    assert (valid.status, valid.vu) == ("valid", 4 + 3 + 1 + 2 + 1)
    with translation.override("en"):
        problems = " ".join(unit_card(draft).problems)
    assert draft.status == "draft"
    assert "over the budget of 7 PP" in problems
    assert "Saut 1 requires Marche 2" in problems
    assert "no Avatar" in problems
    assert "named “Nosfer”" in problems

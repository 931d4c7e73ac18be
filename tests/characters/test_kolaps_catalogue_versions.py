"""Catalogues side by side: a unit is costed with the catalogue version it was built with,
also after a newer catalogue ships; a new unit takes the newest."""

import json
import shutil

import pytest

from characters.kolaps import services
from characters.kolaps.cards import unit_card
from rules.engine.systems.kolaps import catalogue as catalogue_module
from rules.engine.systems.kolaps import talent_test
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

NEWER = "2099.1.1"


@pytest.fixture
def newer_catalogue_ships(tmp_path, monkeypatch):
    """A catalogue newer than every shipped one, in which a Vétéran costs 5 PU (not 3)."""

    def ship():
        for path in catalogue_module.CATALOGUES_DIR.glob("*.json"):
            shutil.copy(path, tmp_path / path.name)
        data = json.loads(catalogue_module.catalogue_path().read_text(encoding="utf-8"))
        data["version"] = NEWER
        next(rank for rank in data["ranks"] if rank["slug"] == "veteran")["pu"] = 5
        (tmp_path / f"{NEWER}.json").write_text(json.dumps(data), encoding="utf-8")
        monkeypatch.setattr(catalogue_module, "CATALOGUES_DIR", tmp_path)
        talent_test.test_numbers.cache_clear()

    yield ship
    talent_test.test_numbers.cache_clear()


def test_it_costs_a_unit_with_its_own_catalogue_after_a_newer_one_ships(newer_catalogue_ships):
    owner = PlayerFactory(username="alice")
    old_unit = services.unit_create(owner=owner, name="Section 4")
    services.character_create(
        owner=owner, name="Dupont", archetype="agent-de-police", rank="veteran", unit=old_unit
    )
    old_unit.refresh_from_db()
    built_with, vu_before = old_unit.catalogue_version, old_unit.vu

    newer_catalogue_ships()
    assert services.catalogue().version == NEWER

    services.character_create(
        owner=owner, name="Martin", archetype="agent-de-police", rank="veteran", unit=old_unit
    )
    old_unit.refresh_from_db()
    assert old_unit.catalogue_version == built_with
    assert old_unit.vu == 2 * vu_before  # both Vétérans at 3 PU, as the old catalogue says
    assert unit_card(old_unit).vu == old_unit.vu

    new_unit = services.unit_create(owner=owner, name="Section 5")
    services.character_create(
        owner=owner, name="Durand", archetype="agent-de-police", rank="veteran", unit=new_unit
    )
    new_unit.refresh_from_db()
    assert new_unit.catalogue_version == NEWER
    assert new_unit.vu == vu_before + 2  # the same Vétéran at 5 PU

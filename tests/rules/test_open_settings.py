"""Every open setting of Corporates and the modern RPG is listed with its default and the
passage it interprets, in the catalogue and in docs/rules.md (reading C1)."""

from pathlib import Path

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.open_settings import check_settings, settings_of

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@pytest.mark.parametrize("system", ["corporates", "modern-rpg"])
def test_every_setting_has_a_default_among_its_choices_a_passage_and_a_doc_row(system):
    docs = DOCS.read_text(encoding="utf-8")
    settings = settings_of(system)
    assert settings
    for key, setting in settings.items():
        assert setting["default"] in setting["choices"]
        assert setting["ref"] and setting["reading"]
        assert f"| `{key}` |" in docs, f"{key} is missing from docs/rules.md"


def test_missing_settings_take_their_defaults_and_form_values_are_read():
    values = check_settings(
        "corporates", {"tie_succeeds": "False", "damage_points_per_level": "10"}
    )
    assert values["tie_succeeds"] is False
    assert values["damage_points_per_level"] == 10
    assert values["immobile_defence"] == 10
    with pytest.raises(RuleInputError):
        check_settings("corporates", {"no_such_setting": 1})
    assert settings_of("rapid-40000") == {}

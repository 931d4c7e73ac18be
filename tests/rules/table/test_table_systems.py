"""The table's seam: every system it plays has its adapter, and the chapter page knows it."""

from campaigns.chapters.cards import TABLE_SYSTEMS
from rules.engine.systems import system_choices
from rules.table.systems import ADAPTERS, adapter_for, all_kinds

VERBS = ("chapter_combatants", "check_action", "resolver_input", "apply_outcome", "advance")
ATTRIBUTES = ("SYSTEM", "KINDS", "KIND_LABELS", "MANAGER_KINDS", "PHASES", "FIRST_PHASE")


def test_the_chapter_page_offers_the_table_for_the_systems_it_plays():
    assert set(TABLE_SYSTEMS) == set(ADAPTERS)
    assert set(ADAPTERS) <= {slug for slug, _name in system_choices()}


def test_every_adapter_has_the_seams_verbs_and_names():
    for slug, adapter in ADAPTERS.items():
        assert adapter_for(slug) is adapter and slug == adapter.SYSTEM
        for name in (*VERBS, "summary", "action_text", *ATTRIBUTES, "STATE_FIELDS"):
            assert hasattr(adapter, name), (slug, name)
        assert set(adapter.KIND_LABELS) == set(adapter.KINDS)
        assert set(adapter.KINDS) <= set(all_kinds())

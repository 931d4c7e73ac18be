"""The table's seam: every system it plays has its adapter, a `TableAdapter` that answers
every hook the services, cards, forms, views and API ask of it, and the chapter page knows
it."""

import inspect

from rules.engine.registry import resolver_get
from rules.engine.systems import SYSTEMS, system_choices
from rules.table.adapter import TableAdapter
from rules.table.systems import ADAPTERS, adapter_for, all_kinds

# The names an adapter must set itself (no default in `TableAdapter`).
REQUIRED = (
    "SYSTEM",
    "KINDS",
    "KIND_LABELS",
    "FORM_FIELDS",
    "HAND_DICE",
    "PHASES",
    "FIRST_PHASE",
    "STATE_FIELDS",
)


def _hooks() -> list[str]:
    """Every hook `TableAdapter` declares: its methods and its settings in capitals."""
    methods = [n for n, _v in inspect.getmembers(TableAdapter, inspect.isfunction)]
    settings = [n for n in TableAdapter.__annotations__ if n.isupper()]
    return [n for n in (*methods, *settings) if not n.startswith("_")]


def test_the_chapter_page_offers_the_table_for_the_systems_it_plays():
    assert {s.slug for s in SYSTEMS if s.plays_at_table} == set(ADAPTERS)
    assert set(ADAPTERS) <= {slug for slug, _name in system_choices()}


def test_every_adapter_is_a_table_adapter_answering_every_hook():
    assert {"chapter_combatants", "card_fields", "order", "stray_step", "DIE_MAX"} <= set(_hooks())
    for slug, adapter in ADAPTERS.items():
        assert isinstance(adapter, TableAdapter), slug
        assert adapter_for(slug) is adapter and slug == adapter.SYSTEM
        # An abstract verb left out: the adapter could not have been made.
        assert not getattr(type(adapter), "__abstractmethods__", ()), slug
        for name in REQUIRED:
            # Only annotated in `TableAdapter`: set by the adapter or its shape, or missing.
            assert name not in vars(TableAdapter) and getattr(adapter, name), (slug, name)
        for name in _hooks():
            assert getattr(adapter, name) is not None, (slug, name)
        assert set(adapter.KIND_LABELS) == set(adapter.KINDS)
        assert set(adapter.KINDS) <= set(all_kinds())
        assert adapter.FIRST_PHASE in adapter.PHASES
        assert set(adapter.MANAGER_KINDS) <= set(adapter.KINDS)
        assert set(adapter.OPTION_FIELDS) <= set(adapter.FORM_FIELDS)


def test_the_rapid40k_adapter_resolves_through_the_engines_resolvers():
    for name in ("shooting", "overwatch", "melee", "morale", "disengage", "vehicle"):
        assert resolver_get("rapid40k", name) is not None, name

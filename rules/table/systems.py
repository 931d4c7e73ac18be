"""The live table's per-system seam: which game system an encounter plays, and its adapter.

Every system the table plays is one `rules.table.adapter.TableAdapter` (what the services,
cards, forms, views and API ask of a system, each hook with its default), registered below
by its slug. A new system at the table is one module subclassing it and one line in
`ADAPTERS` (and `plays_at_table=True` in its `rules.engine.systems.GameSystem`, which shows
the chapter's table button: that layer may not import this one).
"""

from django.utils.translation import gettext as _

from characters.permissions import Refusal
from rules.table import corporates, modern, of_the_dead, rapid40k
from rules.table.adapter import TableAdapter
from rules.table.kolaps import adapter as kolaps

ADAPTERS: dict[str, TableAdapter] = {
    adapter.SYSTEM: adapter
    for adapter in (
        kolaps.ADAPTER,
        of_the_dead.ADAPTER,
        corporates.ADAPTER,
        modern.ADAPTER,
        rapid40k.ADAPTER,
    )
}


def plays(system: str) -> bool:
    """Whether the live table plays this system."""
    return system in ADAPTERS


def adapter_for(system: str) -> TableAdapter:
    adapter = ADAPTERS.get(system)
    if adapter is None:
        raise Refusal(_("The live table does not play this game system."), field="system")
    return adapter


def all_kinds() -> list[str]:
    """Every action kind of every system, for the API's schema."""
    return list(dict.fromkeys(kind for adapter in ADAPTERS.values() for kind in adapter.KINDS))

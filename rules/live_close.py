"""The live table's account of a chapter's encounter still being played, for the chapter's
close (`campaigns.chapters.cards.close_card`). The campaigns app sits below the table and
may not import it: the site names this reader in `settings.LIVE_TABLE_READER`."""

from rules.table.models import Encounter
from rules.table.services import encounter_summary


def live_table_record(encounter_id: int) -> dict:
    """What the encounter's end would tell its chapter, as it stands now: two queries (the
    encounter, its combatants); nothing for an encounter that is gone."""
    encounter = Encounter.objects.filter(pk=encounter_id).first()
    return encounter_summary(encounter) if encounter is not None else {}

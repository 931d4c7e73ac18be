"""The only writer of the live encounter, by what it does: `create` opens encounters (and
adds Of the Dead's zombies and characters), `play` acts, undoes, gives and reveals
directives, moves the phases on, ends the game and keeps its spectator link, and `lock` is
what every write shares (the lock through `Encounter.objects.visible_to`, the version, the
log). The views, the API and the demo import the operations from here."""

from rules.table.services.create import (
    QUICK_SYSTEMS,
    NewCombatants,
    encounter_add_combatants,
    encounter_create_armies,
    encounter_create_for_chapter,
    encounter_create_pickup,
    encounter_create_quick,
    encounter_create_quick_party,
    encounter_create_standalone,
)
from rules.table.services.lock import Stale
from rules.table.services.play import (
    ActionInput,
    encounter_act,
    encounter_act_by_id,
    encounter_advance,
    encounter_choose_stray,
    encounter_end,
    encounter_odds,
    encounter_reveal,
    encounter_revoke_spectator_link,
    encounter_rotate_spectator_link,
    encounter_set_directive,
    encounter_summary,
    encounter_undo,
    encounter_undo_by_id,
)

__all__ = [
    "QUICK_SYSTEMS",
    "ActionInput",
    "NewCombatants",
    "Stale",
    "encounter_act",
    "encounter_act_by_id",
    "encounter_add_combatants",
    "encounter_advance",
    "encounter_choose_stray",
    "encounter_create_armies",
    "encounter_create_for_chapter",
    "encounter_create_pickup",
    "encounter_create_quick",
    "encounter_create_quick_party",
    "encounter_create_standalone",
    "encounter_end",
    "encounter_odds",
    "encounter_reveal",
    "encounter_revoke_spectator_link",
    "encounter_rotate_spectator_link",
    "encounter_set_directive",
    "encounter_summary",
    "encounter_undo",
    "encounter_undo_by_id",
]

"""The live table's per-system seam: which game system an encounter plays, and its adapter.

The services (`rules.table.services`) are the same for every system: the lock, the version,
the log, the dice (rolled by the server and recorded, or typed in by hand), undo, the end.
What a system decides is its adapter's, a module registered here by its system slug:

- `SYSTEM`: the slug; `KINDS` and `KIND_LABELS`: its actions; `MANAGER_KINDS`: the ones only
  an organiser applies, without an actor; `FORM_FIELDS` and `HAND_DICE`: the action form's
  fields it shows and the dice typed in by hand (the form's other fields are left out), and
  `OPTION_FIELDS` (optional): the form fields handed to it as the action's `options`;
  `PHASES` and `FIRST_PHASE`: its turn; `STATE_FIELDS`: the combatant fields its actions
  change (a snapshot keeps them, undo puts them back).
- `chapter_combatants(chapter)`: the sides, the unsaved combatants and the catalogue version
  of a chapter's encounter (a `Refusal` when the chapter cannot have one).
- `check_action(encounter, actor, target, action)`: a `Refusal` for an action it refuses.
- `resolver_input(encounter, actor, target, action)`: the engine resolver's name and input,
  whose `odds` the page shows and whose `roll`/`evaluate` resolves the action; a name of
  None: an action without dice, whose input is its outcome.
- `apply_outcome(encounter, action, outcome, actor, target, everyone=...)`: the
  consequences on the live state (`everyone`: all the encounter's combatants, locked, the
  actor and target among them; the service saves those that changed and keeps their state
  before for an undo). Returns the names of the effects applied.
- `advance(encounter, combatants)`: the next phase and its automation (the end of turn);
  answers the log line's kind and data.
- `summary(encounter, combatants)`: what happened, for the chapter's close.
- `action_text(data, actor, target)`: an action's line in the log.
- optional: `FORM_INITIAL` (the action form's first values on this system's page),
  `COMBATANT_TEMPLATE` (how the page draws a combatant; KOLAPS's by default),
  `side_label(side)` (a side's name as the page shows it), `order(combatants, phase, turn)`
  (who plays in the phase, in order: `[{"id", "name", "initiative", "tied"}]`, with
  `played` and `now` when the order is enforced), `check_turn(encounter, combatants,
  actor, action)` (a `Refusal` for a figure acting out of its turn; the service skips it
  when an organiser sets the action's `out_of_turn` option).

An adapter changes the encounter and combatants it is given and never saves them: the
service does, under its lock. A new system at the table is one module and one line below.
"""

from types import ModuleType

from django.utils.translation import gettext as _

from characters.permissions import Refusal
from rules.table import corporates, kolaps, modern, of_the_dead

ADAPTERS: dict[str, ModuleType] = {
    kolaps.SYSTEM: kolaps,
    of_the_dead.SYSTEM: of_the_dead,
    corporates.SYSTEM: corporates,
    modern.SYSTEM: modern,
}


def plays(system: str) -> bool:
    """Whether the live table plays this system."""
    return system in ADAPTERS


def adapter_for(system: str) -> ModuleType:
    adapter = ADAPTERS.get(system)
    if adapter is None:
        raise Refusal(_("The live table does not play this game system."), field="system")
    return adapter


def all_kinds() -> list[str]:
    """Every action kind of every system, for the API's schema."""
    return list(dict.fromkeys(kind for adapter in ADAPTERS.values() for kind in adapter.KINDS))

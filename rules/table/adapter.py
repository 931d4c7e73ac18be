"""What the live table asks of a game system: `TableAdapter`, every hook with its default.

The services (`rules.table.services`) are the same for every system: the lock, the version,
the log, the dice (rolled by the server and recorded, or typed in by hand), undo, the end.
What a system decides is its adapter's: one subclass of `TableAdapter` per system, its
instance registered in `rules.table.systems.ADAPTERS` by its slug. The services, cards,
forms, views and API read an adapter only through the names below, never by probing it
(`tests/rules/table/test_table_systems.py` checks every registered adapter against this
class). It lives apart from `systems.py` because the adapters subclass it and `systems.py`
imports the adapters: one module would be an import cycle.

An adapter changes the encounter and combatants it is given and never saves them: the
service does, under its lock. A snapshot tells what changed, so an adapter gives a field a
new value, never changes a dict or list in place.
"""

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from characters.permissions import Refusal


class TableAdapter(ABC):
    """A system at the table. The names in capitals without a default are required (the
    test checks each registered adapter sets them); the abstract methods too."""

    # --- Required ----------------------------------------------------------------------------
    # The system's slug (`rules.engine.systems`).
    SYSTEM: ClassVar[str]
    # Its actions, and their names in the action form.
    KINDS: ClassVar[Sequence[str]]
    KIND_LABELS: ClassVar[Mapping[str, Any]]
    # The action form's fields it shows (the form's other fields are left out), and the
    # dice typed in by hand, by the resolvers' field names.
    FORM_FIELDS: ClassVar[Sequence[str]]
    HAND_DICE: ClassVar[Sequence[str]]
    # Its turn: the phases, the first one.
    PHASES: ClassVar[Sequence[str]]
    FIRST_PHASE: ClassVar[str]
    # The combatant fields its actions change (a snapshot keeps them, undo puts them back).
    STATE_FIELDS: ClassVar[Sequence[str]]

    # --- With a default ----------------------------------------------------------------------
    # The actions only an organiser applies, without an actor (a wound applied directly).
    MANAGER_KINDS: ClassVar[Sequence[str]] = ()
    # The action form's fields handed to the adapter as the action's `options`.
    OPTION_FIELDS: ClassVar[Sequence[str]] = ()
    # The action form's labels this system words its own way (a field name: its label).
    FIELD_LABELS: ClassVar[Mapping[str, Any]] = {}
    # The largest face typed by hand.
    DIE_MAX: ClassVar[int] = 6
    # How the page draws a combatant: its own lines (`state_lines`) by default.
    COMBATANT_TEMPLATE: ClassVar[str] = "rules/table/systems/lines_combatant.html"
    # The organiser's next-phase button, by the phase it leaves ("Next phase" otherwise).
    ADVANCE_LABELS: ClassVar[Mapping[str, Any]] = {}
    # An attacking side that K15 hands over at the end of a turn (KOLAPS).
    HAS_ATTACKER: ClassVar[bool] = False
    # The organiser adds combatants during the game (Of the Dead's zombies).
    ADDS_COMBATANTS: ClassVar[bool] = False
    # The system keeps an order of play the organiser may let a figure step out of
    # (`check_turn` and the action's `out_of_turn` option).
    KEEPS_TURN: ClassVar[bool] = False
    # The kind of the action a stray shot's choice makes (KOLAPS), "" where there is none.
    STRAY_CHOICE: ClassVar[str] = ""
    # The action form's first values on this system's page (Of the Dead: no distance, the
    # declared move whole).
    FORM_INITIAL: ClassVar[Mapping[str, Any]] = {}
    # Fighters drawn from the system's character sheets (`sheet_state`): Corporates.
    DRAWS_FROM_SHEETS: ClassVar[bool] = False
    # A pick-up game's fighters are the players' army lists (Rapid 40000), not KOLAPS units.
    PICKUP_ARMIES: ClassVar[bool] = False
    # The odds also say the roll's numbers (dice, bonus, difficulty): Corporates, whose
    # pick-up fighters act with numbers that may make the roll certain.
    ODDS_NUMBERS: ClassVar[bool] = False

    # --- Required verbs ----------------------------------------------------------------------
    @abstractmethod
    def chapter_combatants(self, chapter) -> tuple[list[str], list, str]:
        """The sides, the unsaved combatants and the catalogue version of a chapter's
        encounter (a `Refusal` when the chapter cannot have one)."""

    @abstractmethod
    def check_action(self, encounter, actor, target, action) -> None:
        """A `Refusal` for an action the system refuses."""

    @abstractmethod
    def resolver_input(self, encounter, actor, target, action) -> tuple[str | None, dict]:
        """The engine resolver's name and input, whose `odds` the page shows and whose
        `roll`/`evaluate` resolves the action; a name of None: an action without dice, whose
        input is its outcome."""

    @abstractmethod
    def apply_outcome(self, encounter, action, outcome: dict, actor, target, everyone=()):
        """The consequences on the live state (`everyone`: all the encounter's combatants,
        locked, the actor and target among them; the service saves those that changed and
        keeps their state before for an undo). Returns the names of the effects applied."""

    @abstractmethod
    def advance(self, encounter, combatants: list) -> tuple[str, dict[str, Any]]:
        """The next phase and its automation (the end of turn): the log line's kind and
        data."""

    @abstractmethod
    def summary(self, encounter, combatants: list) -> dict[str, Any]:
        """What happened, for the chapter's close."""

    @abstractmethod
    def action_text(self, data: dict, actor: str, target: str) -> str:
        """An action's line in the log."""

    # --- Verbs with a default ----------------------------------------------------------------
    def fighter_state(self, **numbers: Any) -> dict[str, Any]:
        """A pick-up fighter's live state at the system's usual numbers."""
        return dict(numbers)

    def sheet_state(self, sheet) -> dict[str, Any]:
        """A fighter drawn from a character sheet of the system (Corporates): its state."""
        raise NotImplementedError(f"{self.SYSTEM} draws no fighter from a sheet")

    def side_label(self, side: str) -> str:
        """A side's name as the page shows it."""
        return side

    def card_fields(self, combatant, *, sees: bool) -> dict[str, Any]:
        """The system's own part of a combatant's card (`cards.CombatantCard`): by default
        what `state_lines` shows of its live state. `sees`: the viewer may see what the
        other side may not (KOLAPS's directives)."""
        return {"state_lines": tuple(self.state_lines(combatant.state or {}))}

    def state_lines(self, state: dict[str, Any]) -> list[tuple[str, str]]:
        """(label, value) of a combatant's live state, in the viewer's language."""
        return []

    def odds_rows(self, odds: dict[str, Any]) -> list[tuple[str, str]]:
        """(label, exact fraction) of each outcome the page's odds table lists besides the
        rows it reads itself (a damage table, the target's death): none by default."""
        return []

    def order(self, combatants, phase: str, turn: int = 0) -> list[dict[str, Any]]:
        """Who plays in the phase, in order: `[{"id", "name", "initiative", "tied"}]`, with
        `played` and `now` when the order is enforced; none where the system keeps none."""
        return []

    def check_turn(self, encounter, combatants, actor, action) -> None:
        """A `Refusal` for a figure acting out of its turn (`KEEPS_TURN`); the service skips
        it when an organiser sets the action's `out_of_turn` option."""
        return None

    def refuse_blocked(self, odds: dict[str, Any]) -> None:
        """A `Refusal` when the odds say the rules forbid the action (before the dice)."""
        return None

    def refuse_while_pending(self, everyone) -> None:
        """A `Refusal` while a step waits before anything else may happen (KOLAPS's stray
        shot on the target's side)."""
        return None

    def refuse_end(self, encounter, combatants) -> None:
        """A `Refusal` when the encounter may not end yet."""
        return None

    def pending_stray(self, everyone) -> tuple[Any, dict[str, Any]] | None:
        """The figure whose player chooses a stray shot's victim, and the shot, if any."""
        return None

    def stray_choice(self, everyone, ally: int | None) -> tuple[int, int]:
        """The chooser and the figure hit by the stray shot waiting (KOLAPS)."""
        raise Refusal(_("There is no stray shot to choose for."))

    def stray_step(self, encounter, everyone) -> dict[str, Any] | None:
        """What the page shows of the stray shot waiting for its choice, if any."""
        return None


def hand_suffix(data: dict) -> str:
    """A log line's mark for dice typed in by hand (every system's lines end with it)."""
    return " · " + _("dice rolled by hand") if data.get("by_hand") else ""

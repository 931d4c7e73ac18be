"""The shape shared by the systems whose fighters are numbers in `Combatant.state`
(Corporates, the modern RPG, Rapid 40000): their live state, the campaign's rules settings
handed to every resolver, a chapter's encounter (the players' fighters, `player_fighters`,
against the opponents the organiser plays), the checks every attack makes, and the summary
the chapter's close reads. Each system's adapter subclasses `FightersTable` and says only
what is its own.
"""

from typing import Any, ClassVar

from django.db import models
from django.utils.translation import gettext as _

from campaigns.rules_settings.services import campaign_rules_settings
from characters.permissions import Refusal
from rules.dice_calculators.cards import label
from rules.table.adapter import TableAdapter
from rules.table.models import Combatant


class FightersTable(TableAdapter):
    STATE_FIELDS = ("state", "dead", "unconscious", "wounds", "kills")
    # A pick-up fighter's numbers (`fighter_state`).
    DEFAULT_STATE: ClassVar[dict[str, Any]] = {}
    # How many opponents the organiser plays in a chapter's encounter.
    OPPONENTS: ClassVar[int] = 2
    # Whether a fighter out of action counts as lost in the summary (Corporates: 6 wound
    # levels put it out of the fight), and which of its numbers the summary keeps.
    OUT_OF_ACTION_IS_LOST: ClassVar[bool] = False
    SUMMARY_NUMBERS: ClassVar[str] = ""
    # The chapter's entry of a character sheet (`campaigns.chapters.entries.SHEET_KINDS`).
    ENTRY: ClassVar[type[models.Model]]

    def chapter_combatants(self, chapter) -> tuple[list[str], list[Combatant], str]:
        """A chapter's encounter: the players' fighters on one side, the opponents the
        organiser plays on the other, at the system's catalogue."""
        ours, theirs = self.sides()
        combatants = self.player_fighters(chapter, ours) + self.opponents(theirs)
        return [ours, theirs], combatants, self.catalogue_version()

    def player_fighters(self, chapter, side: str) -> list[Combatant]:
        """The players' fighters of a chapter's encounter: one per character sheet entered
        into the chapter (`ENTRY`), at its levels as they were when the chapter started
        (`entry.frozen["sheet"]`), played by its player (a `Refusal` when none is entered).
        One query."""
        entries = list(
            self.ENTRY.objects.filter(chapter=chapter)
            .select_related("character", "player")
            .order_by("entered_at", "pk")
        )
        if not entries:
            raise Refusal(_("An encounter needs the characters entered into the chapter."))
        return [
            Combatant(
                side=side,
                name=(entry.frozen or {}).get("name", entry.character.name),
                player=entry.player,
                state=self.entry_state(entry.character, (entry.frozen or {}).get("sheet") or {}),
            )
            for entry in entries
        ]

    def entry_state(self, sheet, frozen: dict[str, Any]) -> dict[str, Any]:
        """A fighter drawn from a sheet entered into the chapter: the sheet's numbers, the
        frozen ones where the start froze them; `sheet` names it for the close."""
        raise NotImplementedError(f"{self.SYSTEM} says what its sheets bring")

    def catalogue_version(self) -> str:
        """The version of the system's catalogue a chapter's encounter plays."""
        raise NotImplementedError(f"{self.SYSTEM} names its catalogue")

    def fighter_state(self, **numbers: Any) -> dict[str, Any]:
        return {**self.DEFAULT_STATE, **numbers}

    @staticmethod
    def settings(encounter) -> dict[str, Any]:
        """The campaign's rules settings of a chapter's encounter (none for a pick-up game)."""
        if encounter.chapter_id is None:
            return {}
        return campaign_rules_settings(encounter.chapter.campaign)

    def opponents(self, side: str) -> list[Combatant]:
        """The opposing side of a chapter's encounter, which the organiser plays."""
        return [
            Combatant(side=side, name=_("Opponent %(n)s") % {"n": n}, state=self.fighter_state())
            for n in range(1, self.OPPONENTS + 1)
        ]

    @staticmethod
    def sides() -> tuple[str, str]:
        return str(_("The players")), str(_("The opposition"))

    @staticmethod
    def require_other_living(actor, target) -> None:
        """An attack's target: another combatant, not dead."""
        if actor is not None and actor.pk == target.pk:
            raise Refusal(_("A combatant does not attack itself."), field="target")
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="target")

    @staticmethod
    def amount(action, lo: int, hi: int, default: int | None = None) -> int:
        """The action's typed number (`amount`), from `lo` to `hi`."""
        amount = action.options.get("amount")
        if amount is None and default is not None:
            return default
        if not isinstance(amount, int) or not lo <= amount <= hi:
            raise Refusal(
                _("A number from %(lo)s to %(hi)s.") % {"lo": lo, "hi": hi}, field="amount"
            )
        return amount

    def odds_rows(self, odds: dict[str, Any]) -> list[tuple[str, str]]:
        """Every outcome of the resolver, in the calculators' words."""
        return [(label(key), p) for key, p in (odds.get("outcomes_exact") or {}).items()]

    def summary_numbers(self, state: dict[str, Any]) -> Any:
        """What the summary keeps of a fighter's live numbers (`SUMMARY_NUMBERS`)."""
        return None

    def sheet_levels(self, state: dict[str, Any]) -> dict[str, int]:
        """A sheet's fighter's levels at the end, under the names the chapter's close asks
        them (`rules.engine.systems.<system>.campaign`)."""
        return {}

    def summary(self, encounter, combatants: list) -> dict[str, Any]:
        """Per side: who was lost, who was wounded, each fighter's numbers, the kills; per
        character sheet a fighter was drawn from (its id), the levels it ended with, which
        the chapter's close starts from."""
        sides: dict[str, dict[str, Any]] = {}
        sheets: dict[str, dict[str, int]] = {}
        for c in combatants:
            row = sides.setdefault(
                c.side, {"lost": [], "wounded": [], self.SUMMARY_NUMBERS: {}, "kills": 0}
            )
            if c.dead or (self.OUT_OF_ACTION_IS_LOST and c.unconscious):
                row["lost"].append(c.name)
            elif c.wounds:
                row["wounded"].append(c.name)
            row[self.SUMMARY_NUMBERS][c.name] = self.summary_numbers(c.state or {})
            row["kills"] += c.kills
            if (c.state or {}).get("sheet"):
                sheets[str(c.state["sheet"])] = self.sheet_levels(c.state)
        return {
            "encounter": encounter.pk,
            "ended": True,
            "turns": encounter.turn,
            "sides": sides,
            "sheets": sheets,
        }

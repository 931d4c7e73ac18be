"""Corporates at the table: the table's adapter for the system (`rules.table.systems`).

A turn of five segments (Répartition des actions dans le tour): in the declaration phase
each combatant declares 1 to 5 actions (an action without dice); the organiser moves on and
`schedule.turn_plan` places each combatant's actions in the segments with their malus dice;
then segment by segment, a combatant acts in the segments the plan gives it: a melee blow
(`melee`: attack against the defence score, the declared actions' malus) and its damage
(`damage`: damage dice against the target's soak, "il perd 1 niveau de dommages par niveau
de marge", split into fatigue and wound levels by weapon type), applied to the target. The
organiser may apply wound levels directly. Each combatant's numbers and levels live in
`Combatant.state`; the campaign's rules settings (a chapter's encounter) go to every
resolver.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import ChapterCorporatesEntry
from characters.corporates.services import corporates_fighter_numbers
from characters.permissions import Refusal
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.corporates.schedule import turn_plan
from rules.table.adapter import hand_suffix
from rules.table.checks import require_kind_and_actor
from rules.table.fighters import FightersTable
from rules.table.models import Combatant, EntryKind, Phase

# The range bands of a shot (Les tirs: base difficulty 5 / 15 / 20 / 25).
RANGE_BANDS = tuple(load_catalogue().shot["range_base"])
SEGMENT_PHASES = (
    Phase.SEGMENT_1,
    Phase.SEGMENT_2,
    Phase.SEGMENT_3,
    Phase.SEGMENT_4,
    Phase.SEGMENT_5,
)
# Wound levels that put a combatant out of the fight (the text's "mort" row of the critical
# wounds table comes from a critical roll; the table counts levels, the organiser decides).
OUT_OF_ACTION_LEVELS = 6


# A sheet's numbers under the names the table's state already gave them.
SHEET_TO_STATE = {"combat_pool": "pool", "combat_bonus": "attack_bonus"}


def _segment(phase: str) -> int | None:
    return SEGMENT_PHASES.index(phase) + 1 if phase in SEGMENT_PHASES else None


def melee_input(actor, target, settings: dict[str, Any]) -> dict[str, Any]:
    mine, theirs = actor.state, target.state
    return {
        "pool": mine["pool"],
        "bonus": mine["attack_bonus"],
        "declared": mine["declared"],
        "defence": "immobile" if target.unconscious else "engaged",
        "combat_skill": theirs["combat_skill"],
        "dodge_skill": theirs["dodge_skill"],
        "weapon_defence": theirs["weapon_defence"],
        # "Défenseur engagé : ... + Niveau réflexes câblés" (a sheet's value; 0 without one).
        "wired_reflexes": theirs.get("wired_reflexes", 0),
        "settings": settings,
    }


def shot_input(actor, target, band: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The shot resolver's input: the shooter's pool and its declared actions' malus, the
    range band; the target standing still unless it is down."""
    mine = actor.state
    return {
        "pool": mine.get("shot_pool", CorporatesTable.DEFAULT_STATE["shot_pool"]),
        "bonus": mine.get("shot_bonus", CorporatesTable.DEFAULT_STATE["shot_bonus"]),
        "declared": mine["declared"],
        "range": band,
        "size": "standing",
        "movement": "still",
        "settings": settings,
    }


def damage_input(
    actor, target, margin: int, settings: dict[str, Any], *, gun: bool = False
) -> dict[str, Any]:
    mine, theirs = actor.state, target.state
    if gun:
        weapon, dice, bonus = (
            "bullet",
            mine.get("gun_damage_dice", CorporatesTable.DEFAULT_STATE["gun_damage_dice"]),
            mine.get("gun_damage_bonus", CorporatesTable.DEFAULT_STATE["gun_damage_bonus"]),
        )
    else:
        weapon, dice, bonus = mine["weapon"], mine["damage_dice"], mine["damage_bonus"]
    return {
        "weapon": weapon,
        "firearm": weapon == "bullet",
        "damage_dice": dice,
        "damage_bonus": bonus,
        "attack_margin": margin,
        "soak_dice": theirs["soak_dice"],
        "soak_bonus": theirs["soak_bonus"],
        "settings": settings,
    }


def plan(combatants: list[Combatant]) -> dict[str, Any]:
    """`schedule.turn_plan` for the living combatants, by their declared actions."""
    living = [c for c in combatants if not c.dead and not c.unconscious]
    if not living:
        return {"characters": [], "segments": []}
    return turn_plan(
        [{"name": str(c.pk), "declared": c.state.get("declared", 1)} for c in living],
        load_catalogue(),
    )


class CorporatesTable(FightersTable):
    SYSTEM = "corporates"
    KINDS = ("declare", "attack", "damage", "shot", "shot_damage", "wound")
    KIND_LABELS = {
        "declare": gettext_lazy("Declare the turn's actions"),
        "attack": gettext_lazy("Melee blow"),
        "damage": gettext_lazy("Damage of a blow that landed"),
        "shot": gettext_lazy("Shoot"),
        "shot_damage": gettext_lazy("Damage of a shot that hit (firearm dice explode)"),
        "wound": gettext_lazy("Apply wound levels (organisers)"),
    }
    MANAGER_KINDS = ("wound",)
    FORM_FIELDS = ("kind", "actor", "target", "declared", "shot_range", "amount", "roll")
    HAND_DICE = ("dice", "damage_rolled", "soak_rolled")
    OPTION_FIELDS = ("declared", "shot_range", "amount")
    PHASES = (Phase.DECLARE, *SEGMENT_PHASES)
    FIRST_PHASE = Phase.DECLARE
    ADVANCE_LABELS = {
        Phase.DECLARE: gettext_lazy("To segment 1"),
        Phase.SEGMENT_1: gettext_lazy("To segment 2"),
        Phase.SEGMENT_2: gettext_lazy("To segment 3"),
        Phase.SEGMENT_3: gettext_lazy("To segment 4"),
        Phase.SEGMENT_4: gettext_lazy("To segment 5"),
        Phase.SEGMENT_5: gettext_lazy("Next turn: declare the actions"),
    }
    # A pick-up fighter's numbers: its combat pool, defence, weapon and soak.
    DEFAULT_STATE = {
        "pool": 5,
        "attack_bonus": 5,
        "combat_skill": 5,
        "dodge_skill": 3,
        "weapon_defence": 0,
        "weapon": "cutting",
        "damage_dice": 2,
        "damage_bonus": 2,
        "shot_pool": 5,
        "shot_bonus": 5,
        "gun_damage_dice": 3,
        "gun_damage_bonus": 0,
        "soak_dice": 2,
        "soak_bonus": 2,
        "declared": 1,
        "segments": [],
        "fatigue": 0,
        "wound_levels": 0,
    }

    def check_action(self, encounter, actor, target, action) -> None:
        if require_kind_and_actor(action, actor, target, kinds=self.KINDS, applied="wound"):
            return
        if action.kind == "declare":
            if encounter.phase != Phase.DECLARE:
                raise Refusal(_("Actions are declared at the start of the turn."), field="kind")
            declared = action.options.get("declared")
            if not isinstance(declared, int) or not 1 <= declared <= 5:
                raise Refusal(_("Declare from 1 to 5 actions."), field="declared")
            return
        segment = _segment(encounter.phase)
        if segment is None:
            raise Refusal(_("Blows are struck in the segments, once the actions are declared."))
        if segment not in actor.state.get("segments", []):
            raise Refusal(_("This combatant does not act in this segment."), field="actor")
        self.require_other_living(actor, target)

    def resolver_input(self, encounter, actor, target, action) -> tuple[str | None, dict]:
        settings = self.settings(encounter)
        if action.kind == "declare":
            return None, {"declared": action.options.get("declared")}
        if action.kind == "wound":
            return None, {"fatigue": 0, "wound": self.amount(action, 0, 20, default=0)}
        if action.kind in ("damage", "shot_damage"):
            gun = action.kind == "shot_damage"
            margin = self.amount(action, 0, 200, default=0)
            return "damage", damage_input(actor, target, margin, settings, gun=gun)
        if action.kind == "shot":
            band = action.options.get("shot_range") or "short"
            if band not in RANGE_BANDS:
                raise Refusal(_("Choose a range band."), field="shot_range")
            return "shot", shot_input(actor, target, band, settings)
        return "melee", melee_input(actor, target, settings)

    def apply_outcome(self, encounter, action, outcome: dict[str, Any], actor, target, everyone=()):
        if action.kind == "declare":
            actor.state = {**actor.state, "declared": outcome["declared"]}
            return ["declared"]
        if action.kind in ("attack", "shot"):
            hit = outcome.get("hit", outcome.get("success"))
            return ["hit"] if hit else ["miss"]
        fatigue, wound = int(outcome.get("fatigue") or 0), int(outcome.get("wound") or 0)
        if not fatigue and not wound:
            return []
        state = target.state
        target.state = {
            **state,
            "fatigue": state.get("fatigue", 0) + fatigue,
            "wound_levels": state.get("wound_levels", 0) + wound,
        }
        target.wounds += 1
        effects = ["wounded"]
        if outcome.get("critical_roll"):
            effects.append("critical")
        if target.state["wound_levels"] >= OUT_OF_ACTION_LEVELS and not target.unconscious:
            target.unconscious = True
            effects.append("out_of_action")
        return effects

    def advance(self, encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
        """Declaration -> segment 1 (the turn's plan: who acts in which segment) -> ... ->
        segment 5 -> the next turn's declaration."""
        if encounter.phase == Phase.DECLARE:
            rows = {row["name"]: row for row in plan(combatants)["characters"]}
            for c in combatants:
                row = rows.get(str(c.pk))
                segments = [s["segment"] for s in row["segments"] if s["acts"]] if row else []
                malus = {str(s["segment"]): s["malus_dice"] for s in row["segments"]} if row else {}
                c.state = {**c.state, "segments": segments, "malus": malus}
            encounter.phase = Phase.SEGMENT_1
            return EntryKind.PHASE, {"phase": Phase.SEGMENT_1}
        segment = _segment(encounter.phase) or len(SEGMENT_PHASES)
        if segment < len(SEGMENT_PHASES):
            encounter.phase = SEGMENT_PHASES[segment]
            return EntryKind.PHASE, {"phase": encounter.phase}
        for c in combatants:
            c.state = {**c.state, "declared": 1, "segments": [], "malus": {}}
        ended = encounter.turn
        encounter.turn += 1
        encounter.phase = Phase.DECLARE
        return EntryKind.END_PHASE, {"turn": ended, "characters": []}

    def state_lines(self, state: dict[str, Any]) -> list[tuple[str, str]]:
        segments = state.get("segments") or []
        lines = [
            (str(_("Fatigue levels")), str(state.get("fatigue", 0))),
            (str(_("Wound levels")), str(state.get("wound_levels", 0))),
            (str(_("Declared actions")), str(state.get("declared", 1))),
        ]
        if segments:
            lines.append((str(_("Acts in segments")), ", ".join(str(s) for s in segments)))
        return lines

    def action_text(self, data: dict, actor: str, target: str) -> str:
        outcome = data.get("outcome") or {}
        kind = data.get("kind")
        if kind == "declare":
            declared = int(outcome.get("declared") or 1)
            text = ngettext(
                "%(actor)s declares %(n)s action", "%(actor)s declares %(n)s actions", declared
            ) % {"actor": actor, "n": declared}
        elif kind == "shot":
            verdict = _("hit") if outcome.get("success") else _("miss")
            text = _("%(actor)s shoots at %(target)s: %(verdict)s (margin %(margin)s)") % {
                "actor": actor,
                "target": target,
                "verdict": verdict,
                "margin": outcome.get("margin"),
            }
        elif kind == "attack":
            verdict = _("hit") if outcome.get("hit") else _("miss")
            text = _("%(actor)s strikes at %(target)s: %(verdict)s (margin %(margin)s)") % {
                "actor": actor,
                "target": target,
                "verdict": verdict,
                "margin": outcome.get("margin"),
            }
        else:
            text = _("%(target)s: %(fatigue)s fatigue and %(wound)s wound levels") % {
                "target": target,
                "fatigue": outcome.get("fatigue", 0),
                "wound": outcome.get("wound", 0),
            }
            if kind in ("damage", "shot_damage"):
                text = f"{actor} → {text}"
        return text + hand_suffix(data)

    OUT_OF_ACTION_IS_LOST = True
    SUMMARY_NUMBERS = "levels"
    DRAWS_FROM_SHEETS = True
    ODDS_NUMBERS = True
    ENTRY = ChapterCorporatesEntry

    def catalogue_version(self) -> str:
        return load_catalogue().version

    def summary_numbers(self, state: dict[str, Any]) -> dict[str, int]:
        return {"fatigue": state.get("fatigue", 0), "wound": state.get("wound_levels", 0)}

    def sheet_levels(self, state: dict[str, Any]) -> dict[str, int]:
        """The close's fatigue and wound levels (RULES-NOTES CL3: "each character's fatigue
        and wound levels carry from session to session")."""
        return {"fatigue": state.get("fatigue", 0), "wounds": state.get("wound_levels", 0)}

    def entry_state(self, sheet, frozen: dict[str, Any]) -> dict[str, Any]:
        """A sheet entered into the chapter: its numbers, weapon and levels as the start
        froze them."""
        numbers = corporates_fighter_numbers(sheet)
        if frozen:
            numbers = {
                **numbers,
                **(frozen.get("numbers") or {}),
                "weapon": frozen.get("weapon", numbers["weapon"]),
                "fatigue": frozen.get("fatigue", numbers["fatigue"]),
                "wound_levels": frozen.get("wounds", numbers["wound_levels"]),
            }
        return self._state(sheet.pk, numbers)

    def sheet_state(self, sheet) -> dict[str, Any]:
        """A fighter drawn from a Corporates character sheet: its numbers feed the
        resolvers, its fatigue and wound levels are those it carries, `sheet` names it for
        the settlement."""
        return self._state(sheet.pk, corporates_fighter_numbers(sheet))

    def _state(self, sheet_id: int, numbers: dict[str, Any]) -> dict[str, Any]:
        return {
            **self.DEFAULT_STATE,
            **{SHEET_TO_STATE.get(k, k): v for k, v in numbers.items()},
            "sheet": sheet_id,
        }


ADAPTER = CorporatesTable()

"""The modern RPG at the table: the table's adapter for the system (`rules.table.systems`).

A round (Attitudes, Initiative): in the attitudes phase each combatant takes an attitude
(surprised, hidden, careful, normal, aggressive, ultra-violent: an action without dice);
the organiser moves on and the round's order of action comes from
`attitudes.initiative_order` (the more aggressive first, then the reflexes test); in the
action phase the attacks go through the `combat` resolver (its threshold from both
attitudes, the target's protection die, ammunition dice, vest, hit points) and their damage
is applied to the target's hit points ("Arrivé à 0 PV, le PJ n'a plus d'actions. Dans les PV
négatifs, toute autre blessure entraine la mort"). The organiser may apply damage directly.
Each combatant's numbers and hit points live in `Combatant.state`; the campaign's rules
settings (a chapter's encounter) go to every resolver.
"""

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import ChapterModernEntry
from characters.modern.models import ModernCharacter
from characters.permissions import Refusal
from rules.engine.systems.modern.attitudes import Fighter, initiative_order
from rules.engine.systems.modern.campaign import HP_MIN
from rules.engine.systems.modern.catalogue import load_catalogue
from rules.table.adapter import hand_suffix
from rules.table.checks import require_kind_and_actor
from rules.table.fighters import FightersTable
from rules.table.models import Combatant, EntryKind, Phase

ATTITUDE_LABELS = {
    "surprised": gettext_lazy("surprised"),
    "hidden": gettext_lazy("hidden"),
    "careful": gettext_lazy("careful"),
    "normal": gettext_lazy("normal"),
    "aggressive": gettext_lazy("aggressive"),
    "ultra_violent": gettext_lazy("ultra-violent"),
}


def character_state(character: ModernCharacter, frozen: dict[str, Any]) -> dict[str, Any]:
    """A modern character of the sheet as a combatant's state: its Réflexes die attacks, its
    best skill beside it; its hit points and stress (`frozen`: as the chapter's start froze
    them); `sheet` names it for the close."""
    characteristics = character.characteristics or {}
    skills = character.skills or {}
    best_skill = max(skills.values(), default=0)
    return ADAPTER.fighter_state(
        characteristic=int(characteristics.get("reflexes", 8)),
        reflexes=int(characteristics.get("reflexes", 8)),
        skill=best_skill if best_skill in (4, 6, 8, 10, 12) else 0,
        hp=int(frozen.get("hp", character.hp)),
        hp_max=int(frozen.get("hp_max", character.hp_max)),
        stress=int(frozen.get("stress", character.stress)),
        sheet=character.pk,
    )


def combat_input(actor, target, settings: dict[str, Any]) -> dict[str, Any]:
    """The combat resolver's input from the two combatants' live state."""
    mine, theirs = actor.state, target.state
    return {
        "characteristic": mine["characteristic"],
        "skill": mine["skill"],
        "attitude": mine["attitude"],
        "target_attitude": theirs["attitude"],
        "rate_of_fire": min(6, mine["rate_of_fire"]),
        "weapon_damage": mine["weapon_damage"],
        "vest": theirs["vest"],
        "hp": max(-100, min(100, theirs["hp"])),
        "hp_max": theirs["hp_max"],
        "settings": settings,
    }


def _hurt(target, outcome: dict[str, Any]) -> list[str]:
    damage = int(outcome.get("damage") or 0)
    if not damage:
        return []
    target.state = {**target.state, "hp": outcome["hp"]}
    target.wounds += 1
    if outcome.get("dead"):
        target.dead = True
        return ["killed"]
    if outcome.get("out_of_action"):
        target.unconscious = True
        return ["out_of_action"]
    return ["wounded"]


def _order(combatants: list[Combatant], rng: random.Random, surprised: str) -> list[str]:
    """The round's order (`initiative_order`): names of the living, fastest first."""
    fighters = [
        Fighter(name=str(c.pk), attitude=c.state.get("attitude", "normal"))
        for c in combatants
        if not c.dead and not c.unconscious
    ]
    return [
        name for group in initiative_order(fighters, rng, surprised=surprised) for name in group
    ]


class ModernTable(FightersTable):
    SYSTEM = "modern-rpg"
    KINDS = ("attitude", "attack", "care", "damage")
    KIND_LABELS = {
        "attitude": gettext_lazy("Take an attitude for the round"),
        "attack": gettext_lazy("Attack (shot or blow)"),
        "care": gettext_lazy("Give care (a care test)"),
        "damage": gettext_lazy("Apply damage (organisers)"),
    }
    MANAGER_KINDS = ("damage",)
    FORM_FIELDS = ("kind", "actor", "target", "attitude", "amount", "roll")
    HAND_DICE = ("dice", "protection_dice", "vest_dice")
    # The largest face typed by hand (the modern RPG rolls d4 to d12).
    DIE_MAX = 12
    OPTION_FIELDS = ("attitude", "amount")
    PHASES = (Phase.ATTITUDES, Phase.ACTION)
    FIRST_PHASE = Phase.ATTITUDES
    ADVANCE_LABELS = {
        Phase.ATTITUDES: gettext_lazy("To the actions, in initiative order"),
        Phase.ACTION: gettext_lazy("Next round: attitudes"),
    }
    # A pick-up fighter's numbers: the characteristic and skill dice of its attack, its weapon,
    # its vest and hit points (the text's example character has 10).
    DEFAULT_STATE = {
        "characteristic": 8,
        "skill": 6,
        "reflexes": 8,
        "weapon_damage": 2,
        "rate_of_fire": 1,
        "vest": "none",
        "hp": 10,
        "hp_max": 10,
        "attitude": "normal",
        "initiative": None,
        "care_characteristic": 8,
        "care_skill": 0,
    }

    def check_action(self, encounter, actor, target, action) -> None:
        if require_kind_and_actor(action, actor, target, kinds=self.KINDS, applied="damage"):
            return
        if action.kind == "attitude":
            if encounter.phase != Phase.ATTITUDES:
                raise Refusal(_("Attitudes are taken at the start of the round."), field="kind")
            attitude = action.options.get("attitude")
            if not isinstance(attitude, str) or attitude not in ATTITUDE_LABELS:
                raise Refusal(_("Choose an attitude."), field="attitude")
            return
        if encounter.phase != Phase.ACTION:
            raise Refusal(_("Attacks are made in the action phase."), field="kind")
        if action.kind == "care":
            self.require_other_living(None, target)
            return
        self.require_other_living(actor, target)

    def resolver_input(self, encounter, actor, target, action) -> tuple[str | None, dict]:
        if action.kind == "attitude":
            return None, {"attitude": action.options.get("attitude")}
        if action.kind == "damage":
            amount = self.amount(action, 0, 100)
            hp = target.state["hp"] - amount
            return None, {
                "damage": amount,
                "hp": hp,
                "dead": amount > 0 and target.state["hp"] < 0,
                "out_of_action": hp <= 0,
            }
        if action.kind == "care":
            # Soins: "Pour chaque blessure/coup reçu, la cible peut bénéficier d'un unique test
            # de soin" (the healer's own numbers; the table trusts the organiser on the once).
            return "healing", {
                "characteristic": actor.state.get("care_characteristic", 8),
                "skill": actor.state.get("care_skill", 0),
                "hp": max(-100, min(100, target.state["hp"])),
                "hp_max": target.state["hp_max"],
                "settings": self.settings(encounter),
            }
        return "combat", combat_input(actor, target, self.settings(encounter))

    def apply_outcome(self, encounter, action, outcome: dict[str, Any], actor, target, everyone=()):
        if action.kind == "attitude":
            actor.state = {**actor.state, "attitude": outcome["attitude"]}
            return ["attitude"]
        if action.kind == "care":
            target.state = {**target.state, "hp": outcome["hp"]}
            if outcome["hp"] > 0 and target.unconscious:
                target.unconscious = False
            return ["cared"] if outcome.get("hp_change", 0) >= 0 else ["care_failed"]
        effects = _hurt(target, outcome)
        if "killed" in effects and actor is not None:
            actor.kills += 1
        return effects

    def advance(self, encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
        """Attitudes -> action: the round's order of action. Action -> the next round's
        attitudes (everyone back to normal)."""
        if encounter.phase == Phase.ATTITUDES:
            surprised = self.settings(encounter).get("surprised", "acts_last")
            order = _order(combatants, random.Random(), surprised)
            for c in combatants:
                rank = order.index(str(c.pk)) + 1 if str(c.pk) in order else None
                c.state = {**c.state, "initiative": rank}
            encounter.phase = Phase.ACTION
            return EntryKind.PHASE, {"phase": Phase.ACTION, "order": [int(pk) for pk in order]}
        for c in combatants:
            c.state = {**c.state, "attitude": "normal", "initiative": None}
        ended = encounter.turn
        encounter.turn += 1
        encounter.phase = Phase.ATTITUDES
        return EntryKind.END_PHASE, {"turn": ended, "characters": []}

    def order(self, combatants: list[Combatant], phase: str, turn: int = 0) -> list[dict[str, Any]]:
        """Who acts in the action phase, in the round's initiative order (the seam's hook)."""
        if phase != Phase.ACTION:
            return []
        placed = [c for c in combatants if c.state.get("initiative") and not c.dead]
        return [
            {"id": c.pk, "name": c.name, "initiative": c.state["initiative"], "tied": False}
            for c in sorted(placed, key=lambda c: c.state["initiative"])
        ]

    def state_lines(self, state: dict[str, Any]) -> list[tuple[str, str]]:
        """What the page shows of a combatant's live state."""
        lines = [
            (str(_("Hit points")), f"{state.get('hp')}/{state.get('hp_max')}"),
            (str(_("Attitude")), str(ATTITUDE_LABELS.get(state.get("attitude", ""), ""))),
        ]
        if state.get("initiative"):
            lines.append((str(_("Acts")), str(state["initiative"])))
        return lines

    def action_text(self, data: dict, actor: str, target: str) -> str:
        outcome = data.get("outcome") or {}
        kind = data.get("kind")
        if kind == "attitude":
            text = _("%(actor)s takes the attitude: %(attitude)s") % {
                "actor": actor,
                "attitude": ATTITUDE_LABELS.get(outcome.get("attitude", ""), ""),
            }
        elif kind == "care":
            text = _("%(actor)s gives care to %(target)s: %(change)+d hit points (%(hp)s)") % {
                "actor": actor,
                "target": target,
                "change": outcome.get("hp_change", 0),
                "hp": outcome.get("hp"),
            }
        elif kind == "damage":
            text = _("%(target)s takes %(damage)s damage (%(hp)s hit points)") % {
                "target": target,
                "damage": outcome.get("damage"),
                "hp": outcome.get("hp"),
            }
        elif outcome.get("damage"):
            text = _("%(actor)s hits %(target)s: %(damage)s damage (%(hp)s hit points)") % {
                "actor": actor,
                "target": target,
                "damage": outcome.get("damage"),
                "hp": outcome.get("hp"),
            }
        else:
            text = _("%(actor)s attacks %(target)s: no damage") % {"actor": actor, "target": target}
        if outcome.get("dead"):
            text += " — " + _("killed")
        elif outcome.get("out_of_action") and outcome.get("damage"):
            text += " — " + _("out of action")
        return text + hand_suffix(data)

    SUMMARY_NUMBERS = "hp"
    ENTRY = ChapterModernEntry

    def catalogue_version(self) -> str:
        return load_catalogue().version

    def entry_state(self, sheet, frozen: dict[str, Any]) -> dict[str, Any]:
        """A sheet entered into the chapter: its Réflexes die attacks, its best skill beside
        it; its hit points and stress as the start froze them."""
        return character_state(sheet, frozen)

    def sheet_levels(self, state: dict[str, Any]) -> dict[str, int]:
        """The close's hit points lost and stress (RULES-NOTES CL4: "stress and wounds
        carry over"): hit points never below the sheet's least (`HP_MIN`)."""
        hp_max = int(state.get("hp_max") or 0)
        hp = max(HP_MIN, int(state.get("hp", hp_max)))
        return {"wounds": max(0, hp_max - hp), "stress": int(state.get("stress") or 0)}

    def summary_numbers(self, state: dict[str, Any]) -> Any:
        return state.get("hp")


ADAPTER = ModernTable()

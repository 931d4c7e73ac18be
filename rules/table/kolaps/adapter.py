"""KOLAPS at the table: the system's adapter (`rules.table.systems`).

`KolapsTable` declares what the generic services ask of the system: its actions and phases,
and its verbs (`chapter_combatants`, `check_action`, `resolver_input`, `apply_outcome`,
`advance`, `summary`, `action_text`, the stray shot's steps). The inputs and outcomes of the
engine's resolvers are `rules.table.kolaps.actions`', the combatants
`rules.table.kolaps.combatants`'. It changes the combatants and the encounter it is given
and never saves them: the service does, under its lock.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.kolaps.models import KolapsCharacter
from characters.permissions import Refusal
from characters.typography import elide
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.table.adapter import TableAdapter, hand_suffix
from rules.table.kolaps.actions import (
    PENDING_STRAY,
    SELF_KINDS,
    TALENT_KINDS,
    allies_near,
    apply_attack,
    apply_end_phase,
    apply_roll,
    apply_stray,
    apply_stray_choice,
    apply_wound,
    clamp,
    combatants_of,
    distance_of,
    end_phase_input,
    into_melee_input,
    lethal_for_allies,
    melee_input,
    next_attacker_input,
    pend_target_stray,
    ranged_input,
    roll_input,
    stray_targets,
    taken_out,
    wound_input,
)
from rules.table.kolaps.combatants import (
    K12_FROM,
    armed_fist_of,
    catalogue_of,
    combatant_notes,
    frozen_combatants,
    melee_breath_of,
    pistols_for,
    unit_combatants,
    weapons_for,
)
from rules.table.kolaps.log import roll_text, stray_choice_text, wound_text
from rules.table.models import Combatant, EntryKind, Phase
from rules.templatetags.outcomes import row_label


class KolapsTable(TableAdapter):
    """The adapter (`rules.table.adapter.TableAdapter`): the system's actions, phases and
    verbs."""

    SYSTEM = "kolaps"
    KINDS = ("ranged", "melee", "wound", *TALENT_KINDS, "fall")
    KIND_LABELS = {
        "ranged": gettext_lazy("Shoot"),
        "melee": gettext_lazy("Fight in melee"),
        "wound": gettext_lazy("Apply a wound (organisers)"),
        "sonar": gettext_lazy("Sonar (seek the target)"),
        "terreur": gettext_lazy("Terreur (on the target)"),
        "ralliement": gettext_lazy("Ralliement (rally the target, an ally)"),
        "shield": gettext_lazy("Bouclier roll (does the shield protect?)"),
        "fall": gettext_lazy("Fall roll"),
    }
    # The kinds an organiser applies directly, without an actor.
    MANAGER_KINDS = ("wound",)
    # The action form's fields this system shows, and the dice typed in by hand (the resolvers'
    # field names).
    FORM_FIELDS = (
        "kind",
        "actor",
        "target",
        "weapon",
        "distance_cm",
        "cover",
        "wound",
        "allies_near",
        "armed_fist",
        "melee_figures",
        "stray_ally",
        "roll",
    )
    HAND_DICE = (
        "dice",
        "a_dice",
        "b_dice",
        "power_dice",
        "death_die",
        "stray_die",
        "stray_death_die",
    )
    # The action's own fields handed to the adapter: the target's allies the acting player says
    # were within 25 cm of it (K8's lethal wound; the server knows no distances).
    # K18's armed fists (`armed_fist`: a pistol in melee), and a shot into a melee: the figures in
    # it (`melee_figures`) and the shooter's ally a stray shot on its own side hits (`stray_ally`).
    OPTION_FIELDS = ("allies_near", "armed_fist", "melee_figures", "stray_ally")
    PHASES = (Phase.SPEECH, Phase.ACTION)
    FIRST_PHASE = Phase.SPEECH
    # The live state an action or an end phase changes (what a snapshot keeps and undo restores).
    STATE_FIELDS = (
        "sante",
        "souffle",
        "moral",
        "directive",
        "revealed",
        "on_ground",
        "unconscious",
        "dead",
        "engaged",
        "breath_spent",
        "sante_lost",
        "wounds",
        "kills",
        # K18's Moral events of the turn (`moral_events`), counted until the end phase.
        "state",
    )
    ADVANCE_LABELS = {
        Phase.SPEECH: gettext_lazy("To the action phase"),
        Phase.ACTION: gettext_lazy("End phase, next turn"),
    }
    COMBATANT_TEMPLATE = "rules/table/systems/kolaps_combatant.html"
    # K15: the side that attacks, handed over at the end of each turn.
    HAS_ATTACKER = True
    # The choice of the figure a stray shot hits on the target's side (`actions.PENDING_STRAY`):
    # an action of its own, not in `KINDS` (its page and API call
    # `rules.table.services.encounter_choose_stray`).
    STRAY_CHOICE = "stray_choice"

    def chapter_combatants(self, chapter) -> tuple[list[str], list[Combatant], str]:
        """The KOLAPS chapter's encounter: each unit entered is a side (or the side it was
        entered on), each of its characters a combatant its player plays. A started chapter
        plays its units as they were frozen at the start, with K12's side changes. Answers
        the sides, the unsaved combatants and the catalogue version."""
        entries = list(chapter.unit_entries.select_related("unit").order_by("entered_at", "pk"))
        side_of = {e.pk: e.side or e.frozen.get("name") or e.unit.name for e in entries}
        sides = list(dict.fromkeys(side_of.values()))
        if len(sides) < 2:
            raise Refusal(_("An encounter needs two sides: enter at least two units."))
        if all(entry.frozen for entry in entries):
            players = {}
            for entry in entries:
                players.setdefault(side_of[entry.pk], entry.player)
            ids = [m["id"] for entry in entries for m in entry.frozen["members"]]
            kept = set(KolapsCharacter.objects.filter(pk__in=ids).values_list("pk", "owner_id"))
            combatants = [
                c
                for entry in entries
                for c in frozen_combatants(
                    entry.frozen,
                    side_of[entry.pk],
                    players,
                    {pk for pk, owner in kept if owner == entry.player_id},
                )
            ]
            return sides, combatants, entries[0].frozen["catalogue_version"]
        combatants = [
            c
            for entry in entries
            for c in unit_combatants(entry.unit, side_of[entry.pk], entry.player)
        ]
        return sides, combatants, entries[0].unit.catalogue_version

    def check_action(self, encounter, actor, target, action) -> None:
        everyone = combatants_of(encounter)
        if action.kind == self.STRAY_CHOICE:
            # The choice read before the lock must still be the one waiting under it.
            ally = None if target.pk == actor.pk else target.pk
            if self.stray_choice(everyone, ally) != (actor.pk, target.pk):
                raise Refusal(
                    _("This changed while you were deciding: here is the new state."), status=409
                )
            return
        self.refuse_while_pending(everyone)
        if action.kind not in self.KINDS:
            raise Refusal(_("Choose what the combatant does."), field="kind")
        if action.kind == "wound":
            if target.dead:
                raise Refusal(_("This combatant is dead."), field="target")
            return
        if encounter.phase != Phase.ACTION:
            raise Refusal(_("Attacks are made in the action phase."), field="kind")
        if actor is None:
            raise Refusal(_("Choose a combatant of this encounter."), field="actor")
        if actor.dead or actor.unconscious:
            raise Refusal(_("This combatant cannot act now."), field="actor")
        if action.kind in SELF_KINDS:
            return
        if actor.pk == target.pk:
            raise Refusal(_("A combatant does not attack itself."), field="target")
        if action.kind == "ralliement" and target.side != actor.side:
            raise Refusal(_("Ralliement rallies an ally."), field="target")
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="target")
        if not 0 <= distance_of(action) <= 1000:
            raise Refusal(_("A distance from 0 to 1000 cm."), field="distance_cm")
        if not 0 <= action.cover <= 4:
            raise Refusal(_("Cover from 0 to 4."), field="cover")

    def resolver_input(self, encounter, actor, target, action) -> tuple[str, dict]:
        """The resolver an action calls and its input, from the live state."""
        catalogue = catalogue_of(encounter.catalogue_version)
        if action.kind == self.STRAY_CHOICE:
            pending = (actor.state or {}).get(PENDING_STRAY) or {}
            if target.pk == actor.pk:
                return None, {"nobody": True, "stray": pending}
            return "death", wound_input(target, wound=pending.get("wound", ""), catalogue=catalogue)
        if action.kind == "wound":
            if action.wound not in catalogue.tables.wounds.rows:
                raise Refusal(_("Choose a wound."), field="wound")
            return "death", wound_input(target, wound=action.wound, catalogue=catalogue)
        if action.kind in TALENT_KINDS or action.kind == "fall":
            return roll_input(actor, target, action.kind, catalogue)
        kind = "ranged" if action.kind == "ranged" else "melee"
        weapons = weapons_for(actor, kind, catalogue)
        fists = kind == "melee" and bool((action.options or {}).get("armed_fist"))
        if fists:
            weapons = pistols_for(actor, catalogue)
            if not weapons:
                raise Refusal(
                    _("Armed fists need the Poing armé talent and a pistol."), field="armed_fist"
                )
        if not weapons:
            raise Refusal(_("This combatant has no weapon for that."), field="weapon")
        weapon = action.weapon or weapons[0]
        if weapon not in weapons:
            raise Refusal(_("Choose one of the combatant's weapons."), field="weapon")
        if kind == "ranged":
            data = ranged_input(
                actor,
                target,
                weapon=weapon,
                distance_cm=distance_of(action),
                cover=action.cover,
                catalogue=catalogue,
            )
            data.update(into_melee_input(encounter, actor, target, action))
            return "ranged", data
        if (action.options or {}).get("stray_ally") not in (None, ""):
            raise Refusal(_("A stray shot follows a shot into a melee."), field="stray_ally")
        data = melee_input(actor, target, weapon=weapon, catalogue=catalogue, armed_fist=fists)
        return "melee", data

    def refuse_while_pending(self, everyone) -> None:
        """Tir dans une mêlée: the stray shot's wound belongs to the shot, so its figure is
        chosen before anything else happens at the table."""
        found = self.pending_stray(everyone)
        if found is not None:
            raise Refusal(
                elide(
                    _(
                        "A stray shot hit one of %(target)s's allies: its player chooses which "
                        "one before anything else."
                    )
                    % {"target": found[0].name}
                ),
                status=409,
            )

    def pending_stray(self, everyone) -> tuple[Any, dict[str, Any]] | None:
        """The combatant whose ally a stray shot hits, waiting for its player's choice, and what
        it waits for (`shooter`, `die`, `wound`, `in_melee_only`); None when nothing waits."""
        for combatant in everyone:
            pending = (combatant.state or {}).get(PENDING_STRAY)
            if pending:
                return combatant, pending
        return None

    def stray_choice(self, everyone, ally: int | None) -> tuple[int, int]:
        """The choice of the figure a stray shot hits on the target's side: (the target's id,
        the id of the figure hit; the target's own id for nobody, which only a face whose
        figure must be in the melee allows). A `Refusal` sentence for a wrong choice."""
        found = self.pending_stray(everyone)
        if found is None:
            raise Refusal(_("There is no stray shot to choose for."))
        target, pending = found
        if ally is None:
            if not pending.get("in_melee_only"):
                raise Refusal(
                    elide(
                        _("This stray shot hits one of %(target)s's allies: choose which.")
                        % {"target": target.name}
                    ),
                    field="ally",
                )
            return target.pk, target.pk
        if ally not in {c.pk for c in stray_targets(target, everyone)}:
            raise Refusal(
                elide(_("Choose one of %(target)s's living allies.") % {"target": target.name}),
                field="ally",
            )
        return target.pk, ally

    def stray_step(self, encounter, everyone) -> dict[str, Any] | None:
        """What the page shows of a pending choice: the target, the shooter, the wound, and each
        figure it may hit with the chance that the wound's death roll kills it (K8)."""
        found = self.pending_stray(everyone)
        if found is None:
            return None
        target, pending = found
        catalogue = catalogue_of(encounter.catalogue_version)
        death = resolver_get(self.SYSTEM, "death")
        names = {c.pk: c.name for c in everyone}
        wound = str(pending.get("wound", ""))
        return {
            "target": target,
            "shooter": names.get(pending.get("shooter"), "?"),
            "wound": wound,
            "in_melee_only": bool(pending.get("in_melee_only")),
            "options": [
                (c, death.odds(wound_input(c, wound=wound, catalogue=catalogue))["dies_exact"])
                for c in stray_targets(target, everyone)
            ],
        }

    def refuse_end(self, encounter, combatants) -> None:
        """The encounter does not end on a stray shot whose figure is still to be chosen."""
        self.refuse_while_pending(combatants)

    def apply_outcome(
        self, encounter, action, outcome: dict[str, Any], actor, target, everyone=()
    ) -> list[str]:
        """The outcome's consequences on the live state of the actor and the target, then K18's
        for everyone: the allies ticked within 25 cm of a lethal wound lose Moral at once, and a
        combatant taken out counts a Moral event for every other living combatant."""
        catalogue = catalogue_of(encounter.catalogue_version)
        everyone = list(everyone) or [c for c in (actor, target) if c is not None]
        dead_before = {c.pk for c in everyone if c.dead}
        if action.kind == "wound":
            effects = apply_wound(outcome, target)
            row = outcome.get("wound")
        elif action.kind in TALENT_KINDS or action.kind == "fall":
            effects, row = apply_roll(action.kind, outcome, actor, target, catalogue), None
            actor.revealed = True
        elif action.kind == self.STRAY_CHOICE:
            effects, row = apply_stray_choice(outcome, actor, target, everyone), None
        else:
            effects = apply_attack(outcome, actor, target, catalogue)
            effects += apply_stray(outcome, action, actor, everyone, catalogue)
            effects += pend_target_stray(outcome, actor, target, everyone)
            row = outcome.get("row")
        for struck in [c for c in everyone if c.dead and c.pk not in dead_before]:
            if struck.pk == target.pk:
                effects += lethal_for_allies(row, struck, action, everyone, catalogue)
            effects += taken_out(struck, everyone)
        if not any(e == "allies_moral" for e in effects):
            allies_near(action, target, everyone)  # a wrong tick is refused all the same
        return effects

    def _end_phase(self, combatants: list[Combatant], catalogue: Catalogue) -> dict[str, Any]:
        """K14 for every living combatant; the next turn's trackers start afresh."""
        living = [c for c in combatants if not c.dead]
        result: dict[str, Any] = {"characters": []}
        if living:
            data = {"characters": end_phase_input(living, catalogue)}
            ends = resolver_get(self.SYSTEM, "end_phase").evaluate(data)["characters"]
            for combatant, end in zip(living, ends, strict=True):
                breath = melee_breath_of(combatant)
                apply_end_phase(end, combatant)
                if breath["souffle"]:
                    combatant.souffle = clamp(combatant.souffle - breath["souffle"], catalogue)
                    end = {**end, "souffle": combatant.souffle, "melee_souffle": breath["souffle"]}
                combatant.state = {**(combatant.state or {}), "melee_turns": breath["turns"]}
                result["characters"].append({"id": combatant.pk, **end})
        return result

    def advance(self, encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
        """The organiser moves the turn on: speech -> action; action -> the end phase (K14,
        then K15's attacker) and the next turn's speech. Answers the log line's kind and data."""
        if encounter.phase == Phase.SPEECH:
            encounter.phase = Phase.ACTION
            return EntryKind.PHASE, {"phase": Phase.ACTION}
        self.refuse_while_pending(combatants)
        sides = next_attacker_input(combatants, encounter.attacker_side)
        # K15 counts this turn's revealed fighters, before the end phase hides them again.
        next_attacker = None
        if len(sides["sides"]) >= 2:
            next_attacker = resolver_get(self.SYSTEM, "next_attacker").evaluate(sides)
        result = self._end_phase(combatants, catalogue_of(encounter.catalogue_version))
        if next_attacker is not None:
            encounter.attacker_side = next_attacker["attacker"]
            result["next_attacker"] = next_attacker
        ended_turn = encounter.turn
        encounter.turn += 1
        encounter.phase = Phase.SPEECH
        return EntryKind.END_PHASE, {"turn": ended_turn, **result}

    def summary(self, encounter, combatants: list[Combatant]) -> dict[str, Any]:
        """What happened, for the chapter's close: per side and per unit entered, the characters
        lost and wounded and the Moral they end with (KOLAPS speaks of nothing else)."""
        sides: dict[str, dict[str, Any]] = {}
        units: dict[str, dict[str, Any]] = {}
        for c in combatants:
            rows = [sides.setdefault(c.side, {"lost": [], "wounded": [], "moral": {}, "kills": 0})]
            unit_id = c.kolaps_character.unit_id if c.kolaps_character else None
            if unit_id is not None:
                rows.append(
                    units.setdefault(
                        str(unit_id),
                        {
                            "side": (c.state or {}).get(K12_FROM, c.side),
                            "lost": [],
                            "lost_ids": [],
                            "wounded": [],
                            "moral": {},
                        },
                    )
                )
                if c.dead:
                    units[str(unit_id)]["lost_ids"].append(c.kolaps_character_id)
            for row in rows:
                if c.dead:
                    row["lost"].append(c.name)
                elif c.wounds:
                    row["wounded"].append(c.name)
                row["moral"][c.name] = c.moral
            sides[c.side]["kills"] += c.kills
        return {
            "encounter": encounter.pk,
            "ended": True,
            "turns": encounter.turn,
            "sides": sides,
            "units": units,
        }

    def action_text(self, data: dict, actor: str, target: str) -> str:
        """An action's line in the log."""
        outcome = data.get("outcome") or {}
        if data.get("kind") in (*TALENT_KINDS, "fall"):
            return roll_text(data.get("kind", ""), outcome, actor, target, data.get("by_hand"))
        if data.get("kind") == self.STRAY_CHOICE:
            return stray_choice_text(data, actor, target)
        if data.get("kind") == "wound":
            text = _("%(target)s: %(wound)s") % {
                "target": target,
                "wound": row_label(outcome.get("wound")),
            }
        else:
            verb = _("shoots") if data.get("kind") == "ranged" else _("fights")
            # In a melee either may strike: the struck is named, or the line reads as if the
            # one attacked always took the wound.
            struck = actor if outcome.get("attacker") == "b" else target
            hit = outcome.get("target") or {}
            wounded = hit.get("sante_after") is not None or hit.get("killed")
            text = (
                _("%(actor)s %(verb)s %(target)s: %(row)s for %(struck)s")
                if data.get("kind") == "melee" and wounded
                else _("%(actor)s %(verb)s %(target)s: %(row)s")
            ) % {
                "actor": actor,
                "verb": verb,
                "target": target,
                "struck": struck,
                "row": row_label(outcome.get("row")),
            }
        hit = (outcome.get("target") if data.get("kind") != "wound" else outcome) or {}
        text += wound_text(hit, hit.get("killed"))
        if "stray_pending" in (data.get("effects") or []):
            text += " — " + _(
                "a stray shot hits one of %(target)s's allies: its player chooses which"
            ) % {"target": target}
        return text + hand_suffix(data)

    def card_fields(self, combatant, *, sees: bool) -> dict[str, Any]:
        """A figure's card at the table: its rank, the gauges (Santé, Souffle, Moral), its order
        directive (None while hidden from the viewer), what K18 lets it do."""
        return {
            "rank": combatant.rank,
            "is_avatar": combatant.is_avatar,
            "sante": combatant.sante,
            "souffle": combatant.souffle,
            "moral": combatant.moral,
            "directive": combatant.directive if sees else None,
            "revealed": combatant.revealed,
            "on_ground": combatant.on_ground,
            "weapons": list(combatant.weapons),
            "notes": combatant_notes(combatant),
            "armed_fist": not combatant.dead and armed_fist_of(combatant),
        }


ADAPTER = KolapsTable()

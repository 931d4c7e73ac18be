"""KOLAPS at the table: the log's lines of K18's talent rolls and of a stray shot's choice
(the adapter's `action_text` writes the others), and what every line says of a wound."""

from django.utils.translation import gettext as _

from rules.table.adapter import hand_suffix
from rules.templatetags.outcomes import row_label


def wound_text(hit: dict, killed) -> str:
    """What a line says of a figure struck: its Santé before and after, and its death."""
    text = ""
    if hit.get("sante_after") is not None:
        text += " " + _("(Santé %(before)s → %(after)s)") % {
            "before": hit.get("sante_before"),
            "after": hit.get("sante_after"),
        }
    if killed:
        text += " — " + _("killed")
    return text


def roll_text(kind: str, outcome: dict, actor: str, target: str, by_hand) -> str:
    names = {"actor": actor, "target": target}
    succeeded = outcome.get("succeeded")
    if kind == "sonar":
        text = (
            _("%(actor)s's Sonar finds %(target)s.")
            if succeeded
            else _("%(actor)s's Sonar does not find %(target)s.")
        ) % names
        if outcome.get("vampire_revealed"):
            text += " " + _("A 1: the vampire is revealed.")
    elif kind == "terreur":
        text = (
            _("%(actor)s terrifies %(target)s: inert.")
            if succeeded
            else _("%(target)s resists %(actor)s's Terreur.")
        ) % names
        if outcome.get("target_moral"):
            text += " " + _("Moral %(change)+d.") % {"change": outcome["target_moral"]}
    elif kind == "ralliement":
        text = (
            _("%(actor)s rallies %(target)s: Moral +%(gain)s.")
            if succeeded
            else _("%(actor)s fails to rally %(target)s.")
        ) % {
            **names,
            "gain": outcome.get("moral_regained", 0),
        }
    elif kind == "shield":
        text = (
            _("%(actor)s's shield protects.")
            if succeeded
            else _("%(actor)s's shield does not protect.")
        ) % names
    else:
        text = (_("%(actor)s keeps their footing.") if succeeded else _("%(actor)s falls.")) % names
        text += wound_text(outcome.get("wound") or {}, outcome.get("killed"))
    return text + hand_suffix({"by_hand": by_hand})


def stray_choice_text(data: dict, chooser: str, hit: str) -> str:
    """The log line of the choice: the figure the stray shot hit, its wound and death roll."""
    outcome = data.get("outcome") or {}
    if outcome.get("nobody"):
        return _("Stray shot: no ally of %(target)s in the melee, nobody is hit.") % {
            "target": chooser
        }
    text = _("Stray shot on %(target)s's side: %(hit)s is hit, %(wound)s") % {
        "target": chooser,
        "hit": hit,
        "wound": row_label((data.get("inputs") or {}).get("wound")),
    }
    return text + wound_text(outcome, outcome.get("killed")) + hand_suffix(data)

"""What every system's adapter checks first about an action at the table: a known kind, a
living target for what the organiser applies without an actor, a combatant able to act for
the rest. The adapters (`rules.table.corporates`, `rules.table.modern`) go on from there."""

from django.utils.translation import gettext as _

from characters.permissions import Refusal


def require_kind_and_actor(action, actor, target, *, kinds, applied: str) -> bool:
    """Refuse an unknown kind, an `applied` action (the organiser's, no actor) on the dead, an
    actor missing or out of action. True when the action is the `applied` one (nothing more
    to check)."""
    if action.kind not in kinds:
        raise Refusal(_("Choose what the combatant does."), field="kind")
    if action.kind == applied:
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="target")
        return True
    if actor is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="actor")
    if actor.dead or actor.unconscious:
        raise Refusal(_("This combatant cannot act now."), field="actor")
    return False

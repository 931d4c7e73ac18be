"""Server-side resolution: odds, judged dice and audited server rolls.

The only writer of `RollRecord`. The seed is drawn here from the operating system, never
from the request; replaying a record runs the same resolver with the same inputs and seed.
"""

import random
import secrets
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.permissions import Refusal
from rules.engine.errors import RuleInputError
from rules.engine.registry import VERBS, Resolver, resolver_get
from rules.rolls.models import RollRecord

FIELD_SENTENCES = {
    "db": gettext_lazy("The difficulty (db) is a whole number from -20 to 30."),
    "rank": gettext_lazy("The rank is one of novice, aguerri, veteran, expert."),
    "sante": gettext_lazy("Santé is a whole number from 1 to 6."),
}


def _sentence(error: RuleInputError) -> str:
    """A translated sentence for a rule input error, from its field or its kind."""
    params = error.params
    kind = params.get("kind")
    if kind == "faces":
        return _("Type exactly %(count)s dice, each a face its die can show.") % {
            "count": params["count"]
        }
    if kind == "unforceable":
        return _("A critical failure cannot be forced.")
    if error.field == "dice" or kind == "dice":
        count = params.get("count")
        if count is not None:
            return _("Type exactly %(count)s dice, each a whole number from 1 to 6.") % {
                "count": count
            }
        return _("Each die is a whole number from 1 to 6.")
    if error.field in FIELD_SENTENCES:
        return str(FIELD_SENTENCES[error.field])
    if kind == "integer":
        return _("A number from %(lo)s to %(hi)s.") % {"lo": params["lo"], "hi": params["hi"]}
    if kind in ("choice", "list") and "choices" in params:
        return _("Choose among: %(choices)s.") % {"choices": ", ".join(params["choices"])}
    if kind == "list":
        return _("A list is expected here.")
    if kind == "flag":
        return _("Yes or no (true or false).")
    if kind == "armed_fist":
        return _("Armed fists need the Poing armé talent and a pistol.")
    if kind == "exploding":
        return _("An exploding die: every 6 adds a die, and the last die is not a 6.")
    if kind == "range":
        return _("The weapon does not reach that far.")
    if kind == "talents":
        return _("Talents are catalogue names with one of their levels.")
    if kind == "unknown":
        return _("“%(slug)s” is not a name the catalogue knows (%(field)s).") % {
            "slug": params.get("slug"),
            "field": error.field,
        }
    if kind == "risk_dice":
        return _("Risk dice are taken only flat out.")
    if kind == "weight":
        return _("Agility against agility needs an attacker weighing more than half the defender.")
    if kind == "twice":
        return _("Each special rule is taken once.")
    return _("This value cannot be used.")


def resolver_for(system: str, name: str, verb: str) -> Resolver:
    resolver = resolver_get(system, name)
    if resolver is None or verb not in VERBS:
        raise Http404
    return resolver


def _inputs(resolver: Resolver, data: dict[str, Any]) -> dict[str, Any]:
    """What a roll depends on, as its schema declares it; anything else in the request (a
    seed, typed dice) is ignored."""
    fields = set(resolver.input_schema["properties"]) - set(resolver.dice_fields)
    return {k: v for k, v in data.items() if k in fields}


def resolve(*, system: str, name: str, verb: str, data: dict[str, Any]) -> dict[str, Any]:
    """Odds or judged dice: stateless, nothing recorded."""
    resolver = resolver_for(system, name, verb)
    try:
        if verb == "odds":
            return resolver.odds(data)
        if verb == "evaluate":
            return resolver.evaluate(data)
    except RuleInputError as error:
        raise Refusal(_sentence(error), field=error.field) from error
    raise ValueError(f"resolve() does not roll: use roll_on_server for {verb}")


def roll_on_server(*, player, system: str, name: str, data: dict[str, Any]) -> RollRecord:
    """Roll with a fresh seed and record who, when, what, the seed, the dice, the outcome."""
    resolver = resolver_for(system, name, "roll")
    if not player.is_authenticated:
        raise Refusal(_("Log in to roll on the server: every roll is recorded."), status=401)
    inputs = _inputs(resolver, data)
    seed = secrets.randbits(63)
    try:
        outcome = resolver.roll(inputs, random.Random(seed))
    except RuleInputError as error:
        raise Refusal(_sentence(error), field=error.field) from error
    with transaction.atomic():
        return RollRecord.objects.create(
            player=player,
            system=resolver.system,  # the slug the registry knows, however it was asked
            resolver=name,
            inputs=inputs,
            seed=seed,
            dice=outcome.get("dice", []),
            outcome=outcome,
        )


def roll_replay(*, record: RollRecord) -> dict[str, Any]:
    """Run the record's resolver again with its seed: the same dice and outcome, or a bug."""
    resolver = resolver_for(record.system, record.resolver, "roll")
    again = resolver.roll(record.inputs, random.Random(record.seed))
    return {"outcome": again, "matches": again == record.outcome}

"""`{{ result.outcome|outcome_label }}`: the translated name of a roll's outcome."""

from django import template
from django.utils.translation import gettext as _

from rules.dice_calculators.cards import LABELS as DICE_CALCULATOR_LABELS
from rules.dice_calculators.cards import SYSTEM_NAMES, facts
from rules.engine.systems import index_of
from rules.labels import EFFECT_LABELS, FOLLOW_UP_LABELS, ROW_LABELS, resolver_label
from rules.labels import outcome_label as label_of_outcome
from rules.rolls.inputs import input_rows

# The systems whose calculators name their fields and answers in `dice_calculators.cards`
# (drawn from their resolvers' schemas, as their declaration says).
DICE_CALCULATOR_SYSTEMS = tuple(SYSTEM_NAMES)

register = template.Library()


@register.filter
def outcome_label(outcome: str | None, system: str = "kolaps") -> str:
    """`{{ roll.outcome.outcome|outcome_label:roll.system }}` ("holds" -> "The squad holds")."""
    return label_of_outcome(outcome, system or "kolaps")


@register.filter
def row_label(row: str | None) -> str:
    """The translated row of a damage table (K7)."""
    return str(ROW_LABELS.get(row or "", row or ""))


@register.filter
def dice_label(field: str) -> str:
    """What a follow-up roll is for: "death_die" -> "Target's death roll"."""
    return str(FOLLOW_UP_LABELS.get(field, field))


@register.filter(name="resolver_label")
def resolver_label_filter(resolver: str, system: str = "") -> str:
    """`ranged` -> "Ranged attack"; `{{ roll.resolver|resolver_label:roll.system }}`."""
    return resolver_label(resolver or "", system or "")


@register.filter(name="input_rows")
def input_rows_filter(inputs: dict, system: str = "kolaps") -> list[tuple[str, str]]:
    """A roll's inputs as (label, value) rows, in the words of its system's calculators."""
    words = DICE_CALCULATOR_LABELS if system in DICE_CALCULATOR_SYSTEMS else None
    return input_rows(inputs, system=system or "kolaps", words=words)


@register.filter
def roll_facts(record) -> list[tuple[str, object]]:
    """What a Rapid 40000, Corporates or modern RPG roll came to, beyond its outcome."""
    out = record.outcome
    if index_of(record.system).rolls_of_squads:
        totals = f"{out['a_total']}, {out['b_total']}" if "a_total" in out else None
        rows = [
            (_("Totals: A, B"), totals),
            (_("Successes"), out.get("successes")),
            (_("Failures"), out.get("failures")),
        ]
        return [(name, value) for name, value in rows if value is not None]
    if record.system in DICE_CALCULATOR_SYSTEMS:
        return facts(out)
    return []


@register.filter
def effect_label(effect: str | None) -> str:
    """What an incident or a stray shot does: "disarmed" -> "the attacker is disarmed"."""
    return str(EFFECT_LABELS.get(effect or "", (effect or "").replace("_", " ")))

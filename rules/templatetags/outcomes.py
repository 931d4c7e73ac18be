"""`{{ result.outcome|outcome_label }}`: the translated name of a roll's outcome."""

from django import template

from rules.labels import (
    EFFECT_LABELS,
    FOLLOW_UP_LABELS,
    OUTCOME_LABELS,
    ROW_LABELS,
    resolver_label,
)
from rules.rolls.inputs import input_rows

register = template.Library()


@register.filter
def outcome_label(outcome: str | None) -> str:
    return str(OUTCOME_LABELS.get(outcome or "", outcome or ""))


@register.filter
def row_label(row: str | None) -> str:
    """The translated row of a damage table (K7)."""
    return str(ROW_LABELS.get(row or "", row or ""))


@register.filter
def dice_label(field: str) -> str:
    """What a follow-up roll is for: "death_die" -> "Target's death roll"."""
    return str(FOLLOW_UP_LABELS.get(field, field))


@register.filter(name="resolver_label")
def resolver_label_filter(resolver: str) -> str:
    """`ranged` -> "Ranged attack"."""
    return resolver_label(resolver or "")


@register.filter(name="input_rows")
def input_rows_filter(inputs: dict) -> list[tuple[str, str]]:
    """A roll's inputs as (label, value) rows."""
    return input_rows(inputs)


@register.filter
def effect_label(effect: str | None) -> str:
    """What an incident or a stray shot does: "disarmed" -> "the attacker is disarmed"."""
    return str(EFFECT_LABELS.get(effect or "", (effect or "").replace("_", " ")))

"""`{{ result.outcome|outcome_label }}`: the translated name of a roll's outcome."""

from django import template

from campaigns.rules_views import OUTCOME_LABELS

register = template.Library()


@register.filter
def outcome_label(outcome: str) -> str:
    return str(OUTCOME_LABELS.get(outcome, outcome))

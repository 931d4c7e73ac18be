"""Moving models between apps keeps their tables: on a database filled by `demo_load`,
going back to the layout before the move and forward again finds every row, and the server
rolls (now `rules.RollRecord`) are the rows the encounter log points at."""

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("campaigns", "0010_statistics_per_campaign_only"), ("rules", None)]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _counts(registry, labels):
    return {
        f"{model._meta.app_label}.{model.__name__}": model.objects.count()
        for label in labels
        for model in registry.get_app_config(label).get_models()
    }


# Tables that migrations after BEFORE create (the live encounter's, the Rapid 40000 army
# entries): going back before them drops them.
LATER_TABLES = (
    "rules.Encounter",
    "rules.EncounterEntry",
    "rules.Combatant",
    "campaigns.ChapterArmyEntry",
)


def _before_the_table(counts: dict) -> dict:
    return {model: n for model, n in counts.items() if model not in LATER_TABLES}


@pytest.mark.django_db(transaction=True)
def test_it_finds_every_demo_row_again_after_the_models_moved():
    latest = list(MigrationExecutor(connection).loader.graph.leaf_nodes())
    call_command("demo_load", verbosity=0)
    now = _before_the_table(_counts(apps, ["characters", "campaigns", "rules"]))
    rolls = list(apps.get_model("rules", "RollRecord").objects.order_by("pk").values())
    assert rolls, "the demo records server rolls"
    assert now["campaigns.EncounterEvent"], "the demo has an encounter log"
    try:
        old = _migrate(BEFORE)
        before = _counts(old, ["characters", "campaigns"])
        assert before["campaigns.RollRecord"] == len(rolls)
        assert list(old.get_model("campaigns", "RollRecord").objects.order_by("pk").values()) == (
            rolls
        )
        new = _migrate(latest)
        # The tables that lived through the move (a model added since has no rows to keep).
        kept = {name for name in now if name in before or name.startswith("rules.")}
        after = _counts(new, ["characters", "campaigns", "rules"])
        assert {name: after[name] for name in kept} == {name: now[name] for name in kept}
        events = new.get_model("campaigns", "EncounterEvent").objects.exclude(roll=None)
        linked = {event.roll.pk for event in events.select_related("roll")}
        assert linked and linked <= {roll["id"] for roll in rolls}
    finally:
        _migrate(latest)

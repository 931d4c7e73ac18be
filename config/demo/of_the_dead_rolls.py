"""Of the Dead at the table in the demo: a brawl, a shot and a thrown Molotov rolled on the
server by alice, so "My server rolls" shows the Of the Dead resolvers next to KOLAPS's and
the calculators (/rules/of-the-dead/brawl/) have records to link to."""

from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server

SYSTEM = "of-the-dead"
DEMO_ROLLS = {
    # Alice (Combat 3, a zeal marker from her run) hits a walker at her feet.
    "brawl": {"attacker": {"combat": 3, "zeal": True}, "defender": {"combat": 1, "life": 2}},
    # Her shot at a runner half hidden behind a car, at effective range.
    "shot": {
        "attacker": {"combat": 3},
        "defender": {"reflexes": 2, "cover": "cover", "life": 4},
        "range": "effective",
    },
    # A Molotov thrown 9 cm (3 steps) into a crowd.
    "throw": {"thrower": {"combat": 3, "physique": 4}, "item": "molotov", "distance_cm": 9},
}


def load_of_the_dead_rolls(players) -> None:
    """Each demo roll recorded once for alice."""
    for name, data in DEMO_ROLLS.items():
        if not RollRecord.objects.filter(
            player=players["alice"], system=SYSTEM, resolver=name
        ).exists():
            roll_on_server(player=players["alice"], system=SYSTEM, name=name, data=data)

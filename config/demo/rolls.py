"""Server rolls of alice, so "My server rolls" and its replay check show something."""

from config.demo.keys import once
from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server


def load_server_rolls(players) -> None:
    """A talent test, then Kirmann's shot; each recorded once."""
    alice = players["alice"]
    once(
        "rolls/test",
        RollRecord,
        lambda: roll_on_server(
            player=alice,
            system="kolaps",
            name="test",
            data={"db": 3, "rank": "veteran", "sante": 6},
        ),
        adopt={"player": alice, "resolver": "test"},
    )
    # Kirmann's shot (RULES-NOTES K11's worked example), rolled on the server.
    once(
        "rolls/ranged",
        RollRecord,
        lambda: roll_on_server(
            player=alice,
            system="kolaps",
            name="ranged",
            data={
                "attacker": {
                    "rank": "veteran",
                    "affiliation": "apc",
                    "talents": {"fusil": 2},
                    "armour": "tenue-legere-sti-europa",
                },
                "weapon": "fa-f4",
                "mode": "semi-auto",
                "distance_cm": 45,
                "target": {"order": "movement", "cover": 3, "extra_protection": 3},
            },
        ),
        adopt={"player": alice, "resolver": "ranged"},
    )

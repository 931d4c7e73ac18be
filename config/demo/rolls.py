"""Server rolls of alice, so "My server rolls" and its replay check show something."""

from rules.rolls.models import RollRecord
from rules.rolls.services import roll_on_server


def load_server_rolls(players) -> None:
    """A talent test, then Kirmann's shot; each recorded once."""
    if not RollRecord.objects.filter(player=players["alice"]).exists():
        # A recorded server roll, so "My server rolls" and its replay check show something.
        roll_on_server(
            player=players["alice"],
            system="kolaps",
            name="test",
            data={"db": 3, "rank": "veteran", "sante": 6},
        )
    if not RollRecord.objects.filter(player=players["alice"], resolver="ranged").exists():
        # Kirmann's shot (RULES-NOTES K11's worked example), rolled on the server.
        roll_on_server(
            player=players["alice"],
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
        )

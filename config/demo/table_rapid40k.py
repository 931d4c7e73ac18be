"""A live Rapid 40000 game: alice's Ultramarines against bruno's Waaagh, a pick-up game
alice organises (bruno shared his list with her by link, as a player would), played a little
through the services as at the table: the Escouade Tactique goes into overwatch, the Boyz de
la Dent charge the Escouade d'Assaut (a server roll), the Tactique shoots at the Boyz du
Kraneur (a server roll). bruno plays his squads from his phone. Idempotent: made once, then
left as the demo users leave it."""

from characters.rapid40k import services as armies
from characters.rapid40k.models import Rapid40kArmy
from config.demo.keys import once, recall
from rules.table.models import Combatant, Encounter
from rules.table.services import ActionInput, encounter_act, encounter_create_armies

DEMO_RAPID40K_TABLE = "Les docks : escarmouche"


def _act(player, encounter: Encounter, **action) -> None:
    encounter.refresh_from_db()
    encounter_act(
        actor=player, encounter=encounter, version=encounter.version, action=ActionInput(**action)
    )


def _game(alice, bruno, marines: Rapid40kArmy, orks: Rapid40kArmy) -> Encounter:
    if not orks.share_token:
        orks = armies.army_share(actor=bruno, army=orks, version=orks.version, shared=True)
    encounter = encounter_create_armies(
        actor=alice, armies=[marines, orks], title=DEMO_RAPID40K_TABLE
    )
    ids = {c.name: c.pk for c in Combatant.objects.filter(encounter=encounter)}
    tactique, assaut = ids["Escouade Tactique"], ids["Escouade d'Assaut"]
    _act(alice, encounter, kind="set_overwatch", actor=tactique, target=tactique)
    _act(bruno, encounter, kind="melee", actor=ids["Boyz de la Dent"], target=assaut,
         options={"charged": True})  # fmt: skip
    _act(alice, encounter, kind="overwatch", actor=tactique, target=ids["Boyz du Kraneur"])
    return encounter


def load_table_rapid40k(players) -> Encounter | None:
    alice, bruno = players["alice"], players["bruno"]
    marines = recall("rapid40k/army/marines", Rapid40kArmy)
    orks = recall("rapid40k/army/orks", Rapid40kArmy)
    if marines is None or orks is None:
        return None
    return once("rapid40k/table", Encounter, lambda: _game(alice, bruno, marines, orks))

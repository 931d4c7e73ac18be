"""KOLAPS at the table: the system's adapter and what it reads and changes.

- `adapter`: `KolapsTable`, the system's `rules.table.adapter.TableAdapter` (its actions,
  phases and verbs), registered in `rules.table.systems`;
- `combatants`: who fights, from a unit as it is or as its chapter froze it, and what a
  figure's card says of it (its weapons, armed fists, K18's notes);
- `actions`: the engine resolvers' inputs built from the live state, and what their outcomes
  change on it (wounds, Moral, K18's events, the stray shots, the end phase's steps);
- `log`: the log's lines of the talent rolls and of a stray shot's choice.

Nothing here saves a combatant or an encounter: the service does, under its lock.
"""

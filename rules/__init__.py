"""How it resolves: the app that resolves every encounter server-side.

`rules.engine` is the pure rules of each game system (no Django, no I/O); the feature
folders around it are the web side: `calculators/` (odds pages and the rules API),
`rolls/` (server rolls, recorded and replayable) and `table/` (the encounter of a chapter
being played).
"""

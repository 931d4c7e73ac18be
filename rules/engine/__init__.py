"""The rules engine: the rules of the game systems Chronique serves, in pure Python.

Nothing here imports Django or touches I/O beyond reading the package's own data files;
randomness is passed in. Apps convert their models to plain data at the boundary.
A test fails if any module under `rules/engine/` imports `django`.
"""

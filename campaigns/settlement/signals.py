"""What the settlement tells whoever listens.

`settlement_step_reached` is sent with `step` at each named point of applying a settlement
(`start`, `claimed`, `participant-<n>`, `ledger`, `survival-points`, `statistics`,
`before-commit`, `committed`). Nothing listens in production; the worker tests connect a
receiver in the worker they start, to pause the task at a step and kill it there.
"""

from django.dispatch import Signal

settlement_step_reached = Signal()

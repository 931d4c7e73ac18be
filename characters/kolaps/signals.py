"""Signals other parts of Chronique hook into.

`unit_changed` is sent by `characters.kolaps.services` inside the transaction of every change
to a unit or to one of its members (when the unit is recomputed), with `unit_id`. A receiver
that starts work must defer it to the commit, so a rolled-back change starts nothing. The
services send a signal rather than enqueue the task that renders the unit's pages ahead
(`tasks.py`): that task renders with the views, which call the services.
"""

from django.dispatch import Signal

unit_changed = Signal()

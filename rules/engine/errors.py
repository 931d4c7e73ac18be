"""The one exception type of rule input: the field at fault, and numbers for its sentence.

The rules speak English to developers; the web layer turns `field` (and `params`) into a
translated sentence for the player.
"""

from __future__ import annotations

from typing import Any


class RuleInputError(ValueError):
    def __init__(self, field: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.params = params

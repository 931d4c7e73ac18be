"""What the pages of every system's character sheets share: a sheet form's write, with the
service's refusal shown on the form."""

from collections.abc import Callable
from typing import TypeVar

from characters.permissions import Refusal

Written = TypeVar("Written")


def sheet_saved(form, write: Callable[..., Written]) -> Written | None:
    """`write(**form.sheet())` (a create or an update service) when the form is valid: what
    it wrote, or None with the reason on the form (the form's own errors, or the service's
    refusal shown on its field)."""
    if not form.is_valid():
        return None
    try:
        return write(**form.sheet())
    except Refusal as refusal:
        refusal.show_on(form)
        return None

"""Names and titles are one line of text.

A name or title travels into e-mail headers (a notification's subject), page titles,
iCalendar lines and log lines: a line break there forges a header (`\\r\\nX-Injected: yes`
made every mail of a campaign fail) and the other control characters garble what shows
them. Each model that holds one declares it in `ONE_LINE_FIELDS` (copies of a name, a
chapter's unit result or a table's combatant, follow their source); every save of such a
model, whichever service or import makes it, is refused with `CONTROL_SENTENCE` on that
field (a `Refusal`: beside the field on a page, a 400 with field errors in the API) before
anything is written.
"""

import re

from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from characters.permissions import Refusal

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
CONTROL_SENTENCE = _(
    "A name or title is one line: line breaks, tabs and other control characters are not allowed."
)


def refuse_control_characters(value: str, *, field: str) -> None:
    if CONTROL.search(value or ""):
        raise Refusal(CONTROL_SENTENCE, field=field)


def one_line(text: str) -> str:
    """`text` with each control character replaced by a space (for text stored before
    they were refused, or written where no save runs)."""
    return CONTROL.sub(" ", str(text))


@receiver(pre_save, dispatch_uid="characters-one-line")
def _refuse_on_save(sender, instance, update_fields=None, **kwargs) -> None:
    for field in getattr(sender, "ONE_LINE_FIELDS", ()):
        # A save of other columns (a login's `last_login`) never trips on a name it
        # does not write.
        if update_fields is None or field in update_fields:
            refuse_control_characters(getattr(instance, field), field=field)

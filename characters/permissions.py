"""Who someone is to an object, in one vocabulary shared by every app.

Each object type has one helper (`player_role`, `campaign_role`, ...) returning the
viewer's roles; views and API endpoints ask that helper and nothing else, so a page and
its API twin always agree. Anything a viewer may not see is reported as "not found" so
that ids leak nothing.
"""

from enum import StrEnum

from django.http import Http404
from django.utils.translation import gettext_lazy as _


class Role(StrEnum):
    ANYONE = "anyone"
    OWNER = "owner"
    ORGANISER = "organiser"
    PARTICIPANT = "participant"


class Refusal(Exception):
    """A refusal a user can reach: `message` is a translated sentence for them."""

    status = 400

    def __init__(self, message, *, field: str | None = None, status: int | None = None):
        super().__init__(str(message))
        self.message = message
        self.field = field
        if status is not None:
            self.status = status

    def show_on(self, form) -> None:
        """Put the sentence beside its field when the form has one, else above the form."""
        form.add_error(self.field if self.field in form.fields else None, str(self.message))


class Forbidden(Refusal):
    status = 403


def require(roles: set[Role], allowed: set[Role], *, visible: set[Role] | None = None) -> None:
    """Let the request through when the viewer holds one of `allowed` roles.

    A viewer who cannot even see the object gets a 404; one who sees it but may not do
    this gets a 403 with a sentence.
    """
    if roles & allowed:
        return
    if visible is not None and not roles & visible:
        raise Http404
    raise Forbidden(_("You are not allowed to do this."))

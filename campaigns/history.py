"""A campaign's history lines as sentences: who did what, in the reader's language.

`CampaignEvent` rows keep a verb and its data (names as they were at the time); the campaign
page, the dashboard and their API twins show the sentence this module writes, never the raw
verb. Lines written by the settlement have no actor: their sentence says what happened
without one ("The chapter … was settled"). A verb this module does not know yet still gets
a sentence, never its key.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.bidi import isolate_text
from characters.models import Vocation
from characters.typography import elide

# The sentence of each verb, with the actor first; `%(actor)s` is the player's name.
WITH_ACTOR = {
    "created": gettext_lazy("%(actor)s created the campaign"),
    "imported": gettext_lazy("%(actor)s imported the campaign from an export"),
    "participant_added": gettext_lazy("%(actor)s added %(player)s"),
    "joined": gettext_lazy("%(actor)s joined the campaign"),
    "left": gettext_lazy("%(actor)s left the campaign"),
    "updated": gettext_lazy("%(actor)s edited the campaign"),
    "invitation_created": gettext_lazy("%(actor)s created an invitation link"),
    "invitation_revoked": gettext_lazy("%(actor)s revoked an invitation link"),
    "co_organiser_added": gettext_lazy("%(actor)s named %(player)s co-organiser"),
    "co_organiser_removed": gettext_lazy("%(actor)s removed %(player)s from the co-organisers"),
    "chapter_planned": gettext_lazy("%(actor)s planned the chapter %(title)s"),
    "chapter_updated": gettext_lazy("%(actor)s edited the chapter %(title)s"),
    "chapter_started": gettext_lazy("%(actor)s started the chapter %(title)s"),
    "chapter_closed": gettext_lazy("%(actor)s closed the chapter %(title)s"),
    "vote_opened": gettext_lazy("%(actor)s opened a vote"),
    "vote_closed": gettext_lazy("%(actor)s closed a vote"),
    "vote_closing": gettext_lazy("%(actor)s announced that a vote closes soon"),
    "vote_closing_set": gettext_lazy("%(actor)s changed when a vote closes"),
    "ballot_cast": gettext_lazy("%(actor)s cast a ballot"),
    "vocation_chosen": gettext_lazy("%(actor)s gave %(vocation)s to %(player)s"),
    "vocation_released": gettext_lazy("%(actor)s released the vocation of %(player)s"),
    "unit_entered": gettext_lazy("%(actor)s entered the unit %(unit_name)s into a chapter"),
    "unit_withdrawn": gettext_lazy("%(actor)s withdrew the unit %(unit_name)s from a chapter"),
    "army_entered": gettext_lazy("%(actor)s entered the army list %(army_name)s into a chapter"),
    "army_withdrawn": gettext_lazy("%(actor)s withdrew the army list %(army_name)s from a chapter"),
    "character_entered": gettext_lazy(
        "%(actor)s entered the character %(character_name)s into a chapter"
    ),
    "character_withdrawn": gettext_lazy(
        "%(actor)s withdrew the character %(character_name)s from a chapter"
    ),
    "settlement_requested": gettext_lazy("%(actor)s confirmed the settlement of %(title)s"),
    "settlement_reopened": gettext_lazy("%(actor)s reopened the settlement of %(title)s"),
    "encounter_roll": gettext_lazy("%(actor)s recorded in %(title)s: a roll of %(player)s"),
}
# Lines that say whom a roll hit.
ENCOUNTER_HIT = gettext_lazy(
    "%(actor)s recorded in %(title)s: %(player)s hits %(target)s (%(damage)s damage)"
)
# Lines without an actor: what the settlement, or a vote's closing date, did on its own.
WITHOUT_ACTOR = {
    "chapter_settled": gettext_lazy("The chapter %(title)s was settled"),
    "unit_member_left": gettext_lazy("%(character)s left the unit %(unit_name)s after the chapter"),
    "vote_closed": gettext_lazy("A vote closed at its closing date"),
    "vote_closing": gettext_lazy(
        "A vote closes soon: the players who have not voted were reminded"
    ),
}


class _Blank(dict):
    """The data of a line, where a key an older line lacks reads as an empty name."""

    def __missing__(self, key: str) -> str:
        return ""


def event_sentence(actor: str, verb: str, data: dict) -> str:
    """The line's sentence in the active language; each name in it isolated, so that one
    typed right to left (or with bidi controls) does not reorder the sentence around it, and
    "de"/"que" before it elided in French."""
    return elide(_sentence(actor, verb, data))


def _sentence(actor: str, verb: str, data: dict) -> str:
    values = _Blank(
        {key: isolate_text(v) if isinstance(v, str) else v for key, v in (data or {}).items()},
        actor=isolate_text(actor),
    )
    if verb == "vocation_chosen" and values["vocation"] in Vocation.values:
        values["vocation"] = Vocation(values["vocation"]).label
    if not actor and verb in WITHOUT_ACTOR:
        return str(WITHOUT_ACTOR[verb]) % values
    if verb == "encounter_roll" and values["target"]:
        return str(ENCOUNTER_HIT) % values
    if verb in WITH_ACTOR:
        if not actor:
            values["actor"] = _("Chronique")
        return str(WITH_ACTOR[verb]) % values
    if verb in WITHOUT_ACTOR:
        return str(WITHOUT_ACTOR[verb]) % values
    return _("%(actor)s changed the campaign") % {"actor": values["actor"] or _("Chronique")}

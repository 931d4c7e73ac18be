"""Opt-in e-mail notifications: the player's choice, the unsubscribe link, and the sending.

`event_notify` is what the task runs: for each member of the campaign who opted in (never
the one who did it), it claims the (line, player) row and sends the mail in the same
transaction, so a redelivered task sends nothing twice.
"""

import logging
import smtplib
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import BadHeaderError, send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from campaigns.models import (
    Ballot,
    CampaignEvent,
    Membership,
    MembershipRole,
    Vote,
    VoteStatus,
)
from campaigns.notifications.models import (
    NotificationChange,
    NotificationSent,
    NotificationSubscription,
)
from campaigns.services import require_manager
from characters.bidi import isolate_text
from characters.one_line import one_line
from characters.permissions import Refusal

logger = logging.getLogger(__name__)

MOVING_FIELDS = {"starts_at", "place"}
# What fails one recipient's mail without saying anything of the next one's.
RECIPIENT_FAILURES = (
    BadHeaderError,
    ValueError,
    smtplib.SMTPRecipientsRefused,
    smtplib.SMTPDataError,
    smtplib.SMTPSenderRefused,
)
SUBJECTS = {
    "chapter_planned": gettext_lazy("New chapter planned in %(campaign)s: %(title)s"),
    "chapter_moved": gettext_lazy("Chapter moved in %(campaign)s: %(title)s"),
    "vote_opened": gettext_lazy("A vote is open in %(campaign)s"),
    "vote_closing": gettext_lazy("A vote closes soon in %(campaign)s: your ballot is awaited"),
    "chapter_settled": gettext_lazy("The settlement of %(title)s is done (%(campaign)s)"),
}


def subscription_for(player) -> NotificationSubscription:
    """The player's row, or an unsaved one (off) when they never chose: reading writes
    nothing."""
    found = NotificationSubscription.objects.filter(player=player).first()
    return found or NotificationSubscription(player=player)


# The sentence of each line of a player's notification history (`NotificationChange`).
CHANGE_SENTENCES = {
    "notifications_on": gettext_lazy(
        "%(actor)s turned the e-mail notifications on, in %(language)s"
    ),
    "notifications_off": gettext_lazy("%(actor)s turned the e-mail notifications off"),
    "notifications_language": gettext_lazy(
        "%(actor)s chose to receive the e-mails in %(language)s"
    ),
    "unsubscribed": gettext_lazy("The unsubscribe link of an e-mail turned the notifications off"),
}
HISTORY_LINES = 20
# The language of the mails, as the sentences above name it ("in French").
LANGUAGE_NAMES = {
    "fr": pgettext_lazy("language of the mails", "French"),
    "en": pgettext_lazy("language of the mails", "English"),
}


@dataclass(frozen=True)
class NotificationHistoryLine:
    at: datetime
    sentence: str


def notifications_set(*, player, enabled: bool, language: str = "fr") -> NotificationSubscription:
    """Opt in or out; the mails speak the language the player had when they chose. A change
    (on, off, another language) appends a line to the player's notification history."""
    if not player.email:
        raise Refusal(_("Add an e-mail address to your account first."), field="enabled")
    with transaction.atomic():
        NotificationSubscription.objects.get_or_create(player=player)
        subscription = NotificationSubscription.objects.select_for_update().get(player=player)
        before = (subscription.enabled, subscription.language)
        subscription.enabled = bool(enabled)
        subscription.language = language if language in dict(settings.LANGUAGES) else "fr"
        subscription.save(update_fields=["enabled", "language", "updated_at"])
        verb = _change_verb(before, (subscription.enabled, subscription.language))
        if verb:
            NotificationChange.objects.create(
                player=player,
                actor=player,
                verb=verb,
                data={"enabled": subscription.enabled, "language": subscription.language},
            )
    return subscription


def _change_verb(before: tuple[bool, str], after: tuple[bool, str]) -> str:
    if before[0] != after[0]:
        return "notifications_on" if after[0] else "notifications_off"
    if after[0] and before[1] != after[1]:
        return "notifications_language"
    return ""


def notification_history(player) -> list[NotificationHistoryLine]:
    """The latest lines of the player's notification history, newest first, as sentences in
    the active language (one query)."""
    rows = (
        NotificationChange.objects.filter(player=player)
        .order_by("-at", "-pk")
        .values_list("at", "verb", "data", "actor__display_name", "actor__username")[:HISTORY_LINES]
    )
    lines = []
    for at, verb, data, display_name, username in rows:
        language = (data or {}).get("language", "")
        values = {
            "actor": isolate_text(display_name or username or _("Chronique")),
            "language": str(LANGUAGE_NAMES.get(language, language)),
        }
        template = CHANGE_SENTENCES.get(verb)
        sentence = str(template) % values if template else _("The notifications changed")
        lines.append(NotificationHistoryLine(at=at, sentence=sentence))
    return lines


def notifications_unsubscribe(*, token: str) -> NotificationSubscription:
    """The link of every mail: works without logging in; saying it twice changes nothing."""
    with transaction.atomic():
        subscription = (
            NotificationSubscription.objects.select_for_update().filter(token=token).first()
        )
        if subscription is None:
            raise Refusal(_("This unsubscribe link is unknown."), status=404)
        if subscription.enabled:
            subscription.enabled = False
            subscription.save(update_fields=["enabled", "updated_at"])
            NotificationChange.objects.create(
                player_id=subscription.player_id,
                actor=None,
                verb="unsubscribed",
                data={"enabled": False, "language": subscription.language},
            )
    return subscription


def vote_remind(*, actor, vote: Vote) -> CampaignEvent:
    """An organiser says the vote closes soon: a history line, and an e-mail to each
    opted-in player who has not voted yet. A vote with a closing date also reminds its
    players on its own, once (`votes_remind_due`)."""
    require_manager(actor, vote.campaign)
    with transaction.atomic():
        locked = Vote.objects.select_for_update().get(pk=vote.pk)
        if locked.status != VoteStatus.OPEN:
            raise Refusal(_("This vote is closed."), field="vote")
        return CampaignEvent.objects.create(
            campaign=vote.campaign,
            actor=actor,
            verb="vote_closing",
            data={"vote": locked.pk, "kind": locked.kind},
        )


def votes_remind_due(*, now: datetime | None = None) -> list[int]:
    """What the periodic task runs: each open vote that closes within
    `VOTE_REMINDER_BEFORE` and has not reminded yet claims its reminder under its row's
    lock (`reminded_at`, set once) and writes a "closes soon" line without actor; the line
    mails the opted-in players who have not voted (`event_notify`, once per player).
    Returns the ids of the votes it reminded."""
    now = now or timezone.now()
    soon = now + settings.VOTE_REMINDER_BEFORE
    due = Vote.objects.filter(
        status=VoteStatus.OPEN,
        reminded_at__isnull=True,
        closes_at__gt=now,
        closes_at__lte=soon,
    ).order_by("closes_at")
    reminded = []
    for pk in list(due.values_list("pk", flat=True)):
        with transaction.atomic():
            locked = (
                Vote.objects.select_for_update(skip_locked=True)
                .filter(
                    pk=pk,
                    status=VoteStatus.OPEN,
                    reminded_at__isnull=True,
                    closes_at__gt=now,
                    closes_at__lte=soon,  # read again under the lock: it may have moved
                )
                .first()
            )
            if locked is None or locked.closes_at is None:
                continue
            locked.reminded_at = now
            locked.save(update_fields=["reminded_at"])
            CampaignEvent.objects.create(
                campaign_id=locked.campaign_id,
                actor=None,
                verb="vote_closing",
                data={
                    "vote": locked.pk,
                    "kind": locked.kind,
                    "closes_at": locked.closes_at.isoformat(),
                },
            )
        reminded.append(pk)
    return reminded


def subscription_for_token(token: str) -> NotificationSubscription:
    subscription = NotificationSubscription.objects.filter(token=token).first()
    if subscription is None:
        raise Refusal(_("This unsubscribe link is unknown."), status=404)
    return subscription


def _kind(event: CampaignEvent) -> str | None:
    if event.verb == "chapter_updated":
        moved = MOVING_FIELDS & set(event.data.get("fields", []))
        return "chapter_moved" if moved else None
    return event.verb if event.verb in SUBJECTS else None


def _recipients(event: CampaignEvent):
    """Opted-in members of the campaign with an e-mail, but the one who did it; for a vote,
    only its voters (the players)."""
    members = Membership.objects.filter(campaign_id=event.campaign_id)
    if event.verb in ("vote_opened", "vote_closing"):
        members = members.filter(role=MembershipRole.PLAYER)
    if event.verb == "vote_closing":
        voted = Ballot.objects.filter(vote_id=(event.data or {}).get("vote"))
        members = members.exclude(player_id__in=voted.values("voter_id"))
    ids = set(members.values_list("player_id", flat=True))
    if not event.verb.startswith("vote_"):
        ids.add(event.campaign.organiser_id)
    ids.discard(event.actor_id)
    return (
        NotificationSubscription.objects.filter(player_id__in=ids, enabled=True)
        .exclude(player__email="")
        .select_related("player")
        .order_by("player_id")
    )


def _link(event: CampaignEvent) -> str:
    data = event.data or {}
    if event.verb in ("vote_opened", "vote_closing") and data.get("vote"):
        return reverse("vote-detail", args=[data["vote"]])
    if data.get("chapter"):
        return reverse("chapter-detail", args=[data["chapter"]])
    return reverse("campaign-detail", args=[event.campaign_id])


def event_notify(*, event_id: int) -> int:
    """Send the event's notification to each opted-in member once; returns how many went."""
    event = CampaignEvent.objects.select_related("campaign").filter(pk=event_id).first()
    kind = _kind(event) if event is not None else None
    if kind is None:
        return 0
    sent = 0
    for subscription in _recipients(event):
        try:
            with transaction.atomic():
                NotificationSent.objects.create(event=event, player=subscription.player)
                _send(event, kind, subscription)
        except IntegrityError:
            continue  # sent already, by an earlier delivery of this task
        except RECIPIENT_FAILURES:
            # This mail cannot go (an address the server refuses, a header it cannot
            # carry): the others still go. Its row is rolled back with it, so a later
            # delivery of the task tries it again. A lost connection is not caught: the
            # task retries, and what was sent is not sent twice.
            logger.exception(
                "Notification %s to player %s failed", event.pk, subscription.player_id
            )
            continue
        sent += 1
    return sent


def _closing(event: CampaignEvent) -> str:
    """The vote's closing date, in the active language and the site's time zone."""
    value = parse_datetime((event.data or {}).get("closes_at") or "")
    return date_format(timezone.localtime(value), "DATETIME_FORMAT") if value else ""


def _shown(name: str) -> str:
    """A name as a mail shows it: one line (a header cannot be forged with text stored
    before control characters were refused), isolated when it could reorder the words
    around it (characters/bidi.py)."""
    return isolate_text(one_line(name))


def _send(event: CampaignEvent, kind: str, subscription: NotificationSubscription) -> None:
    site = settings.SITE_URL.rstrip("/")
    values = {
        "campaign": _shown(event.campaign.name),
        "title": _shown((event.data or {}).get("title", "")),
    }
    with translation.override(subscription.language):
        subject = str(SUBJECTS[kind]) % values
        body = render_to_string(
            "campaigns/notifications/email.txt",
            {
                "kind": kind,
                "player_name": _shown(subscription.player.public_name),
                "campaign": values["campaign"],
                "title": values["title"],
                "closes_at": _closing(event),
                "link": site + _link(event),
                "unsubscribe": site
                + reverse("notifications-unsubscribe", args=[subscription.token]),
            },
        )
    send_mail(subject, body, None, [subscription.player.email])

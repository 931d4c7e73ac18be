"""Opt-in e-mail notifications: the player's choice, the unsubscribe link, and the sending.

`event_notify` is what the task runs: for each member of the campaign who opted in (never
the one who did it), it claims the (line, player) row and sends the mail in the same
transaction, so a redelivered task sends nothing twice.
"""

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import (
    Ballot,
    CampaignEvent,
    Membership,
    MembershipRole,
    Vote,
    VoteStatus,
)
from campaigns.notifications.models import NotificationSent, NotificationSubscription
from campaigns.services import require_manager
from characters.permissions import Refusal

MOVING_FIELDS = {"starts_at", "place"}
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


def notifications_set(*, player, enabled: bool, language: str = "fr") -> NotificationSubscription:
    """Opt in or out; the mails speak the language the player had when they chose."""
    if not player.email:
        raise Refusal(_("Add an e-mail address to your account first."), field="enabled")
    with transaction.atomic():
        NotificationSubscription.objects.get_or_create(player=player)
        subscription = NotificationSubscription.objects.select_for_update().get(player=player)
        subscription.enabled = bool(enabled)
        subscription.language = language if language in dict(settings.LANGUAGES) else "fr"
        subscription.save(update_fields=["enabled", "language", "updated_at"])
    return subscription


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
    return subscription


def vote_remind(*, actor, vote: Vote) -> CampaignEvent:
    """An organiser says the vote closes soon: a history line, and an e-mail to each
    opted-in player who has not voted yet (votes have no deadline of their own: closing
    is the organisers' act)."""
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
        sent += 1
    return sent


def _send(event: CampaignEvent, kind: str, subscription: NotificationSubscription) -> None:
    site = settings.SITE_URL.rstrip("/")
    values = {"campaign": event.campaign.name, "title": (event.data or {}).get("title", "")}
    with translation.override(subscription.language):
        subject = str(SUBJECTS[kind]) % values
        body = render_to_string(
            "campaigns/notifications/email.txt",
            {
                "kind": kind,
                "player": subscription.player,
                "campaign": event.campaign.name,
                "title": values["title"],
                "link": site + _link(event),
                "unsubscribe": site
                + reverse("notifications-unsubscribe", args=[subscription.token]),
            },
        )
    send_mail(subject, body, None, [subscription.player.email])

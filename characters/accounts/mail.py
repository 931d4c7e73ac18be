"""The e-mails a player account receives; called by `characters.accounts.tasks`.

Each claims its row under a lock and records that the mail went in the same transaction,
so a redelivered task does nothing.
"""

from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from characters.models import Player


def player_send_welcome(*, player_id: int, language: str = "fr") -> bool:
    """Send the welcome e-mail exactly once; returns False when it was already sent.

    The row is claimed under a lock and `welcomed_at` written in the same transaction,
    so a redelivered task finds it set and does nothing.
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None or player.welcomed_at is not None:
            return False
        with translation.override(language):
            subject = _("Welcome to Chronique")
            body = render_to_string("registration/welcome_email.txt", {"player": player})
        send_mail(subject, body, None, [player.email])
        player.welcomed_at = timezone.now()
        player.save(update_fields=["welcomed_at"])
    return True

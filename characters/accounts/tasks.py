"""Background work for player accounts: ids in, one call, idempotent by state."""

import smtplib

from celery import shared_task

from characters.accounts import mail


@shared_task(bind=True, acks_late=True, max_retries=5)
def player_send_welcome(self, player_id: int, language: str = "fr") -> bool:
    try:
        return mail.player_send_welcome(player_id=player_id, language=language)
    except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, ConnectionError) as exc:
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc

"""Background work for player accounts: ids in, one service call, idempotent by state."""

import smtplib

from celery import shared_task


@shared_task(bind=True, acks_late=True, max_retries=5)
def player_send_welcome(self, player_id: int, language: str = "fr") -> bool:
    from characters.accounts.services import player_send_welcome as send

    try:
        return send(player_id=player_id, language=language)
    except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, ConnectionError) as exc:
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc

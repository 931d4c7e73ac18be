"""Invitation, calendar, share and spectator tokens: unguessable, revocable at once, never
logged."""

import logging

import pytest
from django.urls import reverse

from campaigns.services import (
    calendar_feed_token,
    campaign_create,
    invitation_create,
    invitation_revoke,
)
from characters.kolaps import services as kolaps
from config.logging import RedactTokens, redact
from rules.table.services import encounter_revoke_spectator_link
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db


@pytest.fixture
def tokens():
    organiser = PlayerFactory(username="orga")
    campaign = campaign_create(organiser=organiser, name="Lyon", system="of-the-dead")
    invitation = invitation_create(actor=organiser, campaign=campaign)
    feed = calendar_feed_token(player=organiser)
    unit = kolaps.unit_create(owner=organiser, name="Unité")
    unit = kolaps.unit_share(actor=organiser, unit=unit, version=unit.version)
    return organiser, invitation, feed, unit


def test_every_token_is_long_random_and_different(tokens):
    _organiser, invitation, feed, unit = tokens
    values = [invitation.token, feed.token, unit.share_token]
    assert len(set(values)) == 3
    # 24 random bytes or more, URL-safe: 2**192 guesses.
    assert all(len(value) >= 32 for value in values), values


def test_a_revoked_token_answers_404_at_once(client, tokens):
    organiser, invitation, feed, unit = tokens
    invitation_revoke(actor=organiser, invitation=invitation)
    client.force_login(PlayerFactory(username="guest"))
    assert client.get(reverse("campaign-join", args=[invitation.token])).status_code == 404
    old_feed = feed.token
    calendar_feed_token(player=organiser, rotate=True)
    assert client.get(reverse("calendar-feed", args=[old_feed])).status_code == 404
    old_share = unit.share_token
    unit = kolaps.unit_unshare(actor=organiser, unit=unit, version=unit.version)
    assert client.get(reverse("kolaps-shared", args=[old_share])).status_code == 404


def test_no_token_reaches_the_logs(client, tokens, caplog):
    organiser, invitation, feed, unit = tokens
    secrets = [invitation.token, feed.token, unit.share_token]
    invitation_revoke(actor=organiser, invitation=invitation)
    kolaps.unit_unshare(actor=organiser, unit=unit, version=unit.version)
    handlers = logging.getLogger().handlers
    assert any(isinstance(f, RedactTokens) for h in handlers for f in h.filters)
    caplog.handler.addFilter(RedactTokens())
    with caplog.at_level(logging.INFO):
        client.get(f"/join/{invitation.token}/")  # revoked: a 404, which Django logs
        client.get(f"/kolaps/shared/{unit.share_token}/")
        client.get(f"/calendar/{feed.token}.ics")
        logging.getLogger("django.server").info('"GET /calendar/%s.ics HTTP/1.1" 200 0', feed.token)
    logged = caplog.text
    assert "Not Found" in logged, "the 404s were logged"
    assert "[token]" in logged
    assert not any(secret in logged for secret in secrets), logged


def test_redaction_keeps_ordinary_paths_readable():
    assert redact("Not Found: /campaigns/12/chapters/") == "Not Found: /campaigns/12/chapters/"
    assert redact("GET /rules/kolaps/ranged/ 200") == "GET /rules/kolaps/ranged/ 200"
    long = "Abcdefghijklmnopqrstuvwxyz012345_-AB"
    assert redact(f"Not Found: /join/{long}/") == "Not Found: /join/[token]/"


def test_it_keeps_a_revoked_unit_link_dead_when_the_unshare_is_undone(client, tokens):
    organiser, _invitation, _feed, unit = tokens
    old_share = unit.share_token
    unit = kolaps.unit_unshare(actor=organiser, unit=unit, version=unit.version)
    client.force_login(organiser)
    answer = client.post(
        reverse("api-kolaps-unit-undo", args=[unit.pk]),
        {"version": unit.version},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    unit.refresh_from_db()
    # Shared again, under a new link: whoever had the revoked one still gets nothing.
    assert unit.share_token and unit.share_token != old_share
    assert len(unit.share_token) >= 32
    client.logout()
    assert client.get(reverse("kolaps-shared", args=[old_share])).status_code == 404
    assert client.get(reverse("api-kolaps-shared", args=[old_share])).status_code == 404
    assert client.get(reverse("kolaps-shared", args=[unit.share_token])).status_code == 200


def test_it_keeps_a_revoked_spectator_link_out_of_the_logs(client, caplog):
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    token = encounter.spectator_token
    assert len(token) >= 32
    encounter_revoke_spectator_link(actor=organiser, encounter=encounter)
    caplog.handler.addFilter(RedactTokens())
    with caplog.at_level(logging.INFO):
        assert client.get(f"/table/watch/{token}/").status_code == 404
    assert "Not Found" in caplog.text and "[token]" in caplog.text
    assert token not in caplog.text

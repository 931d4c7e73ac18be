"""The demo finds what it made whatever users did since: `make run` again after a user
renamed the demo campaign and made another campaign of the demo's name used to refuse to
start ("N'inscrivez de résultats que pour les joueurs de la campagne.") or to make a
second demo campaign."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.http import Http404
from django.urls import reverse

from campaigns.models import Campaign, Chapter
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.models import Player, Profile
from characters.rapid40k.models import Rapid40kArmy
from config import demo
from config.demo.accounts import DEMO_CAMPAIGN
from config.demo.kolaps_campaign import DEMO_KOLAPS_CAMPAIGN
from config.demo.kolaps_units import DEMO_KOLAPS_VALID
from config.demo.rapid40k import DEMO_MARINES, DEMO_RAPID40K_CAMPAIGN
from config.models import DemoObject
from rules.rolls.models import RollRecord

pytestmark = pytest.mark.django_db


def load() -> str:
    out = StringIO()
    call_command("demo_load", stdout=out)
    return out.getvalue()


def counts() -> dict:
    return {
        model.__name__: model.objects.count()
        for model in (
            Player,
            Campaign,
            Chapter,
            KolapsUnit,
            KolapsCharacter,
            Profile,
            RollRecord,
            Rapid40kArmy,
        )
    }


def test_the_demo_loads_again_after_users_renamed_and_imitated_its_rows(client):
    load()
    before = counts()
    orga = Player.objects.get(username="orga")
    alice = Player.objects.get(username="alice")
    demo_campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    kolaps_campaign = Campaign.objects.get(name=DEMO_KOLAPS_CAMPAIGN)

    # What the fuzzer did as the demo's organiser, through the API as any client would.
    client.force_login(orga)
    made = client.post(
        reverse("api-campaign-list"),
        {"name": DEMO_CAMPAIGN, "system": "kolaps"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    for campaign in (demo_campaign, kolaps_campaign):
        renamed = client.patch(
            reverse("api-campaign-detail", args=[campaign.pk]),
            {"name": f"Renommée {campaign.pk}"},
            content_type="application/json",
        )
        assert renamed.status_code == 200, renamed.content
    for chapter in Chapter.objects.filter(campaign__in=[demo_campaign, kolaps_campaign]):
        retitled = client.patch(
            reverse("api-chapter-detail", args=[chapter.pk]),
            {"title": f"Chapitre {chapter.pk}"},
            content_type="application/json",
        )
        assert retitled.status_code in (200, 400), retitled.content  # closed ones refuse
    client.force_login(alice)
    unit = KolapsUnit.objects.get(name=DEMO_KOLAPS_VALID)
    renamed = client.post(
        reverse("api-kolaps-unit-change", args=[unit.pk]),
        {"op": "rename", "version": unit.version, "name": "Ma section"},
        content_type="application/json",
    )
    assert renamed.status_code == 200, renamed.content

    out = load()

    assert "skipped" not in out, out
    assert counts() == {**before, "Campaign": before["Campaign"] + 1}, "nothing made twice"
    assert Campaign.objects.get(pk=demo_campaign.pk).name == f"Renommée {demo_campaign.pk}"
    assert KolapsUnit.objects.get(pk=unit.pk).name == "Ma section", "users' edits are kept"


def test_it_loads_the_rapid40k_demo_again_after_users_renamed_and_imitated_it(client):
    load()
    before = counts()
    orga = Player.objects.get(username="orga")
    alice = Player.objects.get(username="alice")
    campaign = Campaign.objects.get(name=DEMO_RAPID40K_CAMPAIGN)
    marines = Rapid40kArmy.objects.get(name=DEMO_MARINES)

    client.force_login(orga)
    renamed = client.patch(
        reverse("api-campaign-detail", args=[campaign.pk]),
        {"name": "Renommée"},
        content_type="application/json",
    )
    assert renamed.status_code == 200, renamed.content
    made = client.post(
        reverse("api-campaign-list"),
        {"name": DEMO_RAPID40K_CAMPAIGN, "system": "of-the-dead"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    client.force_login(alice)
    renamed = client.post(
        reverse("api-rapid40k-army-change", args=[marines.pk]),
        {"action": "settings", "version": marines.version, "name": "Mes marines"},
        content_type="application/json",
    )
    assert renamed.status_code == 200, renamed.content

    out = load()

    assert "skipped" not in out, out
    assert counts() == {**before, "Campaign": before["Campaign"] + 1}, "nothing made twice"
    assert Rapid40kArmy.objects.get(pk=marines.pk).name == "Mes marines"
    # Its planned chapter and its settled one (config/demo/system_settlements.py), once each.
    assert campaign.chapters.count() == 2


def test_what_users_deleted_stays_deleted_and_the_rest_still_loads(client):
    load()
    Campaign.objects.get(name=DEMO_KOLAPS_CAMPAIGN).delete()
    before = counts()
    out = load()
    assert "skipped" not in out, out
    assert counts() == before
    assert DemoObject.objects.filter(key="kolaps/campaign").exists()


def test_an_area_that_fails_is_reported_in_a_line_and_the_others_load(monkeypatch):
    def broken(players):
        raise RuntimeError("the dice are lost")

    monkeypatch.setattr(demo, "load_server_rolls", broken)
    out = load()
    assert "Demo: server rolls skipped (RuntimeError: the dice are lost)." in out
    assert Campaign.objects.filter(name=DEMO_KOLAPS_CAMPAIGN).exists(), "later areas load"
    assert not DemoObject.objects.filter(key__startswith="rolls/").exists()


def test_it_names_an_error_without_a_message_by_its_type_alone(monkeypatch):
    def not_found(players):
        raise Http404

    monkeypatch.setattr(demo, "load_server_rolls", not_found)
    assert "Demo: server rolls skipped (Http404)." in load()

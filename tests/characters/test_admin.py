"""The admin is read-only for staff: it shows players and profiles but adds, changes and
deletes nothing (every change goes through the services, which write the history)."""

import pytest
from django.contrib import admin
from django.urls import reverse

from characters.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    admin = Player.objects.create_superuser("staff", "staff@example.test", "staff-pass-2026")
    client.force_login(admin)
    return client


def test_it_shows_a_player_to_staff_but_offers_no_add_change_or_delete(staff):
    alice = PlayerFactory(username="alice", display_name="Alice")
    listing = staff.get(reverse("admin:characters_player_changelist"))
    assert listing.status_code == 200
    assert "alice" in listing.content.decode()
    assert staff.get(reverse("admin:characters_player_add")).status_code == 403
    page = staff.get(reverse("admin:characters_player_change", args=[alice.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    refused = staff.post(
        reverse("admin:characters_player_change", args=[alice.pk]),
        {"username": "mallory", "email": "mallory@example.test"},
    )
    assert refused.status_code == 403
    deleted = staff.post(
        reverse("admin:characters_player_delete", args=[alice.pk]), {"post": "yes"}
    )
    assert deleted.status_code == 403
    alice.refresh_from_db()
    assert (alice.username, alice.display_name) == ("alice", "Alice")


def test_every_admin_of_chronique_is_read_only(rf):
    request = rf.get("/admin/")
    request.user = Player.objects.create_superuser("root", "root@example.test", "root-pass-2026")
    ours = [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in {"characters", "campaigns", "rules"}
    ]
    assert {model.__name__ for model, _ in ours} >= {"Player", "Profile", "Campaign", "Chapter"}
    for model, model_admin in ours:
        shown = [model_admin] + [inline(model, admin.site) for inline in model_admin.inlines]
        for each in shown:
            assert not each.has_add_permission(request, None), each
            assert not each.has_change_permission(request, None), each
            assert not each.has_delete_permission(request, None), each

"""Rapid 40000 army lists: the builder, its history with undo, the file, the share link,
the comparison, and the query counts of the list page."""

import json

import pytest
from django.urls import reverse

from characters.permissions import Forbidden, Refusal
from characters.rapid40k import services
from characters.rapid40k.models import Rapid40kArmy
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def build(owner, squads=3, name="Ultramarines"):
    """A valid army: a command squad, then troop squads of a sergeant and three marines."""
    army = services.army_create(owner=owner, name=name, faction="space_marines")
    change = services.army_change
    army = change(
        actor=owner,
        army=army,
        version=army.version,
        action="squad_add",
        data={"name": "QG", "slot": "command", "leader": "space_marines:capitaine"},
    )
    army = change(
        actor=owner,
        army=army,
        version=army.version,
        action="fighter_add",
        data={"squad": 0, "profile": "space_marines:soldat", "count": 3},
    )
    for i in range(1, squads):
        army = change(
            actor=owner,
            army=army,
            version=army.version,
            action="squad_add",
            data={"name": f"Escouade {i}", "slot": "troops", "leader": "space_marines:sergent"},
        )
        army = change(
            actor=owner,
            army=army,
            version=army.version,
            action="fighter_add",
            data={"squad": i, "profile": "space_marines:soldat", "count": 3},
        )
    return army


def test_it_prices_a_list_as_it_is_built_and_makes_it_valid(player):
    army = build(player)
    assert army.points == (123 + 3 * 68) + 2 * (88 + 3 * 68)
    assert army.status == Rapid40kArmy.Status.VALID
    assert [s.points for s in army.squads.all()] == [327, 292, 292]


def test_a_half_built_list_is_a_draft_with_its_problems_in_sentences(client, player):
    army = services.army_create(owner=player, name="Waaagh")
    army = services.army_change(
        actor=player,
        army=army,
        version=army.version,
        action="squad_add",
        data={"name": "Boyz", "slot": "troops", "leader": "orks:nob"},
    )
    assert army.status == Rapid40kArmy.Status.DRAFT
    client.force_login(player)
    html = client.get(reverse("rapid40k-army", args=[army.pk])).content.decode()
    html = html.replace("\u00a0", " ").replace("\u202f", " ")
    assert "L\u2019armée demande au moins 1 escouade(s) Commandement ; elle en a 0." in html
    # French counts 0 in the singular ("0 combattant").
    assert "L\u2019escouade Boyz compte 0 combattant en plus de son chef" in html


def test_each_click_updates_the_points_in_the_htmx_fragment(client, player):
    army = build(player)
    client.force_login(player)
    response = client.post(
        reverse("rapid40k-army", args=[army.pk]),
        {"version": army.version, "action": "fighter_count", "squad": 1, "fighter": 0, "count": 4},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="army-body",
    )
    html = response.content.decode()
    assert "<html" not in html
    assert '<output class="big" id="army-points" data-testid="points">979</output>' in html


def test_a_custom_profile_is_priced_by_the_formula(client, player):
    army = build(player)
    client.force_login(player)
    client.post(
        reverse("rapid40k-army", args=[army.pk]),
        {
            "version": army.version,
            "action": "fighter_add",
            "squad": 2,
            "profile": "custom",
            "quality": 3,
            "combat": 4,
            "weapon": "pistolet",
            "special_rules": ["armure", "fort"],
            "count": 1,
        },
    )
    army.refresh_from_db()
    # ceil((5 x 4 + 5 + 3 + 6) x (7 - 3) / 2) = 68
    assert army.points == 911 + 68


def test_a_refused_change_keeps_what_was_typed_and_says_why(client, player):
    army = build(player)
    client.force_login(player)
    response = client.post(
        reverse("rapid40k-army", args=[army.pk]),
        {"version": army.version, "action": "squad_add", "squad_name": "Lost", "slot": "air"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Choisissez le rôle de l\u2019escouade." in html
    assert 'value="Lost"' in html
    army.refresh_from_db()
    assert army.squads.count() == 3


def test_a_stale_version_is_refused_and_nothing_changes(player):
    army = build(player)
    with pytest.raises(services.StaleVersion):
        services.army_change(
            actor=player,
            army=army,
            version=army.version - 1,
            action="settings",
            data={"name": "Other"},
        )


def test_nobody_else_changes_or_sees_an_army(client, player):
    army = build(player)
    other = PlayerFactory()
    with pytest.raises(Forbidden):
        services.army_change(
            actor=other, army=army, version=None, action="settings", data={"name": "Mine"}
        )
    client.force_login(other)
    assert client.get(reverse("rapid40k-army", args=[army.pk])).status_code == 404
    assert client.get(reverse("api-rapid40k-army", args=[army.pk])).status_code == 404


def test_undo_brings_back_the_state_before_the_last_change(player):
    army = build(player)
    army = services.army_change(
        actor=player, army=army, version=army.version, action="squad_remove", data={"squad": 2}
    )
    assert army.points == 911 - 292
    army = services.army_undo(actor=player, army=army, version=army.version)
    assert army.points == 911
    assert [s.name for s in army.squads.all()] == ["QG", "Escouade 1", "Escouade 2"]
    verbs = list(army.changes.values_list("verb", flat=True))
    assert verbs[0] == "created" and verbs[-2:] == ["squad_remove", "undo"]


def test_the_history_page_undoes_the_last_change(client, player):
    army = build(player)
    client.force_login(player)
    url = reverse("rapid40k-army-history", args=[army.pk])
    assert "escouade ajoutée" in client.get(url).content.decode()
    assert client.post(url, {"version": army.version}).status_code == 302
    army.refresh_from_db()
    assert army.squads.get(position=2).fighters == []


def test_an_exported_file_imports_as_the_same_list(client, player):
    army = build(player)
    client.force_login(player)
    text = client.get(reverse("rapid40k-army-export", args=[army.pk])).content.decode()
    payload = json.loads(text)
    assert payload["format"] == "chronique.rapid40k.army"
    response = client.post(reverse("rapid40k-army-import"), {"text": text})
    copy = Rapid40kArmy.objects.exclude(pk=army.pk).get()
    assert response.status_code == 302
    assert (copy.points, copy.status, copy.name) == (army.points, army.status, army.name)
    assert services.army_export(copy) == {**payload}


def test_a_file_with_an_unknown_weapon_is_refused_naming_it(player):
    payload = {
        "format": "chronique.rapid40k.army",
        "format_version": 1,
        "name": "Bad",
        "squads": [
            {
                "name": "A",
                "slot": "troops",
                "leader": {"quality": 3, "combat": 3, "weapon": "laser"},
            }
        ],
    }
    with pytest.raises(Refusal, match="laser"):
        services.army_import(owner=player, payload=payload)
    assert not Rapid40kArmy.objects.exists()


def test_a_shared_link_shows_the_list_to_anyone_until_withdrawn(client, player):
    army = build(player)
    army = services.army_share(actor=player, army=army, version=army.version, shared=True)
    url = reverse("rapid40k-shared", args=[army.share_token])
    assert "911" in client.get(url).content.decode()
    services.army_share(actor=player, army=army, version=army.version, shared=False)
    assert client.get(url).status_code == 404


def test_two_lists_compared_say_whether_they_are_balanced(client, player):
    """The text's example: a sergeant and three marines (292) against a Nob and four
    Boyz (295) are balanced."""
    marines = services.army_create(owner=player, name="SM")
    marines = services.army_import(
        owner=player, payload={**services.army_export(build(player, squads=2)), "name": "SM"}
    )
    orks = services.army_create(owner=player, name="Orks")
    change = services.army_change
    orks = change(
        actor=player,
        army=orks,
        version=orks.version,
        action="squad_add",
        data={"name": "Boss", "slot": "command", "leader": "orks:big_boss"},
    )
    orks = change(
        actor=player,
        army=orks,
        version=orks.version,
        action="fighter_add",
        data={"squad": 0, "profile": "orks:boy", "count": 4},
    )
    orks = change(
        actor=player,
        army=orks,
        version=orks.version,
        action="squad_add",
        data={"name": "Boyz", "slot": "troops", "leader": "orks:nob"},
    )
    orks = change(
        actor=player,
        army=orks,
        version=orks.version,
        action="fighter_add",
        data={"squad": 1, "profile": "orks:boy", "count": 4},
    )
    client.force_login(player)
    body = client.get(reverse("api-rapid40k-compare"), {"a": marines.pk, "b": orks.pk}).json()
    assert (body["a"]["points"], body["b"]["points"]) == (327 + 292, 104 + 224 + 295)
    assert body["difference"] == 4 and body["balanced"] is True


def test_the_api_twin_changes_the_list_with_the_same_checks(client, player):
    army = build(player)
    client.force_login(player)
    url = reverse("api-rapid40k-army-change", args=[army.pk])
    body = {
        "version": army.version,
        "action": "fighter_add",
        "squad": 1,
        "profile": "space_marines:soldat_lance_missile",
        "count": 2,
    }
    answer = client.post(url, body, content_type="application/json").json()
    assert answer["status"] == "draft"
    assert "L\u2019escouade Escouade 1 porte 2 armes spéciales" in answer["problems"][0]
    stale = client.post(url, body, content_type="application/json")
    assert stale.status_code == 409
    assert stale.json()["current"]["points"] == answer["points"]
    bad = client.post(
        url,
        {**body, "version": answer["version"], "profile": "orks:grot"},
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert "orks:grot" in bad.json()["profile"][0]


@pytest.mark.parametrize("squads", [3, 30])
def test_the_list_page_takes_the_same_queries_at_3_and_30_squads(
    client, player, django_assert_num_queries, squads
):
    army = build(player, squads=squads)
    client.force_login(player)
    url = reverse("rapid40k-army", args=[army.pk])
    client.get(url)
    with django_assert_num_queries(2):  # session and user from the cache since the first
        response = client.get(url)
    assert response.content.decode().count('class="card" data-testid="squad-') == squads


@pytest.mark.parametrize("squads", [3, 30])
def test_the_print_page_takes_the_same_queries_at_3_and_30_squads(
    client, player, django_assert_num_queries, squads
):
    army = build(player, squads=squads)
    client.force_login(player)
    with django_assert_num_queries(3):  # user (the session from the cache)
        client.get(reverse("rapid40k-army-print", args=[army.pk]))

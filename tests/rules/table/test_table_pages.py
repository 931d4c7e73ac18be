"""The live encounter's pages and their API twins: what each device sees and may do."""

import pytest
from django.conf import settings
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.urls import reverse
from rest_framework.test import APIClient

from rules.table.models import Combatant, Encounter
from rules.table.selectors import encounter_locked_for_user
from rules.table.services import (
    encounter_advance,
    encounter_create_standalone,
    encounter_set_directive,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, pick_up_encounter, police_unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    police = list(Combatant.objects.filter(encounter=encounter, side="Brigade"))
    hunters = list(Combatant.objects.filter(encounter=encounter, side="Meute"))
    return encounter, organiser, opponent, police, hunters


def _client(client, player):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_page_shows_the_sides_gauges_and_the_action_form(client, game):
    encounter, organiser, *_ = game
    response = _client(client, organiser).get(reverse("table-encounter", args=[encounter.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Brigade" in html and "Meute" in html and 'id="action-form"' in html
    assert f'data-ws-path="/ws/table/{encounter.pk}/"' in html
    assert "js/table-live.js" in html and "<script>" not in html


def test_the_state_partial_is_a_fragment(client, game):
    encounter, organiser, *_ = game
    response = _client(client, organiser).get(
        reverse("table-encounter", args=[encounter.pk]),
        headers={"HX-Request": "true", "HX-Target": "table-state"},
    )
    html = response.content.decode()
    assert "<html" not in html and 'id="table-state"' in html and 'data-version="1"' in html


def test_a_wound_applied_on_the_page_changes_the_gauge_and_the_log(client, game):
    encounter, organiser, _opponent, _police, hunters = game
    url = reverse("table-act", args=[encounter.pk])
    response = _client(client, organiser).post(
        url,
        {
            "version": 1,
            "kind": "wound",
            "target": hunters[0].pk,
            "wound": "benign",
            "roll": "server",
        },
    )
    assert response.status_code == 302
    hunters[0].refresh_from_db()
    assert hunters[0].sante == 4
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert "Santé 6 → 4" in page


def test_a_stale_action_says_so_and_keeps_what_was_typed(client, game):
    encounter, organiser, _opponent, _police, hunters = game
    encounter_advance(actor=organiser, encounter=encounter, version=1)
    response = _client(client, organiser).post(
        reverse("table-act", args=[encounter.pk]),
        {
            "version": 1,
            "kind": "wound",
            "target": hunters[1].pk,
            "wound": "grave",
            "roll": "server",
        },
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "This changed while you were deciding" in html
    assert 'value="grave" selected' in html
    hunters[1].refresh_from_db()
    assert hunters[1].sante == 6


def test_bad_dice_by_hand_are_a_sentence_not_a_500(client, game):
    encounter, organiser, _opponent, _police, hunters = game
    response = _client(client, organiser).post(
        reverse("table-act", args=[encounter.pk]),
        {
            "version": 1,
            "kind": "wound",
            "target": hunters[1].pk,
            "wound": "grave",
            "roll": "hand",
            "death_die": "9",
        },
    )
    assert response.status_code == 400
    assert "Each die is a whole number from 1 to 6." in response.content.decode()


def test_a_hidden_order_is_hidden_from_the_other_side_and_the_screen(client, game):
    encounter, _organiser, opponent, _police, hunters = game
    encounter_set_directive(
        actor=opponent,
        encounter=encounter,
        version=1,
        combatant=hunters[0].pk,
        directive="offensive",
    )
    stranger_side = police_unit(opponent, "Autre")
    del stranger_side
    mine = _client(client, opponent).get(reverse("table-encounter", args=[encounter.pk]))
    assert "Offensive (hidden)" in mine.content.decode().replace("\n", "")
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    screen = client.get(reverse("table-watch", args=[encounter.spectator_token]))
    assert screen.status_code == 200
    assert (
        "Offensive" not in screen.content.decode()
        and 'id="action-form"' not in screen.content.decode()
    )


def test_the_odds_partial_shows_exact_fractions(client, game):
    encounter, organiser, _opponent, police, hunters = game
    response = _client(client, organiser).get(
        reverse("table-odds", args=[encounter.pk]),
        {
            "kind": "ranged",
            "actor": police[0].pk,
            "target": hunters[0].pk,
            "distance_cm": 20,
            "cover": 0,
            "roll": "server",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="odds-dies"' in html and "/" in html


@pytest.mark.parametrize("extra_members", [0, 8])
def test_the_page_reads_in_a_fixed_number_of_queries(
    client, django_assert_num_queries, extra_members
):
    organiser = PlayerFactory(username="orga")
    members = ("A", "B", *(f"M{i}" for i in range(extra_members)))
    ours = police_unit(organiser, "Brigade", members)
    theirs = hunter_unit(organiser, "Meute", members)
    encounter = encounter_create_standalone(actor=organiser, units=[ours, theirs])
    client.force_login(organiser)
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    # Changed since: encounter, combatants, log (session and user from the cache since the
    # first request)
    with django_assert_num_queries(3):
        assert client.get(url).status_code == 200
    # Unchanged since: the fetch that authorises it, and the page as it was sent
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200


def test_the_api_gives_the_state_and_304_when_nothing_changed(game):
    encounter, organiser, *_ = game
    api = APIClient()
    api.force_authenticate(organiser)
    state = api.get(reverse("api-table-encounter", args=[encounter.pk])).json()
    assert state["version"] == 1 and [s["name"] for s in state["sides"]] == ["Brigade", "Meute"]
    again = api.get(reverse("api-table-encounter", args=[encounter.pk]), {"since": 1})
    assert again.status_code == 304


def test_the_api_answers_a_stale_action_409_with_the_new_state(game):
    encounter, organiser, _opponent, _police, hunters = game
    api = APIClient()
    api.force_authenticate(organiser)
    url = reverse("api-table-act", args=[encounter.pk])
    body = {"version": 1, "kind": "wound", "target": hunters[0].pk, "wound": "superficial"}
    assert api.post(url, body, format="json").status_code == 200
    stale = api.post(url, body, format="json")
    assert stale.status_code == 409
    assert stale.json()["state"]["version"] == 2 and "Cela a changé" in stale.json()["detail"]


def test_a_pick_up_game_opens_from_the_page(client):
    organiser = PlayerFactory(username="orga")
    ours, theirs = police_unit(organiser, "Brigade"), hunter_unit(organiser, "Meute")
    _client(client, organiser)
    assert client.get(reverse("table-new")).status_code == 200
    response = client.post(
        reverse("table-new"), {"first": ours.pk, "second": theirs.pk, "title": ""}
    )
    encounter = Encounter.objects.get()
    assert response.status_code == 302 and response.url == reverse(
        "table-encounter", args=[encounter.pk]
    )
    same = client.post(reverse("table-new"), {"first": ours.pk, "second": ours.pk, "title": ""})
    assert same.status_code == 400 and "Choose two different units." in same.content.decode()


def test_the_odds_without_javascript_come_in_the_page_with_the_action_kept(client, game):
    encounter, organiser, _opponent, police, hunters = game
    response = _client(client, organiser).get(
        reverse("table-odds", args=[encounter.pk]),
        {"kind": "ranged", "actor": police[1].pk, "target": hunters[1].pk, "distance_cm": 35},
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html and 'id="odds-dies"' in html
    assert 'name="distance_cm" value="35' in html


def test_dice_typed_by_hand_on_the_page_are_judged(client, game):
    """K8: a grave wound from Santé 6 leaves 2 and calls for a death roll (threshold 5 at
    Santé 2): a 5 survives."""
    encounter, organiser, _opponent, _police, hunters = game
    response = _client(client, organiser).post(
        reverse("table-act", args=[encounter.pk]),
        {
            "version": 1,
            "kind": "wound",
            "target": hunters[0].pk,
            "wound": "grave",
            "roll": "hand",
            "death_die": "5",
        },
        headers={"HX-Request": "true", "HX-Target": "table-main"},
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="table-main"' in html
    hunters[0].refresh_from_db()
    assert (hunters[0].sante, hunters[0].dead) == (2, False)
    assert "dice rolled by hand" in html


def test_a_write_without_a_version_applies_on_the_current_state_not_a_500(client, game):
    """The fuzzer sent `{}` to undo and `{"combatant": n}` to reveal: a missing version was
    a 500; it means "whatever the version", as the schema says (the field is optional)."""
    encounter, organiser, _opponent, police, _hunters = game
    client.force_login(organiser)
    for path, body in (("undo", {}), ("reveal", {"combatant": police[0].pk})):
        response = client.post(
            f"/api/v1/table/{encounter.pk}/{path}/", body, content_type="application/json"
        )
        # Applied (200) or refused with its sentence (nothing to undo, nothing to reveal).
        assert response.status_code in (200, 400, 409), (path, response.content[:300])


def test_the_api_action_tells_an_outsider_nothing_of_the_encounter(game):
    """The API's action fetches the encounter with its lock: who may not see it hears 404
    before anything else, an invalid body or a stale version (no 400, no 409 with the
    state), and the encounter is left as it was."""
    encounter, _organiser, _opponent, _police, hunters = game
    api = APIClient()
    api.force_authenticate(PlayerFactory(username="outsider"))
    url = reverse("api-table-act", args=[encounter.pk])
    before = Encounter.objects.get(pk=encounter.pk).version
    stale = {"version": 0, "kind": "wound", "target": hunters[0].pk, "wound": "superficial"}
    assert api.post(url, stale, format="json").status_code == 404
    assert api.post(url, {"kind": "nothing"}, format="json").status_code == 404
    assert api.post(reverse("api-table-act", args=[10**6]), stale, format="json").status_code == 404
    assert Encounter.objects.get(pk=encounter.pk).version == before


def test_it_locks_for_the_api_action_exactly_whom_the_pages_let_see_the_encounter():
    """The page's fetch and the action's lock read who sees the encounter from the same
    queryset (`Encounter.objects.visible_to`): for a pick-up game and a chapter's
    encounter, members, co-organisers, players of a combatant and outsiders, the page opens
    for whom the lock lets through, and for them only."""
    from django.db import transaction
    from django.http import Http404

    from campaigns.chapters.entries import chapter_unit_enter
    from campaigns.chapters.services import chapter_plan, chapter_start
    from campaigns.models import Membership
    from campaigns.services import campaign_add_participant, campaign_create, co_organiser_add
    from rules.table.selectors import encounter_get_for_user
    from rules.table.services import encounter_create_for_chapter
    from rules.table.services.lock import lock_by_id

    organiser, anna, boris, cora, stray, outsider = (
        PlayerFactory(username=name)
        for name in ("orga", "anna", "boris", "cora", "stray", "outsider")
    )
    pick_up = pick_up_encounter(anna, boris)
    campaign = campaign_create(organiser=organiser, name="Nuit", system="kolaps")
    for player in (anna, stray):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    co_organiser_add(actor=organiser, campaign=campaign, player=cora)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La gare")
    chapter_unit_enter(actor=anna, chapter=chapter, unit=police_unit(anna, "Renforts"))
    chapter_unit_enter(actor=stray, chapter=chapter, unit=hunter_unit(stray, "Errants"))
    chapter = chapter_start(actor=organiser, chapter=chapter)
    in_chapter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    # Stray left the campaign: it no longer sees its table, though a combatant was its own.
    Membership.objects.filter(campaign=campaign, player=stray).delete()
    seen = {}
    for encounter in (pick_up, in_chapter):
        for user in (organiser, anna, boris, cora, stray, outsider):
            with transaction.atomic():
                try:
                    lock_by_id(user, encounter.pk, None)
                    locked = True
                except Http404:
                    locked = False
                transaction.set_rollback(True)
            try:
                shown = encounter_get_for_user(user, encounter.pk) is not None
            except Http404:
                shown = False
            assert locked == shown
            seen[encounter.title, user.username] = locked
    assert [who for (title, who), sees in seen.items() if sees and title == "Gare"] == [
        "anna",
        "boris",
    ]
    assert [who for (title, who), sees in seen.items() if sees and title != "Gare"] == [
        "orga",
        "anna",
        "cora",
    ]


@pytest.mark.django_db(transaction=True)
def test_the_compiled_lock_refuses_to_run_outside_a_transaction():
    """The write's lock is compiled once: outside a transaction it would lock nothing, so
    it refuses as Django's own `select_for_update` does."""
    user = PlayerFactory()
    with pytest.raises(TransactionManagementError):
        encounter_locked_for_user(user, 1)
    with transaction.atomic():
        assert encounter_locked_for_user(user, 1) is None


def test_an_order_not_yet_revealed_reads_cache_in_french_not_the_modern_rpg_word(client, game):
    """Its own player sees an order not yet revealed marked as hidden: in French "caché", not
    the modern RPG's attitude "planqué" (the same English word, another system's)."""
    encounter, _organiser, opponent, _police, hunters = game
    encounter_set_directive(
        actor=opponent, encounter=encounter, version=1, combatant=hunters[0].pk,
        directive="offensive",
    )  # fmt: skip
    player = _client(client, opponent)
    player.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = player.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert "(caché)" in page
    assert "planqué" not in page

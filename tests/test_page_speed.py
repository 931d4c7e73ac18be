"""The page-speed levers keep every behaviour: sessions and players read from
the cache, the site layout's fixed parts rendered once, print sheets kept as rendered."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from characters.kolaps import services, undo

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return response.content.decode().replace("\u00a0", " ").replace("\u202f", " ")


def test_it_reads_neither_session_nor_player_from_the_database_twice(
    client, player, django_assert_num_queries
):
    client.force_login(player)
    url = reverse("password_reset_done")
    client.get(url)
    with django_assert_num_queries(0):
        assert client.get(url).status_code == 200


def test_it_logs_out_a_player_deactivated_since_the_last_page(client, player):
    client.force_login(player)
    assert client.get(reverse("account")).status_code == 200
    player.is_active = False
    player.save()
    response = client.get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_it_logs_out_the_other_sessions_of_a_player_whose_password_changed(player):
    phone, laptop = Client(), Client()
    phone.force_login(player)
    laptop.force_login(player)
    assert phone.get(reverse("account")).status_code == 200
    player.set_password("an entirely new one 2026")
    player.save()
    assert phone.get(reverse("account")).status_code == 302
    assert laptop.get(reverse("account")).status_code == 302


def test_a_logout_ends_the_session_read_from_the_cache(client, player):
    client.force_login(player)
    assert client.get(reverse("account")).status_code == 200
    client.post(reverse("logout"))
    assert SESSION_KEY not in client.session
    assert client.get(reverse("account")).status_code == 302


def test_the_layout_carries_this_requests_token_and_path(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    client.get(reverse("account"))  # the layout's parts rendered and kept
    path = reverse("kolaps-list") + '?x="<b>'
    page = _text(client.get(path))
    assert page.count(f'name="next" value="{reverse("kolaps-list")}?x=%22%3Cb%3E"') == 2
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert f'"X-CSRFToken": "{token}"' in page
    # The token the cached layout was given works: the logout form posts.
    response = client.post(reverse("logout"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert client.get(reverse("account")).status_code == 302


def test_the_layout_follows_language_login_and_theme(client, player):
    anonymous = _text(client.get(reverse("login")))
    assert "Se connecter" in anonymous
    assert reverse("logout") not in anonymous
    client.force_login(player)
    client.cookies["theme"] = "dark"
    page = _text(client.get(reverse("account")))
    assert 'data-theme="dark"' in page and reverse("logout") in page
    assert 'value="dark" title="Thème sombre" aria-label="Thème sombre" aria-pressed="true"' in page
    client.cookies["django_language"] = "en"
    english = _text(client.get(reverse("account")))
    assert '<html lang="en">' in english and "Log out" in english


def _unit_of(owner, size: int):
    unit = services.unit_create(owner=owner, name="Sheets")
    for n in range(size):
        services.character_create(
            owner=owner, name=f"Agent {n}", archetype="agent-de-police", rank="novice", unit=unit
        )
    unit.refresh_from_db()
    return unit


def test_a_kept_print_sheet_is_the_one_rendered_afresh(client, player, settings):
    unit = _unit_of(player, 3)
    client.force_login(player)
    url = reverse("kolaps-unit-print", args=[unit.pk])
    settings.KOLAPS_SHEET_CACHE_SECONDS = 0
    fresh = client.get(url).content
    settings.KOLAPS_SHEET_CACHE_SECONDS = 3600
    client.get(url)
    assert client.get(url).content == fresh


def test_a_print_sheet_shows_a_change_at_once(client, player):
    unit = _unit_of(player, 3)
    client.force_login(player)
    url = reverse("kolaps-unit-print", args=[unit.pk])
    assert "Agent 1" in _text(client.get(url))
    character = unit.members.get(name="Agent 1")
    services.character_change(
        actor=player, character=character, op="rename", version=character.version, name="Ornella"
    )
    page = _text(client.get(url))
    assert "Ornella" in page and "Agent 1" not in page
    client.cookies["django_language"] = "en"
    assert "Print with your browser (A4)." in _text(client.get(url))


def _members_html(response) -> str:
    page = _text(response)
    start = page.index('<div id="unit-body">')
    body = page[start : page.index("</div>\n", start)]
    token = 'name="csrfmiddlewaretoken" value="'
    return "".join(part.split('"', 1)[1] if n else part for n, part in enumerate(body.split(token)))


def test_a_kept_unit_page_is_the_one_rendered_afresh(client, player, settings):
    unit = _unit_of(player, 3)
    services.character_create(
        owner=player, name="Libre", archetype="agent-de-police", rank="novice"
    )
    client.force_login(player)
    url = reverse("kolaps-unit", args=[unit.pk])
    settings.KOLAPS_UNIT_CACHE_SECONDS = 0
    fresh = _members_html(client.get(url))
    settings.KOLAPS_UNIT_CACHE_SECONDS = 3600
    client.get(url)
    kept = client.get(url)
    assert _members_html(kept) == fresh
    assert "Libre" in fresh and "Agent 2" in fresh


def test_a_kept_unit_page_shows_a_change_at_once_and_its_forms_post(player):
    client = Client(enforce_csrf_checks=True)
    unit = _unit_of(player, 3)
    client.force_login(player)
    url = reverse("kolaps-unit", args=[unit.pk])
    client.get(url)
    page = _text(client.get(url))  # the kept body
    token = page.split('<div id="unit-body">')[1].split('name="csrfmiddlewaretoken" value="')[1]
    token = token.split('"')[0]
    version = page.split('name="version" value="')[1].split('"')[0]
    response = client.post(
        url, {"csrfmiddlewaretoken": token, "op": "rename", "name": "Brigade", "version": version}
    )
    assert response.status_code == 302
    page = _text(client.get(url))
    assert "<h1>Brigade</h1>" in page
    character = unit.members.get(name="Agent 0")
    services.character_change(
        actor=player, character=character, op="rename", version=character.version, name="Ornella"
    )
    page = _text(client.get(url))
    assert "Ornella" in page and "Agent 0" not in page


def _tokens_out(response) -> str:
    """The page without its CSRF tokens (each request's own)."""
    page = response.content.decode()
    for mark in ('name="csrfmiddlewaretoken" value="', '"X-CSRFToken": "'):
        parts = page.split(mark)
        page = mark.join([parts[0], *(part.split('"', 1)[1] for part in parts[1:])])
    return page


def test_a_kept_unit_page_is_the_whole_page_rendered_afresh_french_typography_included(
    client, player, settings
):
    unit = _unit_of(player, 3)
    services.unit_share(actor=player, unit=unit, version=unit.version)
    client.force_login(player)
    url = reverse("kolaps-unit", args=[unit.pk])
    settings.KOLAPS_UNIT_CACHE_SECONDS = 0
    fresh = client.get(url)
    settings.KOLAPS_UNIT_CACHE_SECONDS = 3600
    client.get(url)
    kept = client.get(url)
    assert _tokens_out(kept) == _tokens_out(fresh)
    page = kept.content.decode()
    # "Toute personne ayant ce lien peut lire l'unité (pas la modifier) :" and the
    # catalogue link: French spacing before the colon, as the translations write it.
    assert "(pas la modifier)\u00a0:" in page and "Parcourir le catalogue\u00a0:" in page
    assert " :" not in page.split('<main id="main">')[1]
    # The token written into the kept page is this request's, and its forms post.
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert f'"X-CSRFToken": "{token}"' in page


def test_the_first_view_after_a_change_is_rendered_for_it_in_the_owners_language_and_theme(
    client, player, django_capture_on_commit_callbacks
):
    """The owner's unit page and print, kept, then a member renamed (committed): their next
    view of each renders it on that request, with the change, in English and dark as they
    read it and with their own token; the view after that is served kept."""
    unit = _unit_of(player, 3)
    client.force_login(player)
    client.cookies["django_language"] = "en"
    client.cookies["theme"] = "dark"
    urls = (reverse("kolaps-unit", args=[unit.pk]), reverse("kolaps-unit-print", args=[unit.pk]))
    for url in urls:
        client.get(url)
        assert client.get(url).templates == []  # kept
    character = unit.members.get(name="Agent 1")
    with django_capture_on_commit_callbacks(execute=True):
        services.character_change(
            actor=player, character=character, op="rename", version=character.version,
            name="Ornella",
        )  # fmt: skip
    for url in urls:
        response = client.get(url)
        assert response.templates != []  # rendered for this request
        page = _text(response)
        assert "Ornella" in page and "Agent 1" not in page and "\ue000" not in page
        assert "Print" in page and "Imprimer" not in page
        kept = client.get(url)
        assert kept.templates == [] and "Ornella" in _text(kept)
    assert 'data-theme="dark"' in _text(client.get(urls[0]))


def test_a_kept_unit_page_follows_language_theme_and_htmx_target(client, player):
    unit = _unit_of(player, 2)
    client.force_login(player)
    url = reverse("kolaps-unit", args=[unit.pk])
    client.get(url)
    assert "Imprimer" in _text(client.get(url))
    client.cookies["theme"] = "dark"
    assert 'data-theme="dark"' in client.get(url).content.decode()
    client.cookies["django_language"] = "en"
    page = _text(client.get(url))
    assert "Print" in page and "Imprimer" not in page
    body = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="unit-body")
    assert body.content.decode().strip().startswith('<div id="unit-body">')
    assert "<html" not in body.content.decode()
    assert "<html" in client.get(url).content.decode()


def test_a_kept_unit_page_still_shows_the_messages_waiting_for_the_player(client, player):
    unit = _unit_of(player, 2)
    client.force_login(player)
    client.cookies["django_language"] = "en"
    url = reverse("kolaps-unit", args=[unit.pk])
    client.get(url)
    client.get(url)  # kept
    saved = client.post(reverse("account"), {"email": "a@example.org", "display_name": "Al"})
    assert saved.status_code == 302
    assert "Your account is saved." in _text(client.get(url))
    assert "Your account is saved." not in _text(client.get(url))  # shown once


def test_a_kept_unit_page_shows_a_new_free_character_and_a_kept_print_a_new_name(client, player):
    unit = _unit_of(player, 2)
    client.force_login(player)
    url = reverse("kolaps-unit", args=[unit.pk])
    print_url = reverse("kolaps-unit-print", args=[unit.pk])
    client.get(url)
    client.get(print_url)
    services.character_create(
        owner=player, name="Libre", archetype="agent-de-police", rank="novice"
    )
    assert "Libre" in _text(client.get(url))
    services.unit_change(
        actor=player, unit=unit, op="rename", version=unit.version, name="Brigade du quai"
    )
    assert "<h1>Brigade du quai" in _text(client.get(print_url))


def test_a_kept_print_shows_the_moral_of_an_avatar_put_back_to_6(client, player):
    """An Avatar back in its unit with a Moral below 6 (taken out, its Moral lowered, the
    removal undone), named the Avatar again: its Moral is 6 (K13), and the kept print of
    its unit shows it at once."""
    unit = _unit_of(player, 2)
    chief = unit.members.get(name="Agent 0")
    for op in ("avatar", "remove"):
        unit.refresh_from_db()
        services.unit_change(actor=player, unit=unit, op=op, version=None, character=chief)
    services.character_change(
        actor=player, character=chief, op="gauges", version=None, sante=6, souffle=6, moral=3
    )
    unit.refresh_from_db()
    undo.unit_undo(actor=player, unit=unit, version=None)
    client.force_login(player)
    url = reverse("kolaps-unit-print", args=[unit.pk])
    client.get(url)
    assert _chief_moral(_text(client.get(url))) == 3  # kept
    unit.refresh_from_db()
    services.unit_change(actor=player, unit=unit, op="avatar", version=None, character=chief)
    assert _chief_moral(_text(client.get(url))) == 6


def _chief_moral(page: str) -> int:
    """The Moral boxes ticked on the first sheet of a print."""
    sheet = page.split('<section class="sheet character-sheet">')[1]
    return sheet.split('<th scope="row">Moral</th>')[1].split("</tr>")[0].count(" start")


def test_a_print_gives_each_sheet_its_own_equipment_numbers(client, player, settings):
    settings.KOLAPS_SHEET_CACHE_SECONDS = 0  # every sheet rendered for this print
    unit = _unit_of(player, 3)
    second = unit.members.get(name="Agent 1")
    services.character_set_equipment(
        actor=player, character=second, version=second.version, group=2, item="bouclier-tactique"
    )
    client.force_login(player)
    client.cookies["django_language"] = "en"
    page = _text(client.get(reverse("kolaps-unit-print", args=[unit.pk])))
    sheets = page.split('<section class="sheet character-sheet">')[1:]
    assert [("FA F4" in sheet, "Protection" in sheet.split("<h3>")[-1]) for sheet in sheets] == [
        (True, True),
        (False, True),
        (True, True),
    ]
    shield = sheets[1].split("print-item")
    assert sum("Protection" in item for item in shield) == 2  # the vest and the shield


def test_a_print_gives_each_sheet_its_own_talents_and_gauges(client, player, settings):
    """A print renders the parts its members share once (talents, gauges, equipment): a
    member who differs still gets their own."""
    settings.KOLAPS_SHEET_CACHE_SECONDS = 0  # every sheet rendered for this print
    unit = _unit_of(player, 3)
    second = unit.members.get(name="Agent 1")
    second = services.character_raise(
        actor=player, character=second, version=second.version, talent="fusil"
    )
    services.character_set_gauges(
        actor=player, character=second, version=second.version, sante=2, souffle=5, moral=4
    )
    client.force_login(player)
    client.cookies["django_language"] = "en"
    page = _text(client.get(reverse("kolaps-unit-print", args=[unit.pk])))
    sheets = page.split('<section class="sheet character-sheet">')[1:]
    rifle = [sheet.split("Fusil<br>")[1].split('<td class="num">')[1][0] for sheet in sheets]
    assert rifle == ["0", "1", "0"]
    starts = [sheet.split("</table>")[0].count(" start") for sheet in sheets]
    assert starts[1] == 2 + 5 + 4 and starts[0] == starts[2] != starts[1]


def test_a_french_print_has_french_typography_in_each_sheet(client, player, settings):
    settings.KOLAPS_SHEET_CACHE_SECONDS = 0
    unit = _unit_of(player, 2)
    first = unit.members.get(name="Agent 0")
    for level in (1, 2, 3):
        first = services.character_set_level(
            actor=player, character=first, version=first.version, talent="fusil", level=level
        )
    first = services.character_set_level(
        actor=player, character=first, version=first.version, talent="precision", level=2
    )
    services.character_set_level(
        actor=player, character=first, version=first.version, talent="fusil", level=1
    )
    client.force_login(player)
    page = client.get(reverse("kolaps-unit-print", args=[unit.pk])).content.decode()
    sheet = page.split('<section class="sheet character-sheet">')[1]
    # The sheet's own problem, as the unit's summary states it: a space that never breaks
    # before the colon.
    assert "<li>Agent 0\u00a0: Précision 2 demande Pistolet 3 ou Fusil 3.</li>" in sheet
    assert " :" not in page and " ;" not in page


def _token_get(url: str, key: str):
    return Client().get(url, HTTP_AUTHORIZATION=f"Token {key}")


def test_an_api_token_and_its_player_are_read_from_the_database_once(
    player, django_assert_num_queries
):
    from rest_framework.authtoken.models import Token

    from tests.table_fixtures import pick_up_encounter

    encounter = pick_up_encounter(player)
    key = Token.objects.create(user=player).key
    url = reverse("api-table-encounter", args=[encounter.pk]) + f"?since={encounter.version}"
    with django_assert_num_queries(2):  # the token with its player, the encounter
        assert _token_get(url, key).status_code == 304
    with django_assert_num_queries(1):  # the encounter only
        assert _token_get(url, key).status_code == 304


def test_a_rotated_or_revoked_api_token_stops_working_at_once(player):
    from characters.accounts.services import player_token, player_token_revoke

    url = reverse("api-table-new")
    old = player_token(player=player).key
    assert _token_get(url, old).status_code == 405  # authenticated: GET is not allowed
    new = player_token(player=player, rotate=True).key
    assert _token_get(url, old).status_code == 401
    assert _token_get(url, new).status_code == 405
    player_token_revoke(player=player)
    assert _token_get(url, new).status_code == 401


def test_it_refuses_a_token_revoked_between_its_database_read_and_its_caching(
    player, monkeypatch, django_capture_on_commit_callbacks
):
    """A request reads the token from the database; before it writes it to the cache, the
    player revokes it (committed). The request itself was let in, but the token must not
    come back to life from the cache for `AUTH_USER_CACHE_SECONDS`."""
    from rest_framework.authentication import TokenAuthentication

    from characters.accounts.services import player_token, player_token_revoke

    url = reverse("api-table-new")
    key = player_token(player=player).key
    read_from_the_database = TokenAuthentication.authenticate_credentials

    def read_then_revoked(self, key):
        found = read_from_the_database(self, key)
        with django_capture_on_commit_callbacks(execute=True):
            player_token_revoke(player=player)
        return found

    monkeypatch.setattr(TokenAuthentication, "authenticate_credentials", read_then_revoked)
    assert _token_get(url, key).status_code == 405  # let in: read before the revocation
    monkeypatch.setattr(TokenAuthentication, "authenticate_credentials", read_from_the_database)
    assert _token_get(url, key).status_code == 401
    assert _token_get(url, key).status_code == 401


def test_an_api_token_of_a_player_deactivated_since_its_last_request_is_refused(player):
    from characters.accounts.services import player_token

    url = reverse("api-table-new")
    key = player_token(player=player).key
    assert _token_get(url, key).status_code == 405
    player.is_active = False
    player.save()
    assert _token_get(url, key).status_code == 401


def test_a_name_written_like_the_kept_pages_token_mark_shows_as_typed(client, player):
    """The mark a kept page holds in place of each request's CSRF token derives from the
    secret key: a name a player types is never taken for it (nor replaced by a token)."""
    unit = services.unit_create(owner=player, name="X\ue000csrf\ue000Y")
    client.force_login(player)
    for url in (
        reverse("kolaps-unit", args=[unit.pk]),
        reverse("kolaps-unit-print", args=[unit.pk]),
    ):
        client.get(url)
        page = client.get(url).content.decode()  # kept
        assert "X\ue000csrf\ue000Y" in page
        assert (
            client.cookies["csrftoken"].value not in page.split("<title>")[1].split("</title>")[0]
        )


def test_a_kept_list_of_units_is_the_whole_page_rendered_afresh(client, player, settings):
    unit = _unit_of(player, 3)
    services.unit_share(actor=player, unit=unit, version=unit.version)
    services.unit_create(owner=player, name="Réserve")
    services.character_create(
        owner=player, name="Libre", archetype="agent-de-police", rank="novice"
    )
    client.force_login(player)
    url = reverse("kolaps-list")
    settings.KOLAPS_UNIT_CACHE_SECONDS = 0
    fresh = client.get(url)
    settings.KOLAPS_UNIT_CACHE_SECONDS = 3600
    client.get(url)
    kept = client.get(url)
    assert _tokens_out(kept) == _tokens_out(fresh)
    page = kept.content.decode()
    # French spacing before the colon, as the translations write it.
    assert "Parcourir le catalogue\u00a0:" in page and "partagée par lien" in page
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert f'"X-CSRFToken": "{token}"' in page


def test_a_kept_list_of_units_shows_each_change_on_the_next_request(player):
    client = Client(enforce_csrf_checks=True)
    unit = _unit_of(player, 2)
    client.force_login(player)
    client.cookies["django_language"] = "en"
    url = reverse("kolaps-list")
    client.get(url)
    page = _text(client.get(url))  # kept
    assert "2 characters" in page and "Draft" in page and "shared by link" not in page
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    created = client.post(
        reverse("kolaps-character-create"),
        {"csrfmiddlewaretoken": token, "name": "Libre", "archetype": "agent-de-police",
         "rank": "novice"},
    )  # fmt: skip
    assert created.status_code == 302
    assert "Libre" in _text(client.get(url))
    first = unit.members.get(name="Agent 0")
    services.character_change(
        actor=player, character=first, op="rename", version=first.version, name="Ornella"
    )
    page = _text(client.get(url))
    assert "Ornella" in page and "Agent 0" not in page
    pp_left = int(page.split("Ornella</a></h3>")[1].split(" PP left")[0].split("· ")[-1])
    first.refresh_from_db()
    services.character_raise(actor=player, character=first, version=first.version, talent="fusil")
    page = _text(client.get(url))
    assert int(page.split("Ornella</a></h3>")[1].split(" PP left")[0].split("· ")[-1]) < pp_left
    unit.refresh_from_db()
    services.unit_set_avatar(
        actor=player, unit=unit, version=unit.version, character=unit.members.get(name="Ornella")
    )
    unit.refresh_from_db()
    services.unit_share(actor=player, unit=unit, version=unit.version)
    page = _text(client.get(url))
    assert "shared by link" in page and "Valid" in page
    libre = player.kolaps_characters.get(name="Libre")
    unit.refresh_from_db()
    services.unit_change(actor=player, unit=unit, op="add", version=unit.version, character=libre)
    assert "3 characters" in _text(client.get(url))


def test_a_kept_list_of_units_follows_language_theme_and_messages(client, player):
    _unit_of(player, 2)
    client.force_login(player)
    url = reverse("kolaps-list")
    client.get(url)
    assert "Mes unités KOLAPS" in _text(client.get(url))
    client.cookies["theme"] = "dark"
    assert 'data-theme="dark"' in client.get(url).content.decode()
    client.cookies["django_language"] = "en"
    page = _text(client.get(url))
    assert "My KOLAPS units" in page and "Mes unités" not in page
    saved = client.post(reverse("account"), {"email": "a@example.org", "display_name": "Al"})
    assert saved.status_code == 302
    assert "Your account is saved." in _text(client.get(url))
    assert "Your account is saved." not in _text(client.get(url))  # shown once


def test_a_refused_creation_on_the_kept_list_shows_its_sentence_and_what_was_typed(client, player):
    client.force_login(player)
    client.cookies["django_language"] = "en"
    url = reverse("kolaps-list")
    client.get(url)
    client.get(url)  # kept
    page = _text(client.post(reverse("kolaps-unit-create"), {"name": "x" * 81}))
    assert 'value="' + "x" * 81 + '"' in page and "at most 80 characters" in page
    assert "at most 80 characters" not in _text(client.get(url))

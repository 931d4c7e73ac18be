"""The signed-in player's home: what is next for them, on one screen, in fixed queries."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.chapters.services import OutcomeInput, chapter_close, chapter_plan, chapter_start
from campaigns.models import Chapter
from campaigns.services import campaign_add_participant, campaign_create, campaign_leave
from campaigns.votes.services import vote_open
from characters.kolaps import services as kolaps
from characters.profiles.services import profile_create
from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db


def _campaign(organiser, players, *, name="Lyon", system="of-the-dead"):
    campaign = campaign_create(organiser=organiser, name=name, system=system)
    for player in players:
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    return campaign


def test_it_lands_on_the_dashboard_after_logging_in(client):
    player = PlayerFactory()
    response = client.post(reverse("login"), {"username": player.username, "password": PASSWORD})
    assert response["Location"] == reverse("dashboard")
    assert client.get("/")["Location"] == reverse("dashboard")


def test_it_lands_on_the_dashboard_after_signing_up(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.test",
            "display_name": "",
            "password": "a-long-new-passphrase-9",
            "password_again": "a-long-new-passphrase-9",
        },
    )
    assert response["Location"] == reverse("dashboard")
    html = client.get(reverse("dashboard")).content.decode()
    assert "Vous ne participez encore à aucune campagne" in html


def test_it_shows_the_next_chapter_and_why_the_player_may_not_play_it(client):
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = _campaign(organiser, [alice])
    profile_create(actor=alice, player=alice, physique=2, psychique=2, reflexes=2, combat=3)
    soon = timezone.now() + timedelta(days=3)
    chapter_plan(actor=organiser, campaign=campaign, title="Les quais", starts_at=soon,
                 place="Lyon 2e", min_survival_points=4)  # fmt: skip
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "Les quais" in html and "Lyon 2e" in html
    assert "Vous ne pouvez pas encore y jouer" in html
    assert "0 sur les 4 demandés" in html
    assert "0 point de survie" in html  # French: 0 and 1 are singular


def test_it_lists_votes_awaiting_my_ballot_and_the_organisers_to_do(client):
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = _campaign(organiser, [alice])
    first = chapter_plan(actor=organiser, campaign=campaign, title="Premier")
    chapter_plan(actor=organiser, campaign=campaign, title="Second")
    vote = vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=first)
    chapter_start(actor=organiser, chapter=first)
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert reverse("vote-detail", args=[vote.pk]) in html
    assert reverse("chapter-close", args=[first.pk]) not in html
    client.force_login(organiser)
    html = client.get(reverse("dashboard")).content.decode()
    assert reverse("chapter-close", args=[first.pk]) in html
    assert reverse("vote-detail", args=[vote.pk]) not in html  # organisers do not vote
    chapter_close(
        actor=organiser,
        chapter=first,
        epilogue="Fin.",
        outcomes=[OutcomeInput(player_id=alice.pk, result="victory")],
    )
    html = client.get(reverse("dashboard")).content.decode()
    assert reverse("chapter-settlement", args=[first.pk]) in html


def test_it_shows_a_history_line_with_its_actor_and_never_a_raw_key(client):
    organiser, alice = PlayerFactory(display_name="Orga"), PlayerFactory(username="alice")
    _campaign(organiser, [alice], name="Quais")
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    # The display name, as the actor's, never the login.
    assert "Orga a ajouté Alice" in html
    assert "participant_added" not in html


def test_it_does_not_show_another_players_campaigns(client):
    organiser, alice, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    _campaign(organiser, [alice], name="Secrète")
    client.force_login(stranger)
    assert "Secrète" not in client.get(reverse("dashboard")).content.decode()
    assert client.get(reverse("api-dashboard")).json()["campaigns"] == 0


def test_its_api_twin_serves_the_same_card(client):
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = _campaign(organiser, [alice])
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Les quais")
    client.force_login(alice)
    data = client.get(reverse("api-dashboard")).json()
    assert data["next_chapter"]["id"] == chapter.pk
    assert data["next_chapter"]["eligible"] is False  # no Of the Dead profile yet
    assert data["next_chapter"]["reasons"]
    assert data["campaigns"] == 1
    assert client.logout() is None
    assert client.get(reverse("api-dashboard")).status_code == 401


@pytest.mark.parametrize("size", [3, 30])
def test_it_costs_the_same_queries_for_3_or_30_campaigns(client, django_assert_num_queries, size):
    alice = PlayerFactory()
    profile_create(actor=alice, player=alice, physique=2, psychique=2, reflexes=2, combat=3)
    for n in range(size):
        organiser = PlayerFactory()
        campaign = _campaign(organiser, [alice, PlayerFactory()], name=f"Campagne {n}")
        chapter = chapter_plan(actor=organiser, campaign=campaign, title=f"Chapitre {n}")
        vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
    own = _campaign(alice, [PlayerFactory()], name="La mienne")
    chapter_start(actor=alice, chapter=chapter_plan(actor=alice, campaign=own, title="En cours"))
    client.force_login(alice)
    # user (the session from the cache), campaigns with roles, chapters, profile, votes,
    # history, KOLAPS characters in no unit, and the units, army lists and character sheets
    # (one union)
    with django_assert_num_queries(8):
        response = client.get(reverse("dashboard"))
    assert response.status_code == 200
    assert response.content.decode().count('href="/votes/') == size
    # the API twin: the same reads, session and user from the cache since the page
    with django_assert_num_queries(7):
        assert client.get(reverse("api-dashboard")).status_code == 200


@pytest.mark.parametrize("size", [3, 30])
def test_it_lists_what_the_player_has_in_every_system_in_the_same_queries(
    client, django_assert_num_queries, size
):
    """KOLAPS characters in no unit in one query whatever their number, and the KOLAPS
    units, Rapid 40000 army lists and character sheets of every system that has them
    (modern RPG, Corporates) in one more: "the dashboard lists everything a player has in
    every system"."""
    from characters.corporates.services import corporates_character_create
    from characters.modern.services import modern_character_create
    from tests.campaigns.test_rapid40k_chapters import army_of

    alice, bruno = PlayerFactory(), PlayerFactory()
    dice = {"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8}
    for n in range(size):
        kolaps.unit_create(owner=alice, name=f"Section {n}")
        army_of(alice, name=f"Waaagh {n}", troops=1)
        modern_character_create(owner=alice, name=f"Lina {n}", characteristics=dice)
        corporates_character_create(owner=alice, name=f"Vex {n}", wounds=2)
    army_of(bruno, name="Not Alice's")
    modern_character_create(owner=bruno, name="Not Alice's either", characteristics=dice)
    corporates_character_create(owner=bruno, name="Not Alice's third")
    client.force_login(alice)
    with django_assert_num_queries(8):
        html = client.get(reverse("dashboard")).content.decode()
    assert html.count('href="/kolaps/units/') == size
    assert html.count('href="/rapid40k/armies/') == size
    assert html.count('href="/modern/characters/') == size
    assert html.count('href="/corporates/characters/') == size
    assert "Corporates, fatigue 0, blessures 2" in html and "JdR moderne, stress 0" in html
    assert "Not Alice" not in html
    with django_assert_num_queries(7):
        data = client.get(reverse("api-dashboard")).json()
    assert [a["name"] for a in data["armies"]][:1] == ["Waaagh 0"]
    systems = [sheet["system"] for sheet in data["sheets"]]
    assert (systems.count("modern-rpg"), systems.count("corporates")) == (size, size)
    assert data["sheets"][-1]["levels"] == [
        {"label": "fatigue", "value": 0},
        {"label": "blessures", "value": 2},
    ]


def test_it_reads_the_next_chapter_and_the_to_do_among_many_chapters(client):
    """The page reads only the chapters it shows: the next one the viewer plays (before an
    earlier one they organise), and in their own campaign the chapters to close (being
    played, or dated in the past) and to settle; never a planned chapter still ahead."""
    organiser, alice, bob = PlayerFactory(), PlayerFactory(), PlayerFactory()
    played = _campaign(organiser, [alice], name="Jouée")
    mine = _campaign(alice, [bob], name="La mienne")
    now = timezone.now()
    chapter_plan(actor=organiser, campaign=played, title="Sans date")
    dated = chapter_plan(actor=organiser, campaign=played, title="Datée",
                         starts_at=now + timedelta(days=5))  # fmt: skip
    past = chapter_plan(
        actor=alice, campaign=mine, title="Passée", starts_at=now + timedelta(days=1)
    )
    Chapter.objects.filter(pk=past.pk).update(starts_at=now - timedelta(days=1))  # its date came
    current = chapter_start(
        actor=alice, chapter=chapter_plan(actor=alice, campaign=mine, title="En cours")
    )
    ahead = chapter_plan(
        actor=alice, campaign=mine, title="Plus tard", starts_at=now + timedelta(days=9)
    )
    closed = chapter_plan(actor=alice, campaign=mine, title="Close")
    chapter_close(
        actor=alice,
        chapter=closed,
        epilogue="Fin.",
        outcomes=[OutcomeInput(player_id=bob.pk, result="victory")],
    )
    client.force_login(alice)
    card = client.get(reverse("api-dashboard")).json()
    assert card["next_chapter"]["id"] == dated.pk  # dated first, and one she plays
    assert card["next_chapter"]["eligible"] is False  # no profile yet
    html = client.get(reverse("dashboard")).content.decode()
    assert reverse("chapter-close", args=[past.pk]) in html
    assert reverse("chapter-close", args=[current.pk]) in html
    assert reverse("chapter-settlement", args=[closed.pk]) in html
    assert reverse("chapter-close", args=[ahead.pk]) not in html
    # Her own campaign only: its first chapter not closed is the next one, hers to organise.
    campaign_leave(player=alice, campaign=played)
    card = client.get(reverse("api-dashboard")).json()
    assert card["next_chapter"]["id"] == past.pk
    assert card["next_chapter"]["eligible"] is None
    assert "organisez." in client.get(reverse("dashboard")).content.decode()


def test_it_lists_the_characters_in_no_unit_and_not_those_in_one(client):
    alice = PlayerFactory()
    unit = kolaps.unit_create(owner=alice, name="Section")
    kolaps.character_create(owner=alice, name="Dupont", archetype="agent-de-police",
                            rank="veteran", unit=unit)  # fmt: skip
    kolaps.character_create(owner=alice, name="Martin", archetype="agent-de-police", rank="veteran")
    client.force_login(alice)
    html = client.get(reverse("dashboard")).content.decode()
    assert "Section" in html and "1 personnage" in html
    assert "Martin" in html
    assert "Dupont" not in html


def test_each_viewer_reads_their_own_card_through_the_same_compiled_reads(client):
    """The dashboard's reads are compiled once and run for each viewer with their id: two
    players in turn each see their own campaign, vote and character, never the other's."""
    seen = {}
    for name in ("Alpha", "Bravo"):
        organiser, player = PlayerFactory(), PlayerFactory()
        campaign = _campaign(organiser, [player], name=f"Campagne {name}")
        chapter = chapter_plan(actor=organiser, campaign=campaign, title=f"Chapitre {name}")
        vote = vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
        kolaps.character_create(owner=player, name=f"Perso {name}", archetype="agent-de-police",
                                rank="veteran")  # fmt: skip
        seen[name] = (player, vote)
    for name, other in (("Alpha", "Bravo"), ("Bravo", "Alpha")):
        player, vote = seen[name]
        client.force_login(player)
        html = client.get(reverse("dashboard")).content.decode()
        assert f"Chapitre {name}" in html and f"Perso {name}" in html
        assert reverse("vote-detail", args=[vote.pk]) in html
        assert f"Campagne {other}" not in html and f"Perso {other}" not in html
        assert reverse("vote-detail", args=[seen[other][1].pk]) not in html

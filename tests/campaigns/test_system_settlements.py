"""Each system's campaign closes, settles and ranks as its declaration says
(`rules.engine.systems.<system>.campaign`, RULES-NOTES CL1, CL2, CL4): the close form
lists what the system asks, the settlement counts every participant exactly once, the
standings show the system's columns in its order, and the pages use no other system's
words."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.entries import chapter_army_enter, chapter_unit_enter
from campaigns.chapters.services import UnitResultInput as OutcomeInputUnit
from campaigns.chapters.services import chapter_close, chapter_plan, chapter_start
from campaigns.models import ChapterOutcome, ChapterSettlement, SettlementEntry
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.settlement.apply import ApplyResult, settlement_apply
from campaigns.settlement.services import settlement_reopen
from campaigns.statistics.services import leaderboard
from characters.kolaps.models import KolapsUnit
from characters.permissions import Refusal
from rules.engine.systems import system_get
from tests.campaigns.test_kolaps_chapters import build_unit, kolaps_table
from tests.campaigns.test_rapid40k_chapters import army_of
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


OTD_WORDS = ("Zombies", "Survival points", "trauma", "Vocation", "Reputation", "Died")


def _no_of_the_dead(html: str) -> None:
    main = html[html.index("<main") :]
    assert not [word for word in OTD_WORDS if word.lower() in main.lower()]


# --- KOLAPS -------------------------------------------------------------------------------


@pytest.fixture
def kolaps(client):
    """alice's Nord (Avatar novice, veteran, novice: 5 VU) against bruno's Sud (novice,
    aguerri: 3 VU), entered on two sides, the chapter started."""
    organiser, campaign, chapter, (alice, bruno) = kolaps_table()
    nord, nord_members = build_unit(alice, "Nord", ranks=("novice", "veteran", "novice"))
    sud, sud_members = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord, side="APC")
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud, side="Ghouls")
    chapter = chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    return {"organiser": organiser, "campaign": campaign, "chapter": chapter, "alice": alice,
            "bruno": bruno, "nord": nord, "nord_members": nord_members, "sud": sud,
            "sud_members": sud_members}  # fmt: skip


def test_the_kolaps_close_asks_each_characters_fate_and_the_settlement_counts_everyone(
    client, kolaps
):
    chapter, nord, sud = kolaps["chapter"], kolaps["nord"], kolaps["sud"]
    chief, veteran, novice = kolaps["nord_members"]
    url = reverse("chapter-close", args=[chapter.pk])
    form = client.get(url).content.decode()
    assert "Characters dead (death roll)" in form and "Characters who changed sides" in form
    assert '<option value="draw">draw</option>' in form
    _no_of_the_dead(form)
    response = client.post(
        url,
        {
            "epilogue": "La gare tombe.",
            f"u{nord.pk}_result": "defeat",
            f"u{nord.pk}_lost": [str(chief.pk), str(veteran.pk)],
            f"u{nord.pk}_changed_side": [str(novice.pk)],
            f"u{sud.pk}_result": "victory",
            f"u{sud.pk}_wounded": [str(kolaps["sud_members"][1].pk)],
        },
    )
    assert response.status_code == 302, response.content.decode()
    record = ChapterOutcome.objects.get(player=kolaps["alice"]).record
    assert record["entry"] == "Nord" and record["value"] == 5
    assert [(m["name"], m["value"], m["lost"], m["changed_side"]) for m in record["members"]] == [
        ("Nord 0", 1, 1, False), ("Nord 1", 3, 1, False), ("Nord 2", 1, 0, True),
    ]  # fmt: skip

    preview = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    assert "Nord 0, Nord 1" in preview and "the unit names another" in preview  # the Avatar
    assert "Changed sides" in preview and "VU lost" in preview
    _no_of_the_dead(preview)

    assert settlement_apply(chapter_id=chapter.pk) == ApplyResult.SETTLED
    assert settlement_apply(chapter_id=chapter.pk) == ApplyResult.ALREADY_SETTLED
    summary = ChapterSettlement.objects.get(chapter=chapter).summary
    assert (summary["participants"], summary["victories"], summary["defeats"]) == (2, 1, 1)
    assert SettlementEntry.objects.filter(chapter=chapter).count() == 2
    # CL1: VU lost the PU of the dead (1 + 3), destroyed what the other side lost.
    rows = leaderboard(campaign_id=kolaps["campaign"].pk, standings=system_get("kolaps").standings)
    assert [(r.name, r.score, r.chapters_won, r.value_destroyed, r.value_lost, r.characters_lost)
            for r in rows] == [(kolaps["bruno"].display_name, 3, 1, 4, 0, 0),
                               (kolaps["alice"].display_name, 0, 0, 0, 4, 2)]  # fmt: skip
    page = client.get(reverse("campaign-leaderboard", args=[kolaps["campaign"].pk]))
    html = page.content.decode()
    assert "Standing points" in html and "VU destroyed" in html and "Draws" in html
    assert (
        "Standing points = 3 \N{MULTIPLICATION SIGN} Victories + 1 \N{MULTIPLICATION SIGN} Draws"
        in html
    )
    _no_of_the_dead(html)
    settled = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    assert "2 participants, 1 victory, 0 draws, 1 defeat" in settled

    settlement_reopen(actor=kolaps["organiser"], chapter=chapter)
    assert leaderboard(campaign_id=kolaps["campaign"].pk) == []
    assert KolapsUnit.objects.get(pk=nord.pk).members.count() == 3


def test_kolaps_draws_rank_above_defeats_and_ties_break_on_vu_destroyed(kolaps):
    chapter, nord, sud = kolaps["chapter"], kolaps["nord"], kolaps["sud"]
    chapter_close(
        actor=kolaps["organiser"],
        chapter=chapter,
        epilogue="Match nul.",
        unit_results=[
            OutcomeInputUnit(nord.pk, "draw", lost_ids=[kolaps["nord_members"][2].pk]),
            OutcomeInputUnit(sud.pk, "draw", lost_ids=[kolaps["sud_members"][1].pk]),
        ],
    )
    settlement_apply(chapter_id=chapter.pk)
    rows = leaderboard(campaign_id=kolaps["campaign"].pk, standings=system_get("kolaps").standings)
    # Both 1 point; bruno destroyed 1 VU (a novice), alice 2 (an aguerri).
    assert [(r.name, r.score, r.rank) for r in rows] == [
        (kolaps["alice"].display_name, 1, 1), (kolaps["bruno"].display_name, 1, 2),
    ]  # fmt: skip


def test_the_kolaps_close_refuses_a_character_of_another_unit(kolaps):
    with pytest.raises(Refusal, match="only characters of this unit"):
        chapter_close(
            actor=kolaps["organiser"],
            chapter=kolaps["chapter"],
            epilogue="Fin.",
            unit_results=[
                OutcomeInputUnit(
                    kolaps["nord"].pk, "victory", wounded_ids=[kolaps["sud_members"][0].pk]
                )
            ],
        )
    assert not ChapterOutcome.objects.exists()


# --- Rapid 40000 ------------------------------------------------------------------------------


@pytest.fixture
def rapid40k(client):
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Armageddon", system="rapid40k")
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La ruche")
    waaagh, dent = army_of(alice, "Waaagh"), army_of(bruno, "Dent")
    chapter_army_enter(actor=alice, chapter=chapter, army=waaagh, side="Nord")
    chapter_army_enter(actor=bruno, chapter=chapter, army=dent, side="Sud")
    chapter = chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    return {"organiser": organiser, "campaign": campaign, "chapter": chapter, "alice": alice,
            "bruno": bruno, "waaagh": waaagh, "dent": dent}  # fmt: skip


def _squads(army):
    return list(army.squads.order_by("position", "pk"))


def test_the_rapid40k_close_lists_the_armies_and_settles_points_by_r1(client, rapid40k):
    chapter, waaagh, dent = rapid40k["chapter"], rapid40k["waaagh"], rapid40k["dent"]
    boss, boyz = _squads(waaagh)[:2]
    url = reverse("chapter-close", args=[chapter.pk])
    form = client.get(url).content.decode()
    assert "Waaagh" in form and "Dent" in form
    assert f"{boyz.name}: Figures lost (0 to 5)" in form  # a Nob and four boys
    _no_of_the_dead(form)
    too_many = client.post(
        url, {"epilogue": "Fin.", f"a{waaagh.pk}_result": "defeat",
              f"a{waaagh.pk}_figures_lost_{boyz.pk}": 6},
    )  # fmt: skip
    assert too_many.status_code == 200 and not ChapterOutcome.objects.exists()
    response = client.post(
        url,
        {
            "epilogue": "La Dent l'emporte.",
            f"a{waaagh.pk}_result": "defeat",
            f"a{waaagh.pk}_figures_lost_{boyz.pk}": 2,
            f"a{waaagh.pk}_figures_lost_{boss.pk}": 5,
            f"a{dent.pk}_result": "victory",
        },
    )
    assert response.status_code == 302, response.content.decode()
    preview = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    assert "2 figures lost of 5" in preview and "Points lost" in preview
    _no_of_the_dead(preview)
    settlement_apply(chapter_id=chapter.pk)
    # CL2: a squad's cost (R1) divided by its figures, times the figures it lost.
    lost = boss.points + boyz.points * 2 // 5
    rows = leaderboard(
        campaign_id=rapid40k["campaign"].pk, standings=system_get("rapid40k").standings
    )
    assert [(r.score, r.value_destroyed, r.value_lost) for r in rows] == [
        (3, lost, 0),
        (0, 0, lost),
    ]
    html = client.get(reverse("campaign-leaderboard", args=[rapid40k["campaign"].pk])).content
    assert b"Points destroyed" in html and b"Wins" in html
    _no_of_the_dead(html.decode())


def test_the_rapid40k_api_close_records_the_squads_losses(client, rapid40k):
    chapter, waaagh, dent = rapid40k["chapter"], rapid40k["waaagh"], rapid40k["dent"]
    boyz = _squads(dent)[1]
    body = {
        "epilogue": "Nul.",
        "army_results": [
            {"army": waaagh.pk, "result": "draw"},
            {"army": dent.pk, "result": "draw", "squads": [{"squad": boyz.pk, "lost": 1}]},
        ],
    }
    closed = client.post(
        reverse("api-chapter-close", args=[chapter.pk]), body, content_type="application/json"
    )
    assert closed.status_code == 200, closed.content
    assert sorted(ChapterOutcome.objects.values_list("result", flat=True)) == ["draw", "draw"]
    # An army not entered into the chapter records nothing.
    other = chapter_plan(actor=rapid40k["organiser"], campaign=rapid40k["campaign"], title="2")
    refused = client.post(
        reverse("api-chapter-close", args=[other.pk]),
        {"epilogue": "x", "army_results": [{"army": waaagh.pk, "result": "draw"}]},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "entered into this chapter" in refused.content.decode()


@pytest.mark.parametrize("squads", [1, 4])
def test_the_rapid40k_close_form_costs_the_same_queries(client, django_assert_num_queries, squads):
    organiser, alice = PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Q", system="rapid40k")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Q")
    chapter_army_enter(actor=alice, chapter=chapter, army=army_of(alice, troops=squads + 1))
    client.force_login(organiser)
    # the user (the session from the cache), the chapter with my membership, the armies
    # entered with their players, their squads
    with django_assert_num_queries(4):
        client.get(reverse("chapter-close", args=[chapter.pk]))


# --- Modern RPG and Corporates: tests/campaigns/test_sheet_campaigns.py (per sheet entered).


def test_the_overall_leaderboard_and_a_profiles_history_count_of_the_dead_only(kolaps):
    chapter_close(
        actor=kolaps["organiser"],
        chapter=kolaps["chapter"],
        epilogue="Fin.",
        unit_results=[OutcomeInputUnit(kolaps["nord"].pk, "victory")],
    )
    settlement_apply(chapter_id=kolaps["chapter"].pk)
    assert leaderboard(campaign_id=kolaps["campaign"].pk)  # the campaign's own standings
    assert leaderboard(player_filter=None) == []

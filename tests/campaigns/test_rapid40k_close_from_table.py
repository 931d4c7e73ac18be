"""A Rapid 40000 chapter played at the live table: its close lists the armies entered and
starts from the figures each squad lost at the table once the encounter has ended; while it
is played, the close sends the organiser to the table (RULES-NOTES CL2: "The close records
each army's result and the figures each squad lost"). The page and its API twin agree, the
organiser may change any of them, and the page reads in the same number of queries whatever
the number of armies."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.chapters.entries import chapter_army_enter
from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import ChapterOutcome
from campaigns.services import campaign_add_participant, campaign_create
from rules.table.models import Combatant
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_create_for_chapter,
    encounter_end,
)
from tests.campaigns.test_rapid40k_chapters import army_of
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def played(armies: int):
    """A started chapter with `armies` armies entered (each its own side) and its table
    open: the organiser removes one figure of the first army's Boyz 0 and two of the last
    army's Boyz 1."""
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Armageddon", system="rapid40k")
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La ruche")
    entered = []
    for n in range(armies):
        player = PlayerFactory()
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
        army = army_of(player, f"Waaagh {n}")
        chapter_army_enter(actor=player, chapter=chapter, army=army)
        entered.append(army)
    chapter_start(actor=organiser, chapter=chapter)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    squads = {
        (c.state["army"], c.name): c.pk for c in Combatant.objects.filter(encounter=encounter)
    }
    for army, squad, times in ((entered[0], "Boyz 0", 1), (entered[-1], "Boyz 1", 2)):
        for _n in range(times):
            encounter.refresh_from_db()
            encounter_act(
                actor=organiser,
                encounter=encounter,
                version=encounter.version,
                action=ActionInput(kind="remove", target=squads[(army.pk, squad)]),
            )
    return organiser, chapter, encounter, entered


def squad_ids(army) -> dict[str, int]:
    return {squad.name: squad.pk for squad in army.squads.all()}


def page_values(html: str, army) -> dict[str, str]:
    """The close page's figures lost for each squad of `army`, by squad name."""
    values = {}
    for name, pk in squad_ids(army).items():
        field = re.search(rf'<input[^>]*name="a{army.pk}_figures_lost_{pk}"[^>]*>', html)
        assert field, name
        value = re.search(r'value="(\d*)"', field.group(0))
        values[name] = value.group(1) if value else ""
    return values


def api_values(draft: dict, army) -> dict[str, int | None]:
    (entry,) = [e for e in draft["entries"] if e["entry"] == army.pk]
    return {m["name"]: m["answers"]["figures_lost"] for m in entry["members"]}


def test_the_close_starts_from_the_figures_lost_at_the_table_page_and_api_alike(client):
    organiser, chapter, encounter, (first, second) = played(armies=2)
    client.force_login(organiser)
    # While the game is played, the close says so and sends the organiser to the table.
    html = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    assert 'id="table-in-play"' in html
    assert reverse("table-encounter", args=[encounter.pk]) in html
    encounter.refresh_from_db()
    encounter_end(actor=organiser, encounter=encounter, version=encounter.version)
    html = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    draft = client.get(reverse("api-chapter-close", args=[chapter.pk])).json()
    assert 'id="table-in-play"' not in html
    assert page_values(html, first) == {"Boss": "0", "Boyz 0": "1", "Boyz 1": "0"}
    assert page_values(html, second) == {"Boss": "0", "Boyz 0": "0", "Boyz 1": "2"}
    assert api_values(draft, first) == {"Boss": 0, "Boyz 0": 1, "Boyz 1": 0}
    assert api_values(draft, second) == {"Boss": 0, "Boyz 0": 0, "Boyz 1": 2}
    # The table does not say who won: the organiser does.
    assert {e["result"] for e in draft["entries"]} == {None}
    assert draft["results"] == ["victory", "draw", "defeat"]


def test_the_organiser_changes_what_the_table_filled_in(client):
    organiser, chapter, _encounter, (first, second) = played(armies=2)
    client.force_login(organiser)
    boyz, gretchin = squad_ids(first)["Boyz 0"], squad_ids(second)["Boyz 1"]
    body = {
        "epilogue": "La ruche tombe.",
        f"a{first.pk}_result": "victory",
        f"a{first.pk}_figures_lost_{boyz}": "3",
        f"a{second.pk}_result": "defeat",
        f"a{second.pk}_figures_lost_{gretchin}": "2",
    }
    response = client.post(reverse("chapter-close", args=[chapter.pk]), body)
    assert response.status_code == 302, response.content.decode()[:2000]
    lost = {
        o.player_id: {m["name"]: m["lost"] for m in o.record["members"]}
        for o in ChapterOutcome.objects.filter(chapter=chapter)
    }
    assert lost[first.owner_id]["Boyz 0"] == 3 and lost[second.owner_id]["Boyz 1"] == 2


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_close_reads_the_table_in_the_same_queries_whatever_the_armies(client):
    counts = {}
    for armies in (2, 5):
        organiser, chapter, encounter, _entered = played(armies=armies)
        encounter.refresh_from_db()
        encounter_end(actor=organiser, encounter=encounter, version=encounter.version)
        client.force_login(organiser)
        page, api = (
            reverse(name, args=[chapter.pk]) for name in ("chapter-close", "api-chapter-close")
        )
        # the chapter with my membership (and what the table told it), the armies entered,
        # their squads; the page reads its user too
        counts[armies] = (_queries(client, page), _queries(client, api))
    assert counts[2] == counts[5] == (4, 3)

"""The seam's walkthrough, for each of the five systems: an organiser and two players run a
campaign end to end through the pages, as they would in a browser (the forms each page
shows, filled and sent, the redirects followed, the page read after each step): each player
builds what the system's players bring, the organiser creates the campaign, invites the
players and plans a chapter, the players enter their roster, the chapter is started, its
live table opened from the chapter page, one action played and the game ended, the chapter
closed through its close form, the settlement confirmed (Celery runs eagerly in the tests)
and the standings or the party page read. Every page answers 200 and speaks its own
system's words only (`tests.test_system_words`), in English and then in French.

Where another helper's work is still to land, the step is checked and the walkthrough goes
on as a user would (typing what was missing); the test then ends as an expected failure
naming what is missing (`KNOWN_GAPS`). The API twin plays KOLAPS and Rapid 40000 through
/api/v1/ with a token."""

import re

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from tests.campaigns.walkthrough_forms import Visit
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SYSTEMS = ("of-the-dead", "kolaps", "rapid40k", "corporates", "modern-rpg")


# --- 1. What each system's players bring ------------------------------------------------------


def _of_the_dead_profile(visit: Visit, name: str) -> str:
    visit.get(reverse("profile-mine"))
    visit.submit(
        "profile-form",
        {"physique": 3, "psychique": 2, "reflexes": 2, "combat": 2, "description": name},
    )
    assert "Your profile is saved." in visit.html and "Status alive" in visit.text()
    return name


def _kolaps_unit(visit: Visit, name: str) -> str:
    visit.get(reverse("kolaps-list"))
    visit.submit(reverse("kolaps-unit-create"), {"name": name})
    unit = visit.url
    for character, rank in ((f"{name} chef", "veteran"), (f"{name} bleu", "novice")):
        visit.get(unit)
        visit.submit(
            reverse("kolaps-character-create"),
            {"name": character, "archetype": "agent-de-police", "rank": rank},
        )
        assert character in visit.text()
    visit.get(unit)
    avatar = next(o for o in visit.form(button=("act", "avatar")).options["act"] if "avatar" in o)
    visit.submit(button=("act", avatar))
    assert "The unit has no Avatar" not in visit.text()
    return name


def _rapid40k_army(visit: Visit, name: str) -> str:
    visit.get(reverse("rapid40k-list"))
    visit.submit(
        reverse("rapid40k-army-create"), {"name": name, "faction": "orks", "points_limit": 1000}
    )
    squads = (
        ("Boss", "command", "orks:big_boss"),
        ("Boyz", "troops", "orks:nob"),
        ("Gretchins", "troops", "orks:nob"),
    )
    for index, (squad, slot, leader) in enumerate(squads):
        visit.submit(
            button=("action", "squad_add"),
            fill={"squad_name": squad, "slot": slot, "leader": leader},
        )
        visit.submit(
            button=("action", "fighter_add"),
            fill={"squad": index, "profile": "orks:boy", "count": 4},
        )
    assert "To solve before a battle" not in visit.text(), visit.text()
    return name


def _corporates_sheet(visit: Visit, name: str) -> str:
    visit.get(reverse("corporates-list"))
    visit.submit(reverse("corporates-list"), {"name": name, "combat_pool": 6})
    assert name in visit.text()
    return name


def _modern_sheet(visit: Visit, name: str) -> str:
    visit.get(reverse("modern-list"))
    visit.submit(
        reverse("modern-list"),
        {
            "name": name,
            "reflexes": 10,
            "endurance": 8,
            "sang_froid": 10,
            "empathie": 8,
            "skill_tir": 6,
            "skill_conduite": 5,
            "specialities": ["pistolet", "course"],
        },
    )
    assert name in visit.text()
    return name


BRINGS = {
    "of-the-dead": _of_the_dead_profile,
    "kolaps": _kolaps_unit,
    "rapid40k": _rapid40k_army,
    "corporates": _corporates_sheet,
    "modern-rpg": _modern_sheet,
}


# The systems whose chapter page has players enter a roster (KOLAPS units, Rapid 40000 army
# lists): in the others, the players come as they are (Of the Dead profiles), or enter their
# character sheet where the chapter page offers it.
ENTERED = ("kolaps", "rapid40k")


# --- 3. One action at the live table, by its page's form -------------------------------------


def _choice(visit: Visit, field: str, label: str) -> str:
    """The value of the action form's `field` option shown as `label`."""
    found = re.search(
        r'<option value="([^"]*)"[^>]*>' + re.escape(label) + r"(?: \([^)]*\))?</option>",
        visit.html[visit.html.index(f'name="{field}"') :],
    )
    assert found, (field, label)
    return found.group(1)


def _of_the_dead_move(o: Visit, a: Visit) -> None:
    me = _choice(a, "actor", "Alice")
    a.submit("action-form", {"kind": "move", "actor": me, "target": me, "distance_cm": 10})
    assert "Alice" in a.text()
    assert "Alice: Move (Walk, 10 cm)" in a.text()


def _kolaps_wound(o: Visit, a: Visit) -> None:
    """K8, a grave wound: Santé 6 falls to 2 and calls for a death roll (threshold 5 at Santé
    2); the organiser types the die rolled by hand, a 1: Bravo bleu dies."""
    o.get(a.url)
    target = _choice(o, "target", "Bravo bleu")
    o.submit(
        "action-form",
        {"kind": "wound", "target": target, "wound": "grave", "roll": "hand", "death_die": "1"},
    )
    assert "Bravo bleu: Grave wound (Santé 6 → 2) — killed · dice rolled by hand" in o.text()


def _rapid40k_shot(o: Visit, a: Visit) -> None:
    boss = _choice(a, "actor", "Boss")
    boyz = _choice(a, "target", "Boyz (Sud)")
    a.submit(
        "action-form",
        {"kind": "shoot", "actor": boss, "target": boyz, "roll": "hand",
         "a_dice": "6 6 6 6 6", "b_dice": "1 1 1 1 1"},
    )  # fmt: skip
    assert "Boss shoots Boyz: a figure falls. · dice rolled by hand" in a.text()
    assert "Boyz Figures 4/5" in a.text()


def _corporates_declare(o: Visit, a: Visit) -> None:
    me = _choice(a, "actor", "Alpha")
    a.submit("action-form", {"kind": "declare", "actor": me, "target": me, "declared": 2})
    assert "Alpha declares 2 actions" in a.text()
    o.get(a.url)
    target = _choice(o, "target", "Alpha")
    o.submit("action-form", {"kind": "wound", "target": target, "amount": 1})
    assert "Alpha: 0 fatigue and 1 wound levels" in o.text()


def _modern_attitude(o: Visit, a: Visit) -> None:
    me = _choice(a, "actor", "Alpha")
    a.submit(
        "action-form", {"kind": "attitude", "actor": me, "target": me, "attitude": "aggressive"}
    )
    assert "Alpha takes the attitude: aggressive" in a.text()
    o.get(a.url)
    target = _choice(o, "target", "Alpha")
    o.submit("action-form", {"kind": "damage", "target": target, "amount": 3})
    assert "Alpha takes 3 damage (7 hit points)" in o.text()


PLAYS = {
    "of-the-dead": _of_the_dead_move,
    "kolaps": _kolaps_wound,
    "rapid40k": _rapid40k_shot,
    "corporates": _corporates_declare,
    "modern-rpg": _modern_attitude,
}


# --- 4. The close, as the organiser fills it ----------------------------------------------------


def _prefix(visit: Visit, side: str) -> str:
    """The close form's prefix of the roster played on `side` (`u12`, `a7`)."""
    found = re.search(r'name="([a-z]\d+)_side"[^>]*value="' + side + '"', visit.html)
    if found is None:
        found = re.search(r'value="' + side + r'"[^>]*name="([a-z]\d+)_side"', visit.html)
    assert found, side
    return found.group(1)


def _close_of_the_dead(o: Visit, alice, bruno) -> list:
    o.submit(
        "close-form",
        {f"p{alice.pk}_result": "victory", f"p{alice.pk}_kills_zonard": 3,
         f"p{bruno.pk}_result": "defeat", f"p{bruno.pk}_kills_zonard": 1},
    )  # fmt: skip
    return []


def _close_kolaps(o: Visit, alice, bruno) -> list:
    nord, sud = _prefix(o, "Nord"), _prefix(o, "Sud")
    # The death at the live table is ticked already among Sud's lost characters.
    form = o.form("close-form")
    assert (f"{sud}_lost", form.options[f"{sud}_lost"][1], "checkbox") in form.fields
    assert "Bravo bleu is lost." in o.text()
    o.submit("close-form", {f"{nord}_result": "victory", f"{sud}_result": "defeat"})
    return []


def _close_rapid40k(o: Visit, alice, bruno) -> list:
    nord, sud = _prefix(o, "Nord"), _prefix(o, "Sud")
    form = o.form("close-form")
    lost = sorted(n for n, _v, _k in form.fields if n.startswith(f"{sud}_figures_lost_"))
    # Sud's second squad (Boyz) lost a figure at the table: the close shows it already.
    prefilled = (lost[1], "1", "number") in form.fields
    o.submit("close-form", {f"{nord}_result": "victory", f"{sud}_result": "defeat", lost[1]: 1})
    return [] if prefilled else ["not prefilled"]


def _rows(o: Visit, alice, bruno) -> tuple[str, str]:
    """The close form's prefixes of Alice's and Bruno's rows: by player (`p12`), or by the
    character sheet each entered, shown as "Alpha — Alice" in the order of the fields."""
    if f'name="p{alice.pk}_result"' in o.html:
        return f"p{alice.pk}", f"p{bruno.pk}"
    rows = [
        n[: -len("_result")] for n, _v, _k in o.form("close-form").fields if n.endswith("_result")
    ]
    text = o.text()
    assert len(rows) == 2 and "Alpha — Alice" in text and "Bravo — Bruno" in text, rows
    return (
        tuple(rows)
        if text.index("Alpha — Alice") < text.index("Bravo — Bruno")
        else tuple(rows[::-1])
    )


def _sheet_close(o: Visit, alice, bruno, carried: dict, fill: dict) -> list:
    """Both played; Alice's row carries what the table left on her character (`carried`:
    field -> value), shown already where the close asks it, else typed by the organiser."""
    mine, theirs = _rows(o, alice, bruno)
    form, gaps, data = (
        o.form("close-form"),
        [],
        {f"{mine}_result": "played", f"{theirs}_result": "played"},
    )
    for field, value in carried.items():
        name = f"{mine}_{field}"
        if name in form.options or any(n == name for n, _v, _k in form.fields):
            if (name, str(value), "number") not in form.fields:
                gaps.append(f"the close's '{field}' is not prefilled from the table")
            data[name] = value
    for field, (mine_value, theirs_value) in fill.items():
        data[f"{mine}_{field}"], data[f"{theirs}_{field}"] = mine_value, theirs_value
    o.submit("close-form", data)
    return gaps


def _close_corporates(o: Visit, alice, bruno) -> list:
    return _sheet_close(o, alice, bruno, {"wounds": 1, "fatigue": 0}, {})


def _close_modern(o: Visit, alice, bruno) -> list:
    # The organiser awards XP; the 3 hit points lost at the table are carried.
    return _sheet_close(o, alice, bruno, {"wounds": 3, "stress": 0}, {"xp": (5, 3)})


CLOSES = {
    "of-the-dead": _close_of_the_dead,
    "kolaps": _close_kolaps,
    "rapid40k": _close_rapid40k,
    "corporates": _close_corporates,
    "modern-rpg": _close_modern,
}

# --- 5. What the settlement shows: the preview, the settled page, the standings --------------

# Each system's (preview, settled page, standings): the text each page shows (a pattern
# where the words around a name may vary).
EXPECTED = {
    "of-the-dead": (
        "Alice — victory Survival points 0 → 2 (+2) Life markers 6 → 6 Moral 4 → 4 Zombies "
        "killed 3 Bruno — defeat Survival points 0 → 1 (+1)",
        "2 participants, 1 victory, 0 deaths, 0 traumas healed, 3 survival points given.",
        "# Player Reputation Played Survived Won Deaths Kills Survival points "
        "1 Alice 9 1 1 1 0 3 2 2 Bruno 4 1 1 0 0 1 1",
    ),
    "kolaps": (
        "Alice (Alpha) — victory VU destroyed 1 VU lost 0 Characters lost 0 Bruno (Bravo) — "
        "defeat VU destroyed 0 VU lost 1 Characters lost 1 Dead Bravo bleu Leaving their unit "
        "Bravo bleu (Bravo)",
        "2 participants, 1 victory, 0 draws, 1 defeat.",
        "# Player Standing points Played Victories Draws Defeats VU destroyed VU lost "
        "Characters lost 1 Alice 3 1 1 0 0 1 0 0 2 Bruno 0 1 0 0 1 0 1 1",
    ),
    "rapid40k": (
        "Alice (Alpha) — victory Points destroyed 59 Points lost 0 Bruno (Bravo) — defeat "
        "Points destroyed 0 Points lost 59 Boyz 1 figure lost of 5",
        "2 participants, 1 victory, 0 draws, 1 defeat.",
        "# Player Standing points Played Wins Draws Losses Points destroyed Points lost "
        "1 Alice 3 1 1 0 0 59 0 2 Bruno 0 1 0 0 1 0 59",
    ),
    "corporates": (
        re.compile(r"Alice(?: \(Alpha\))? — took part Bruno(?: \(Bravo\))? — took part"),
        "2 participants",
        "The party: Walkthrough Player Sessions played Alice 1 Bruno 1",
    ),
    "modern-rpg": (
        re.compile(
            r"Alice(?: \(Alpha\))? — took part XP earned 5 "
            r"Bruno(?: \(Bravo\))? — took part XP earned 3"
        ),
        "2 participants, 8 XP awarded.",
        "The party: Walkthrough Player Sessions played XP earned Alice 1 5 Bruno 1 3",
    ),
}


def _kolaps_after(o: Visit, a: Visit, b: Visit) -> None:
    """K-rules' death: the dead leave their unit, which the player reads on its page."""
    b.get(reverse("kolaps-list"))
    b.get(b.link(r"/kolaps/units/\d+/"))
    text = b.text()
    assert "VU 3 · Valid" in text and "Bravo chef Avatar" in text
    # No longer one of the unit's characters, and not offered back (CL1: "the dead leave
    # their unit for good").
    assert "Bravo bleu" not in text
    return []


def _sheet(visit: Visit) -> dict:
    """The player's character sheet as its form shows it."""
    visit.get(reverse("modern-list" if visit.system == "modern-rpg" else "corporates-list"))
    visit.get(visit.link(r"/(?:modern|corporates)/characters/\d+/"))
    return {name: value for name, value, _kind in visit.form(has={"name": "Alpha"}).fields}


def _corporates_after(o: Visit, a: Visit, b: Visit) -> list:
    """Corporates: wounds and fatigue carried from session to session (the seam's brief): the
    wound level taken at the table is on Alpha's sheet after the settlement."""
    return [] if _sheet(a)["wounds"] == "1" else ["the table's wound is not on the sheet"]


def _modern_after(o: Visit, a: Visit, b: Visit) -> list:
    """Modern RPG, RULES-NOTES CL4: "stress and wounds carry over"; "the organiser awards XP
    at a chapter's close", spent as at creation: Alpha ends with 7 hit points of 10, and 5 XP
    more to spend (17 spent of the creation's 30, + 5)."""
    sheet, gaps = _sheet(a), []
    if sheet["hp"] != "7":
        gaps.append(f"hit points {sheet['hp']} on the sheet, 7 at the table's end")
    if "XP 17 / 35" not in a.text():
        gaps.append("the 5 XP awarded at the close are not on the sheet")
    return gaps


AFTER = {"kolaps": _kolaps_after, "corporates": _corporates_after, "modern-rpg": _modern_after}

# Steps still missing from the product, by system: each is checked, the walkthrough goes on
# as a user would (typing what was missing), then ends as an expected failure naming it.
# Remove a system's entry once its step is built: the walkthrough must then pass whole.
KNOWN_GAPS: dict[str, str] = {}


def _shows(visit: Visit, expected) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.search(visit.text()) is not None
    return expected in visit.text()


# --- The walkthrough ------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_campaign_of_each_system_from_roster_to_standings(system):
    orga, alice, bruno = (PlayerFactory(username=n) for n in ("orga", "alice", "bruno"))
    o, a, b = (Visit(p, system) for p in (orga, alice, bruno))
    rosters = {a: BRINGS[system](a, "Alpha"), b: BRINGS[system](b, "Bravo")}

    # 2. The organiser creates the campaign, invites the players, plans a chapter.
    o.get(reverse("campaign-create") + f"?system={system}")
    o.submit("campaign-form", {"name": "Walkthrough", "system": system})
    campaign_url = o.url
    assert "Walkthrough" in o.text()
    o.submit(f"{campaign_url}invitations/")
    join = o.link(r"[^\"]*/join/[^\"/]+/")
    for player in (a, b):
        player.get(join)
        player.submit()
        assert player.url == campaign_url
    o.get(campaign_url)
    assert alice.display_name in o.text() and bruno.display_name in o.text()
    o.get(o.link(r"/campaigns/\d+/chapters/new/"))
    o.submit("", {"title": "La gare"})
    chapter_url = o.url
    assert re.fullmatch(r"/chapters/\d+/", chapter_url) and "La gare" in o.text()

    # The players enter what they bring, where the chapter page offers it.
    for player, side in ((a, "Nord"), (b, "Sud")):
        player.get(chapter_url)
        entry = re.search(r'id="(\w+-entry-form)"', player.html)
        assert entry is not None or system not in ENTERED, system
        if entry is None:
            continue
        asks = {name for name, _v, _k in player.form(entry.group(1)).fields}
        player.submit(entry.group(1), {"side": side} if "side" in asks else {})
        assert player.url == chapter_url
        assert rosters[player] in player.text()

    # The organiser starts the chapter: what was entered is frozen as it was.
    o.get(chapter_url)
    o.submit("start-chapter")
    assert "La gare being played" in o.text()
    if system in ENTERED:
        assert o.text().count("as it was when the chapter started") == 2

    # 3. The live table, opened from the chapter page; each player reaches it from there.
    o.submit(f"{chapter_url}table/")
    assert re.fullmatch(r"/table/\d+/", o.url)
    table_url = o.url
    a.get(chapter_url)
    a.get(a.link(table_url))
    PLAYS[system](o, a)
    o.get(table_url)
    o.submit(f"{table_url}end/")
    assert "Ended" in o.text()

    # 4. The organiser closes the chapter, reads the settlement's preview and confirms it.
    o.get(chapter_url)
    o.get(o.link(r"/chapters/\d+/close/"))
    gaps = CLOSES[system](o, alice, bruno)
    assert o.url == f"{chapter_url}settlement/"
    preview, settled, standings = EXPECTED[system]
    assert "Preview of every change" in o.text() and _shows(o, preview), o.text()
    with TestCase.captureOnCommitCallbacks(execute=True):
        o.submit(f"{chapter_url}settlement/")
    o.get(f"{chapter_url}settlement/")
    assert "Settled on" in o.text() and settled in o.text(), o.text()

    # The standings (or the party's page), as each of them reads it.
    for visit in (o, a, b):
        visit.get(campaign_url)
        visit.get(visit.link(r"/campaigns/\d+/leaderboard/"))
        assert standings in visit.text(), visit.text()
    gaps += AFTER.get(system, lambda *visits: [])(o, a, b)
    # Every page of the walkthrough, read again in French (the site's first language).
    for visit in (o, a, b):
        visit.again_in("fr")
    if gaps:
        assert system in KNOWN_GAPS, gaps
        pytest.xfail(f"{KNOWN_GAPS[system]}: {'; '.join(gaps)}")


# --- The API twin: the same walkthrough through /api/v1/ with a token ------------------------


class Api:
    """A script of one player: their token (traded for their password), JSON in and out."""

    def __init__(self, player, password):
        self.client = Client()
        answer = self.client.post(
            reverse("api-token"),
            {"username": player.username, "password": password},
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.content
        self.client = Client(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")

    def get(self, route: str, *args):
        answer = self.client.get(reverse(route, args=args), HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200, (route, answer.content)
        return answer.json()

    def post(self, route: str, *args, body=None, expect=(200, 201, 202)):
        answer = self.client.post(
            reverse(route, args=args),
            body or {},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert answer.status_code in expect, (route, answer.status_code, answer.content)
        return answer.json() if answer.content else None


TABLE_LINE = {
    "kolaps": "Bravo bleu: Grave wound (Santé 6 → 2) — killed · dice rolled by hand",
    "rapid40k": "Boss shoots Boyz: a figure falls. · dice rolled by hand",
}


def _api_kolaps_unit(api: Api, name: str) -> dict:
    unit = api.post("api-kolaps-unit-list", body={"name": name})
    for character, rank in ((f"{name} chef", "veteran"), (f"{name} bleu", "novice")):
        api.post(
            "api-kolaps-character-list",
            body={"name": character, "archetype": "agent-de-police", "rank": rank,
                  "unit": unit["id"]},
        )  # fmt: skip
    unit = api.get("api-kolaps-unit", unit["id"])
    chief = next(c for c in unit["characters"] if c["name"] == f"{name} chef")
    unit = api.post(
        "api-kolaps-unit-change",
        unit["id"],
        body={"op": "avatar", "version": unit["version"], "character": chief["id"]},
    )
    assert unit["status"] == "valid", unit
    return unit


def _api_rapid40k_army(api: Api, name: str) -> dict:
    army = api.post(
        "api-rapid40k-army-list", body={"name": name, "faction": "orks", "points_limit": 1000}
    )
    squads = (
        ("Boss", "command", "orks:big_boss"),
        ("Boyz", "troops", "orks:nob"),
        ("Gretchins", "troops", "orks:nob"),
    )
    for index, (squad, slot, leader) in enumerate(squads):
        army = api.post(
            "api-rapid40k-army-change",
            army["id"],
            body={"version": army["version"], "action": "squad_add", "name": squad,
                  "slot": slot, "leader": leader},
        )  # fmt: skip
        army = api.post(
            "api-rapid40k-army-change",
            army["id"],
            body={"version": army["version"], "action": "fighter_add", "squad": index,
                  "profile": "orks:boy", "count": 4},
        )  # fmt: skip
    assert army["status"] == "valid", army
    return army


@pytest.mark.parametrize("system", ["kolaps", "rapid40k"])
def test_the_same_walkthrough_through_the_api(system, password):
    orga, alice, bruno = (PlayerFactory(username=n) for n in ("orga", "alice", "bruno"))
    o, a, b = (Api(p, password) for p in (orga, alice, bruno))
    build = _api_kolaps_unit if system == "kolaps" else _api_rapid40k_army
    rosters = {a: build(a, "Alpha"), b: build(b, "Bravo")}

    campaign = o.post("api-campaign-list", body={"name": "Walkthrough", "system": system})
    campaign_id = campaign["summary"]["id"]
    invitation = o.post("api-invitation-create", campaign_id)
    for player in (a, b):
        player.post("api-campaign-join", invitation["token"])
    assert o.get("api-campaign-detail", campaign_id)["participants"] == [
        alice.display_name,
        bruno.display_name,
    ]
    chapter = o.post("api-chapter-create", campaign_id, body={"title": "La gare"})
    chapter_id = chapter["id"]
    kind, route = (
        ("unit", "api-chapter-units") if system == "kolaps" else ("army", "api-chapter-armies")
    )
    for player, side in ((a, "Nord"), (b, "Sud")):
        player.post(route, chapter_id, body={kind: rosters[player]["id"], "side": side})
    chapter = o.post("api-chapter-start", chapter_id)
    entered = chapter["units"] if system == "kolaps" else chapter["armies"]
    assert [(e["player"], e["side"], e["frozen"]) for e in entered] == [
        ("Alice", "Nord", True), ("Bruno", "Sud", True),
    ]  # fmt: skip
    table = o.post("api-chapter-table", chapter_id)
    fighters = {(c["side"], c["name"]): c for side in table["sides"] for c in side["combatants"]}
    if system == "kolaps":
        table = o.post(
            "api-table-act", table["id"],
            body={"version": table["version"], "kind": "wound",
                  "target": fighters[("Sud", "Bravo bleu")]["id"], "wound": "grave",
                  "dice": {"death_die": [1]}},
        )  # fmt: skip
    else:
        table = a.post(
            "api-table-act", table["id"],
            body={"version": table["version"], "kind": "shoot",
                  "actor": fighters[("Nord", "Boss")]["id"],
                  "target": fighters[("Sud", "Boyz")]["id"],
                  "dice": {"a_dice": [6] * 5, "b_dice": [1] * 5}},
        )  # fmt: skip
    assert table["log"][0]["lines"][0]["text"] == TABLE_LINE[system]
    table = o.post("api-table-end", table["id"], body={"version": table["version"]})
    assert table["status"] == "ended"

    # The close, from what the table recorded (the chapter's `table_record`).
    record = o.get("api-chapter-detail", chapter_id)["table_record"]
    result = {"Nord": "victory", "Sud": "defeat"}
    if system == "kolaps":
        body = {"unit_results": [
            {"unit": int(unit), "result": result[row["side"]], "lost": row["lost_ids"]}
            for unit, row in record["units"].items()
        ]}  # fmt: skip
    else:
        body = {"army_results": [
            {"army": int(army), "result": result[row["side"]],
             "squads": [{"squad": s["squad"], "lost": s["lost"]} for s in row["squads"]]}
            for army, row in record["armies"].items()
        ]}  # fmt: skip
    chapter = o.post("api-chapter-close", chapter_id, body={"epilogue": "La gare tombe.", **body})
    assert chapter["status"] == "closed" and chapter["awaiting_settlement"]
    preview = o.get("api-chapter-settlement", chapter_id)["preview"]
    figures = [
        {k: row.get(k) for k in ("name", "result", "value_destroyed", "value_lost",
                                 "characters_lost")}
        for row in preview["participants"]
    ]  # fmt: skip
    destroyed = 1 if system == "kolaps" else 59  # a novice's VU; Boyz' 295 points / 5 (R1)
    # Rapid 40000 counts no characters lost (CL2): its preview leaves them out.
    assert figures == [
        {"name": "Alice", "result": "victory", "value_destroyed": destroyed, "value_lost": 0,
         "characters_lost": 0 if system == "kolaps" else None},
        {"name": "Bruno", "result": "defeat", "value_destroyed": 0, "value_lost": destroyed,
         "characters_lost": 1 if system == "kolaps" else None},
    ]  # fmt: skip
    if system == "kolaps":
        assert [d["character"] for d in preview["departures"]] == ["Bravo bleu"]
    else:
        assert preview["participants"][1]["squad_losses"] == [["Boyz", "1", "5"]]
    with TestCase.captureOnCommitCallbacks(execute=True):
        o.post("api-chapter-settlement", chapter_id)
    settled = o.get("api-chapter-settlement", chapter_id)
    assert settled["status"] == "done"
    assert {k: settled["summary"][k] for k in ("participants", "victories", "defeats")} == {
        "participants": 2, "victories": 1, "defeats": 1,
    }  # fmt: skip
    for api in (o, a, b):
        standings = api.get("api-campaign-leaderboard", campaign_id)
        rows = [
            (r["rank"], r["name"], r["score"], r["values"]["chapters_won"],
             r["values"]["value_destroyed"])
            for r in standings["rows"]
        ]  # fmt: skip
        assert rows == [(1, "Alice", 3, 1, destroyed), (2, "Bruno", 0, 0, 0)]
    if system == "kolaps":
        unit = b.get("api-kolaps-unit", rosters[b]["id"])
        assert [c["name"] for c in unit["characters"]] == ["Bravo chef"]

"""A whole campaign exported as JSON and imported into an empty instance shows the same pages
(docs/campaign-export.md); a bad file is refused with a sentence and writes nothing."""

import difflib
import json
import re
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Count
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign, CampaignEvent, Chapter
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.settlement.apply import settlement_apply
from campaigns.transfer import document
from campaigns.transfer.services import campaign_export, campaign_import
from characters.models import Player, Profile, Trauma
from characters.permissions import Refusal
from tests.factories import PlayerFactory
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

PAGES = ("campaign-detail", "campaign-leaderboard")


def normalised(html: str) -> str:
    """The page's text, ids in links and forms replaced (a new instance numbers its rows
    anew), the French spaces made plain, the importer's own history line taken out."""
    text = html.replace("\u00a0", " ").replace("\u202f", " ")
    text = text[text.index("<main") : text.index("</main>")]  # the site layout holds tokens
    text = re.sub(r"/(\d+)(?=[/.\"?#])", "/N", text)
    text = re.sub(r"([?&]campaign=)\d+", r"\1N", text)
    text = re.sub(
        r'(id|for|name|value|data-[a-z-]+)="([a-z_-]*)\d+([a-z_-]*)"', r'\1="\2N\3"', text
    )
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    # Invitation links are secrets of the instance: never exported (docs/campaign-export.md).
    text = re.sub(r'<section id="campaign-invitations">.*?</section>', "", text, flags=re.S)
    text = re.sub(
        r"<li[^>]*>(?:(?!</li>).)*a importé la campagne(?:(?!</li>).)*</li>", "", text, flags=re.S
    )
    # The players of an imported campaign are marked as such, in their names and links.
    text = text.replace("imported-", "").replace(" (importé)", "")
    return re.sub(r"\s+", " ", text).replace("> <", ">\n<")


def pages_of(client, campaign: Campaign, skip: set[str] = frozenset()) -> dict[str, str]:
    urls = [reverse(name, args=[campaign.pk]) for name in PAGES]
    urls += [
        reverse("chapter-detail", args=[pk])
        for pk in campaign.chapters.order_by("number").values_list("pk", flat=True)
    ]
    urls += [
        reverse("chapter-settlement", args=[pk])
        for pk in campaign.chapters.filter(status="closed")
        .order_by("number")
        .values_list("pk", flat=True)
    ]
    urls += [
        reverse("vote-detail", args=[pk])
        for pk in campaign.votes.order_by("pk").values_list("pk", flat=True)
    ]
    if campaign.system == "of-the-dead":
        urls += [
            reverse("profile-history", args=[m.player.username])
            for m in campaign.memberships.select_related("player")
            if m.player.username.removeprefix("imported-") not in skip
        ]
    out = {}
    for number, url in enumerate(urls):
        response = client.get(url)
        assert response.status_code == 200, url
        key = re.sub(r"\d+", "N", url.replace("imported-", ""))
        out[str(number) + ":" + key] = normalised(response.content.decode())
    return out


@pytest.mark.django_db(transaction=True)
def test_it_imports_every_demo_campaign_into_an_empty_instance_with_the_same_pages(client):
    call_command("demo_load", stdout=StringIO())
    organiser = Player.objects.get(username="orga")
    client.force_login(organiser)
    campaigns = list(Campaign.objects.order_by("pk"))
    assert {c.system for c in campaigns} >= {
        "of-the-dead",
        "kolaps",
        "rapid40k",
        "corporates",
        "modern-rpg",
    }
    # A player's history spans their campaigns: compared for those who play in one only.
    several = {
        username
        for username, count in Player.objects.annotate(n=Count("memberships"))
        .filter(n__gt=1)
        .values_list("username", "n")
    }
    before = {c.name: pages_of(client, c, skip=several) for c in campaigns}
    assert sum(len(pages) for pages in before.values()) >= 15  # 20 with the demo of today
    files = [json.dumps(campaign_export(actor=organiser, campaign=c)) for c in campaigns]

    # Each campaign into an empty instance: its players become accounts of that instance
    # (a player's history spans the campaigns of the instance, so each is compared alone).
    after = {}
    for text in files:
        call_command("flush", interactive=False, verbosity=0)
        organiser = PlayerFactory(username="orga", display_name="Morgane (organisatrice)")
        client.force_login(organiser)
        imported = campaign_import(actor=organiser, text=text)
        assert CampaignEvent.objects.filter(
            campaign=imported, verb="imported", actor=organiser
        ).exists()
        after[imported.name] = pages_of(client, imported, skip=several)
        # Players the instance did not know: inactive, without a password.
        assert all(
            not p.is_active and not p.has_usable_password()
            for p in Player.objects.exclude(pk=organiser.pk)
        )
    assert sorted(after) == sorted(before)
    for name, pages in before.items():
        assert list(after[name]) == list(pages), name
        for url, text in pages.items():
            diff = "\n".join(
                difflib.unified_diff(text.splitlines(), after[name][url].splitlines(), lineterm="")
            )
            assert after[name][url] == text, f"{name}: {url} differs after the import\n{diff}"


# --- Refusals ------------------------------------------------------------------------------


@pytest.fixture
def exported(db):
    organiser = PlayerFactory(username="morgane")
    campaign = Campaign.objects.create(name="Lyon", system="of-the-dead", organiser=organiser)
    Chapter.objects.create(campaign=campaign, number=1, title="Le pont")
    return organiser, campaign_export(actor=organiser, campaign=campaign)


def refused(organiser, text) -> str:
    counts = (Campaign.objects.count(), Chapter.objects.count(), Player.objects.count())
    with pytest.raises(Refusal) as refusal, translation.override("en"):
        campaign_import(actor=organiser, text=text)
    assert (Campaign.objects.count(), Chapter.objects.count(), Player.objects.count()) == counts
    return str(refusal.value.message)


def test_it_refuses_a_file_too_large(exported, settings):
    organiser, data = exported
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    message = refused(organiser, json.dumps(data) + " " * 1000)
    assert message == "This file is too large: a campaign export may weigh up to 1 KB."
    with pytest.raises(Refusal) as refusal:  # in the site's language, French by default
        campaign_import(actor=organiser, text=json.dumps(data) + " " * 1000)
    assert str(refusal.value.message).replace("\u00a0", " ") == (
        "Ce fichier est trop lourd : un export de campagne pèse au plus 1 Ko."
    )


def test_it_refuses_what_is_not_json_or_not_an_export(exported):
    organiser, _data = exported
    assert "not JSON" in refused(organiser, b"\xff{")
    assert "not JSON" in refused(organiser, "[" * 100_000)
    assert "not a Chronique campaign export" in refused(organiser, json.dumps({"unit": {}}))


def test_it_refuses_another_version(exported):
    organiser, data = exported
    message = refused(organiser, json.dumps({**data, "version": 2}))
    assert message == "This export is of version 2; this Chronique reads version 1."


def test_it_refuses_a_file_that_does_not_follow_its_schema(exported):
    organiser, data = exported
    data["tables"]["chapters"][0]["number"] = 10**30
    assert "does not follow its schema at tables/chapters/0/number" in refused(
        organiser, json.dumps(data)
    )
    assert refused(organiser, json.dumps(data)).endswith(": a number out of range")
    del data["tables"]["chapters"][0]["number"]
    message = refused(organiser, json.dumps(data))
    assert message.endswith("at tables/chapters/0: the field number is missing"), message
    with pytest.raises(Refusal) as refusal:  # French by default, nothing of jsonschema's English
        campaign_import(actor=organiser, text=json.dumps(data))
    assert str(refusal.value.message).replace("\u00a0", " ") == (
        "Cet export ne suit pas son schéma en tables/chapters/0 : le champ number manque"
    )


def test_a_file_without_a_column_that_has_a_default_takes_the_default(exported):
    """A column added later with a default keeps older version-1 files importable."""
    organiser, data = exported
    for column in ("duration_minutes", "weather", "starts_at", "closed_by"):
        del data["tables"]["chapters"][0][column]
    chapter = campaign_import(actor=organiser, text=json.dumps(data)).chapters.get()
    assert (chapter.title, chapter.duration_minutes, chapter.weather) == ("Le pont", 240, "")


def test_it_refuses_a_reference_to_a_row_it_does_not_hold(exported):
    organiser, data = exported
    data["tables"]["chapters"][0]["campaign"] = 999
    assert "refers to a row it does not hold (chapters, campaign)" in refused(
        organiser, json.dumps(data)
    )
    data["tables"]["chapters"][0]["campaign"] = data["tables"]["campaign"][0]["id"]
    data["tables"]["chapters"][0]["closed_by"] = "nobody"
    assert "(chapters, closed_by)" in refused(organiser, json.dumps(data))


def test_it_refuses_dates_and_names_out_of_their_range(exported):
    organiser, data = exported
    chapter = data["tables"]["chapters"][0]
    chapter["starts_at"] = "0036-03-21T12:53:14.244000+00:09"
    assert "tables/chapters/0/starts_at" in refused(organiser, json.dumps(data))
    chapter["starts_at"] = "1999-12-31T20:00:00+00:00"
    assert refused(organiser, json.dumps(data)) == (
        "Choose a date between the years 2000 and 2199."
    )
    chapter["starts_at"] = "2026-13-45T20:00:00+00:00"  # the pattern's shape, not a date
    assert "contradict" in refused(organiser, json.dumps(data))
    chapter["starts_at"] = None
    data["players"][0]["username"] = "<script>"
    assert "tables/campaign/0/organiser" in refused(organiser, json.dumps(data)) or (
        "players/0/username" in refused(organiser, json.dumps(data))
    )


def test_it_imports_a_chapter_the_site_accepted_on_new_years_night_2000(exported):
    """The chapter's years are read as the site reads them (its time zone, Paris): its
    first minutes of 2000 are 1999 in the file's UTC, and the import refused the export
    of a campaign the site had accepted."""
    organiser, data = exported
    chapter = data["tables"]["chapters"][0]
    chapter["starts_at"] = "1999-12-31T23:30:00+00:00"  # 2000-01-01 00:30 in Paris
    campaign = campaign_import(actor=organiser, text=json.dumps(data))
    assert campaign.chapters.get().starts_at.isoformat() == "1999-12-31T23:30:00+00:00"
    for later in ("2199-12-31T23:30:00+00:00", "9999-12-31T23:30:00-05:00"):  # after 2199 there
        chapter["starts_at"] = later
        assert refused(organiser, json.dumps(data)) == (
            "Choose a date between the years 2000 and 2199."
        )


def test_it_refuses_rows_that_contradict_each_other(exported):
    organiser, data = exported
    chapter = dict(data["tables"]["chapters"][0])
    data["tables"]["chapters"].append({**chapter, "id": chapter["id"] + 1})  # number 1 twice
    assert refused(organiser, json.dumps(data)) == (
        "This export holds rows that contradict each other or this site's rules: "
        "nothing was imported."
    )


def test_an_import_never_touches_another_accounts_sheet_or_traumas(db):
    """Every player but the importer becomes a new account: the file's sheets, traumas and
    ledger rows are theirs, never those of the accounts of the same username here."""
    organiser, campaign, players = of_the_dead_table(players=2)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    data = json.dumps(campaign_export(actor=organiser, campaign=campaign))
    real = {p.pk: (p.otd_profile.survival_points, p.otd_profile.status) for p in players}
    real_traumas = set(Trauma.objects.values_list("pk", "active", "permanence"))
    assert json.loads(data)["tables"]["traumas"], "the file carries the sheets' traumas"
    first = campaign_import(actor=organiser, text=data)
    second = campaign_import(actor=organiser, text=data)
    assert first.pk != second.pk
    assert first.chapters.get().outcomes.count() == second.chapters.get().outcomes.count() == 2
    for imported, suffix in ((first, ""), (second, "-2")):
        members = [m.player for m in imported.memberships.select_related("player")]
        assert sorted(m.username for m in members) == [
            f"imported-{p.username}{suffix}" for p in players
        ]
        assert all(not m.is_active and not m.has_usable_password() for m in members)
        assert [m.display_name for m in members] == [f"{p.display_name} (importé)" for p in players]
        assert not imported.ledger.filter(profile__player__in=players).exists()
        assert not imported.ledger.filter(player__in=players).exists()
        assert imported.organiser == organiser
    assert {p.pk: (p.otd_profile.survival_points, p.otd_profile.status) for p in players} == real
    assert real_traumas <= set(Trauma.objects.values_list("pk", "active", "permanence"))
    assert Profile.objects.filter(player__in=players).count() == 2
    assert Profile.objects.count() == 6 and Trauma.objects.count() == 6


def test_the_importers_own_username_is_the_importer_who_keeps_their_sheet(db):
    organiser, campaign, players = of_the_dead_table(players=2)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    data = json.dumps(campaign_export(actor=organiser, campaign=campaign))
    importer = players[0]
    sheet = Profile.objects.get(player=importer)
    imported = campaign_import(actor=importer, text=data)
    assert imported.organiser == importer
    members = sorted(m.player.username for m in imported.memberships.select_related("player"))
    assert members == sorted([importer.username, "imported-" + players[1].username])
    mine = imported.ledger.get(player=importer)
    # The importer keeps their sheet, the file's is not written, and the imported ledger
    # names no sheet: nothing it holds, nor a reopen of its chapter, reaches the one kept.
    assert mine.profile_id is None and mine.effects == []
    assert Profile.objects.get(pk=sheet.pk).survival_points == sheet.survival_points
    assert Profile.objects.filter(player=importer).count() == 1
    assert not imported.ledger.filter(player=players[1]).exists()


def test_it_refuses_an_id_inside_json_the_file_does_not_hold(db):
    """A ledger effect naming a trauma of the database, not of the file, is refused."""
    organiser, campaign, players = of_the_dead_table(players=2)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    other_orga, other, others = of_the_dead_table(players=1, prefix="x")
    closed_chapter(other_orga, other, others)
    victim = Trauma.objects.get(profile__player=others[0])
    data = campaign_export(actor=organiser, campaign=campaign)
    assert victim.pk not in {t["id"] for t in data["tables"]["traumas"]}
    data["tables"]["ledger"][0]["effects"] = [{"op": "trauma_healed", "trauma": victim.pk}]
    message = refused(organiser, json.dumps(data))
    assert message == "This export refers to a row it does not hold (ledger, effects.trauma)."
    with pytest.raises(Refusal) as refusal:
        campaign_import(actor=organiser, text=json.dumps(data))
    assert str(refusal.value.message).replace("\u00a0", " ") == (
        "Cet export renvoie à une ligne qu'il ne contient pas (ledger, effects.trauma)."
    )
    data["tables"]["ledger"][0]["effects"] = [{"op": "trauma_healed", "trauma": True}]
    assert "tables/ledger/0/effects/0/trauma" in refused(organiser, json.dumps(data))


def test_the_export_keeps_the_players_private_sheet_at_home(db):
    organiser, campaign, players = of_the_dead_table(players=2)
    closed_chapter(organiser, campaign, players)
    Trauma.objects.update(notes="secret médical")
    Profile.objects.update(description="Ma vie", portrait_url="https://example.org/me.png")
    elsewhere = campaign_create(organiser=organiser, name="Ailleurs", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=elsewhere, player=players[0])
    closed_chapter(organiser, elsewhere, players[:1], title="Autre part")
    Trauma.objects.create(profile=players[0].otd_profile, name="Sans chapitre", kind="physical")
    data = campaign_export(actor=organiser, campaign=campaign)
    text = json.dumps(data, ensure_ascii=False)
    assert "secret médical" not in text and "Ma vie" not in text and "me.png" not in text
    assert "Autre part" not in text and "Sans chapitre" not in text
    chapters = {c["id"] for c in data["tables"]["chapters"]}
    assert data["tables"]["traumas"] and all(
        t["chapter"] in chapters for t in data["tables"]["traumas"]
    )
    assert not {"notes"} & set(data["tables"]["traumas"][0])
    assert not {"description", "portrait_url"} & set(data["tables"]["profiles"][0])
    # A ledger effect naming a trauma of another campaign names none in the file.
    other = Trauma.objects.get(chapter__campaign=elsewhere)
    settlement_apply(chapter_id=campaign.chapters.get().pk)
    entry = campaign.ledger.order_by("pk").first()
    assert entry is not None
    entry.effects = [{"op": "trauma_healed", "trauma": other.pk}]
    entry.save(update_fields=["effects"])
    data = campaign_export(actor=organiser, campaign=campaign)
    assert {"op": "trauma_healed", "trauma": None} in [
        e for row in data["tables"]["ledger"] for e in row["effects"]
    ]
    assert campaign_import(actor=organiser, text=json.dumps(data)).ledger.exists()


def test_it_refuses_json_values_of_the_wrong_shape(db):
    organiser, campaign, players = of_the_dead_table(players=2)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    data = campaign_export(actor=organiser, campaign=campaign)
    for path, bad in (
        (("history", 0, "data"), ["a", "list"]),
        (("ledger", 0, "effects"), ["not an object"]),
        (("ledger", 0, "effects"), [{"trauma": 1}]),
        (("chapters", 0, "table_record"), [1, 2]),
        (("campaign", 0, "rules_settings"), []),
    ):
        copy = json.loads(json.dumps(data))
        copy["tables"][path[0]][path[1]][path[2]] = bad
        message = refused(organiser, json.dumps(copy))
        assert "does not follow its schema at tables/" + path[0] in message, message
    copy = json.loads(json.dumps(data))
    copy["tables"]["campaign"][0]["rules_settings"] = {"no-such-setting": 1}
    assert refused(organiser, json.dumps(copy)) == (
        "This export's rules settings are not those of its game system."
    )
    copy = json.loads(json.dumps(data))
    copy["tables"]["history"][0]["data"] = {"deep": json.loads("[" * 600 + "]" * 600)}
    assert refused(organiser, json.dumps(copy)) == (
        "This export nests a value too deeply (history, data)."
    )
    with pytest.raises(Refusal) as refusal:
        campaign_import(actor=organiser, text=json.dumps(copy))
    assert str(refusal.value.message).replace("\u00a0", " ") == (
        "Cet export imbrique une valeur trop profondément (history, data)."
    )


def test_usernames_are_matched_whatever_their_case_and_in_their_format(exported):
    _organiser, data = exported
    PlayerFactory(username="bruno")
    importer = PlayerFactory(username="claire")
    data["players"] += [
        {"username": "Bruno", "display_name": "Bruno"},
        {"username": "Claire", "display_name": "Claire"},
    ]
    for number, username in enumerate(["Bruno", "Claire"]):
        data["tables"]["memberships"].append(
            {"id": number + 1, "campaign": data["tables"]["campaign"][0]["id"], "player": username,
             "joined_at": "2026-01-01T10:00:00+00:00", "role": "player"}
        )  # fmt: skip
    campaign = campaign_import(actor=importer, text=json.dumps(data))
    members = sorted(m.player.username for m in campaign.memberships.select_related("player"))
    assert members == ["claire", "imported-Bruno"]
    assert not Player.objects.filter(username="Bruno").exists()
    twice = json.loads(json.dumps(data))
    twice["players"].append({"username": "bruno", "display_name": "Bruno"})
    assert refused(importer, json.dumps(twice)) == "This export lists a player twice."
    newline = json.loads(json.dumps(data))
    newline["players"][-1]["username"] = "alice\n"
    assert "players/" in refused(importer, json.dumps(newline))
    crowd = json.loads(json.dumps(data))
    crowd["players"] += [{"username": f"p{n}", "display_name": ""} for n in range(201)]
    assert refused(importer, json.dumps(crowd)) == (
        "This export holds more than 200 players: it cannot be imported."
    )
    with pytest.raises(Refusal) as refusal:
        campaign_import(actor=importer, text=json.dumps(crowd))
    assert str(refusal.value.message).replace("\u00a0", " ") == (
        "Cet export compte plus de 200 joueurs : il ne peut être importé."
    )


def test_a_player_who_left_keeps_their_settled_chapters_in_the_file(db):
    from campaigns.services import campaign_leave
    from campaigns.settlement.apply import settlement_apply

    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    campaign_leave(player=players[2], campaign=campaign)
    data = campaign_export(actor=organiser, campaign=campaign)
    assert players[2].username in {p["username"] for p in data["players"]}
    imported = campaign_import(actor=organiser, text=json.dumps(data))
    ledger = imported.ledger.order_by("player__username")
    # Imported where it was exported: every player a new account (`imported-<username>`).
    assert [e.player.username for e in ledger] == ["imported-" + p.username for p in players]
    assert imported.memberships.count() == 2


def test_every_player_but_the_importer_becomes_a_new_account(exported):
    _organiser, data = exported
    bruno = PlayerFactory(username="bruno")
    data["players"].append({"username": "bruno", "display_name": "Bruno"})
    data["players"].append({"username": "nouveau", "display_name": "Nouveau"})
    for number, username in enumerate(["bruno", "nouveau"]):
        data["tables"]["memberships"].append(
            {"id": number + 1, "campaign": data["tables"]["campaign"][0]["id"], "player": username,
             "joined_at": "2026-01-01T10:00:00+00:00", "role": "player"}
        )  # fmt: skip
    importer = PlayerFactory(username="claire")
    campaign = campaign_import(actor=importer, text=json.dumps(data))
    assert campaign.organiser == importer
    members = {m.player.username: m.player for m in campaign.memberships.select_related("player")}
    assert set(members) == {"imported-bruno", "imported-nouveau"}
    assert bruno not in members.values()
    bruno_here, nouveau = members["imported-bruno"], members["imported-nouveau"]
    assert bruno_here.display_name == "Bruno (importé)" and not bruno_here.is_active
    assert nouveau.display_name == "Nouveau (importé)" and not nouveau.is_active
    joined = campaign.memberships.get(player=bruno_here).joined_at
    assert str(joined) == "2026-01-01 10:00:00+00:00"


def test_only_organisers_export(exported):
    _organiser, _data = exported
    stranger = PlayerFactory(username="stranger")
    campaign = Campaign.objects.get()
    with pytest.raises(Exception) as refusal:
        campaign_export(actor=stranger, campaign=campaign)
    assert type(refusal.value).__name__ in ("Http404", "Forbidden")


def test_the_schema_file_is_the_one_the_tables_describe():
    assert document.SCHEMA_FILE.read_text() == document.schema_text(), (
        "regenerate it (docs/campaign-export.md, Versions)"
    )


# --- Pages, API and query budget -------------------------------------------------------------


def test_the_download_and_the_import_form_work_as_pages(exported, client, settings):
    organiser, _data = exported
    client.force_login(organiser)
    campaign = Campaign.objects.get()
    page = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert reverse("campaign-export", args=[campaign.pk]) in page
    download = client.get(reverse("campaign-export", args=[campaign.pk]))
    assert download["Content-Disposition"] == f'attachment; filename="campaign-{campaign.pk}.json"'
    text = download.content.decode()
    response = client.post(reverse("campaign-import"), {"text": text})
    assert response.status_code == 302
    assert Campaign.objects.count() == 2
    client.cookies["django_language"] = "en"
    bad = client.post(
        reverse("campaign-import"), {"text": text.replace('"version": 1', '"version": 7')}
    )
    assert "This export is of version 7" in bad.content.decode()
    assert Campaign.objects.count() == 2
    # The file itself, as the browser sends it; one over the limit is refused whole.
    upload = SimpleUploadedFile("campaign.json", text.encode(), "application/json")
    assert client.post(reverse("campaign-import"), {"file": upload}).status_code == 302
    assert Campaign.objects.count() == 3
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    heavy = SimpleUploadedFile("big.json", b" " * (limit + 10), "application/json")
    bad = client.post(reverse("campaign-import"), {"file": heavy})
    assert "This file is too large" in bad.content.decode()
    # Far over it: refused before the upload is read (config/uploads.py).
    heavier = SimpleUploadedFile("big.json", b" " * (settings.UPLOAD_MAX_BYTES + 1))
    bad = client.post(reverse("campaign-import"), {"file": heavier})
    assert bad.status_code == 413 and "This request is too large" in bad.content.decode()
    assert Campaign.objects.count() == 3


def test_the_api_twin_refuses_with_a_sentence(exported, client):
    organiser, data = exported
    client.force_login(organiser)
    huge = {**data, "padding": "x" * 600_000}
    response = client.post(reverse("api-campaign-import"), huge, content_type="application/json")
    assert response.status_code == 413 and response.json()["detail"]
    response = client.post(
        reverse("api-campaign-import"),
        {**data, "version": 3},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "version 3" in json.dumps(response.json())
    response = client.post(reverse("api-campaign-import"), data, content_type="application/json")
    assert response.status_code == 201
    exported_again = client.get(
        reverse("api-campaign-export", args=[response.json()["summary"]["id"]])
    )
    assert exported_again.json()["tables"]["chapters"][0]["title"] == "Le pont"


def test_the_export_costs_the_same_queries_whatever_the_campaigns_size(
    db, django_assert_num_queries
):
    small_orga, small, small_players = of_the_dead_table(players=2, prefix="s")
    closed_chapter(small_orga, small, small_players)
    big_orga, big, big_players = of_the_dead_table(players=8, prefix="b")
    for number in range(4):
        closed_chapter(big_orga, big, big_players, title=f"Chapitre {number}")
    with django_assert_num_queries(QUERIES):
        campaign_export(actor=small_orga, campaign=small)
    with django_assert_num_queries(QUERIES):
        data = campaign_export(actor=big_orga, campaign=big)
    assert len(data["tables"]["chapters"]) == 4 and len(data["players"]) == 9


# One per table (the four of the character sheets and their entries among them), the
# membership read, the players the rows name.
QUERIES = 26


def test_the_import_costs_the_same_queries_whatever_the_campaigns_size(
    db, django_assert_num_queries
):
    """Without votes: each vote adds the queries of its candidates (docs/campaign-export.md)."""
    files = []
    for players, chapters, prefix in ((2, 1, "s"), (8, 4, "b")):
        organiser, campaign, members = of_the_dead_table(players=players, prefix=prefix)
        for number in range(chapters):
            closed_chapter(organiser, campaign, members, title=f"Chapitre {number}")
        files.append(json.dumps(campaign_export(actor=organiser, campaign=campaign)))
    importer = PlayerFactory(username="importer")
    for text in files:
        with django_assert_num_queries(IMPORT_QUERIES):
            campaign_import(actor=importer, text=text)


IMPORT_QUERIES = 27

"""What was tried from outside and answered 500, an English HTML page or a date no client
can read: each now gets a 4xx with a sentence in the request's language, and nothing is
written."""

import json

import pytest
from django.urls import reverse

from campaigns.models import Chapter, Vote
from campaigns.services import campaign_create
from characters.kolaps.models import KolapsUnit
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    player = PlayerFactory(username="orga")
    client.force_login(player)
    return player


@pytest.fixture
def campaign(organiser):
    return campaign_create(organiser=organiser, name="Lyon", system="of-the-dead")


def post(client, url, body: bytes | str, **headers):
    return client.post(url, body, content_type="application/json", **headers)


def sentence(response) -> str:
    """The sentence of a JSON refusal, whichever field it is under."""
    body = response.json()
    assert isinstance(body, dict) and body, body
    value = next(iter(body.values()))
    return value if isinstance(value, str) else " ".join(map(str, value))


def test_a_vote_candidate_beyond_64_bits_is_refused_not_a_500(client, campaign):
    body = '{"kind":"vocations","candidates":[-69427557370783899648],"chapter":1}'
    response = post(client, reverse("api-vote-open", args=[campaign.pk]), body)
    assert response.status_code == 400
    assert "hors limites" in sentence(response)
    assert not Vote.objects.exists()


@pytest.mark.parametrize("digits", [20, 5000])
def test_a_huge_integer_anywhere_in_a_body_is_refused(client, campaign, digits):
    body = json.dumps({"name": "x"})[:-1] + ', "players_min": ' + "9" * digits + "}"
    response = post(client, reverse("api-chapter-create", args=[campaign.pk]), body)
    assert response.status_code == 400
    assert "hors limites" in sentence(response)


def test_it_declares_the_chapters_ranges_in_the_schema_and_refuses_with_their_sentence(
    client, campaign
):
    """A generated client is right only when the schema says what the server refuses:
    it declared 64 bits for numbers the chapter services bound to 99 and 999."""
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    fields = schema["ChapterWrite"]["properties"]
    declared = {name: fields[name]["maximum"] for name in ("players_min", "players_max")}
    assert declared == {"players_min": 99, "players_max": 99}
    assert fields["min_survival_points"]["maximum"] == 999
    url = reverse("api-chapter-create", args=[campaign.pk])
    for body, refusal in (
        ({"players_max": 100}, {"players_max": ["Entre 1 et 99 joueurs."]}),
        ({"players_min": 0}, {"players_min": ["Entre 1 et 99 joueurs."]}),
        ({"min_survival_points": 1000}, {"min_survival_points": ["Entre 0 et 999 points."]}),
    ):
        response = post(client, url, json.dumps({"title": "T", **body}))
        assert (response.status_code, response.json()) == (400, refusal)
    assert not Chapter.objects.exists()


@pytest.mark.parametrize("year", ["0036", "1899", "2400"])
def test_a_chapter_date_outside_the_sane_years_is_refused_with_a_sentence(client, campaign, year):
    body = {"title": "Loin", "starts_at": f"{year}-03-21T12:53:14Z"}
    response = post(client, reverse("api-chapter-create", args=[campaign.pk]), json.dumps(body))
    assert response.status_code == 400
    assert response.json() == {"starts_at": ["Choisissez une date entre les années 2000 et 2199."]}
    assert not Chapter.objects.exists()


def test_every_chapter_date_given_back_is_rfc_3339(client, campaign):
    body = {"title": "Proche", "starts_at": "2027-03-21T12:53:14Z"}
    made = post(client, reverse("api-chapter-create", args=[campaign.pk]), json.dumps(body))
    assert made.status_code == 201, made.content
    assert made.json()["starts_at"] in ("2027-03-21T13:53:14+01:00", "2027-03-21T12:53:14Z")


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/kolaps/units/",
        "/api/v1/rules/kolaps/test/odds",
        "/api/v1/rules/kolaps/ranged/evaluate",
        "/api/v1/kolaps/units/import/",
    ],
)
def test_json_nested_100000_levels_deep_is_refused_with_a_sentence(client, organiser, url):
    response = post(client, url, DEEP)
    assert response.status_code == 400, response.content[:200]
    assert "imbriqué" in sentence(response)


def test_json_nested_a_little_too_deep_is_refused_too(client, organiser):
    body = {"name": "x", "deep": json.loads("[" * 40 + "]" * 40)}
    response = post(client, "/api/v1/kolaps/units/", json.dumps(body))
    assert response.status_code == 400
    assert "32 niveaux" in sentence(response)


@pytest.mark.parametrize("megabytes", [1, 10])
def test_a_body_of_megabytes_is_a_413_with_a_sentence_in_json(client, organiser, megabytes):
    body = json.dumps({"name": "x" * (megabytes * 1024 * 1024)})
    for url in (
        "/api/v1/kolaps/units/",
        "/api/v1/kolaps/units/import/",
        "/api/v1/rules/kolaps/test/odds",
    ):
        response = post(client, url, body)
        assert response.status_code == 413, (url, response.content[:200])
        assert response["Content-Type"] == "application/json"
        assert "trop volumineuse" in sentence(response)
    assert not KolapsUnit.objects.exists()


def test_a_body_of_megabytes_in_english_is_said_in_english(client, organiser):
    body = json.dumps({"name": "x" * (2 * 1024 * 1024)})
    response = post(client, "/api/v1/kolaps/units/", body, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    assert sentence(response) == "This request is too large: send at most 512 KB."


def test_invalid_utf8_is_a_sentence_in_the_requests_language(client, organiser):
    french = post(client, "/api/v1/kolaps/units/", b'{"name": "\xff\xfe"}')
    assert french.status_code == 400
    assert sentence(french) == "Le corps de la requête n'est pas un texte UTF-8 valide."
    english = post(client, "/api/v1/kolaps/units/", b'{"name": "\xff"}', HTTP_ACCEPT_LANGUAGE="en")
    assert sentence(english) == "The body is not valid UTF-8 text."


@pytest.mark.parametrize("body", ['{"name": NaN}', '{"name": Infinity}', "{not json"])
def test_what_is_not_json_is_refused(client, organiser, body):
    response = post(client, "/api/v1/kolaps/units/", body)
    assert response.status_code == 400
    assert "JSON valide" in sentence(response)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/campaigns/-1/",
        "/api/v1/campaigns/abc/",
        "/api/v1/campaigns/99999999999999999999999/",
        "/api/v1/kolaps/units/-5/",
        "/api/v1/chapters/9223372036854775808/",
        "/api/v1/nowhere/",
    ],
)
def test_a_negative_non_numeric_or_huge_id_is_a_json_404(client, organiser, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert sentence(response)


def test_a_page_with_too_many_form_fields_says_so(client, organiser):
    data = "&".join(f"f{i}=1" for i in range(1500))
    response = client.post(
        reverse("kolaps-unit-create"), data, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "trop de champs" in response.content.decode()


def test_an_account_change_nested_too_deep_is_refused(client, organiser):
    response = client.patch("/api/v1/me/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert "imbriqué" in sentence(response)


def test_a_signup_nested_too_deep_or_too_large_is_refused(client, db):
    deep = post(client, "/api/v1/auth/signup/", DEEP)
    assert deep.status_code == 400 and "trop imbriqué" in sentence(deep)
    large = post(client, "/api/v1/auth/signup/", json.dumps({"username": "x" * 2_000_000}))
    assert large.status_code == 413 and "trop volumineuse" in sentence(large)

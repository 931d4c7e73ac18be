"""The Corporates turn tracker page and the home page's working systems."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def turn_query(**rows):
    data = {"form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "0"}
    for index, row in rows.items():
        data.update({f"form-{index}-{k}": v for k, v in row.items()})
    return data


def test_it_shows_who_acts_in_each_segment(client, django_assert_num_queries):
    query = turn_query(
        **{
            "0": {"name": "Kay", "declared": "3"},
            "1": {"name": "Rook", "declared": "1", "undeclared": ["1"]},
        }
    )
    with django_assert_num_queries(0):
        response = client.get(reverse("corporates-turn"), query)
    body = response.content.decode()
    assert "Kay" in body and "Rook" in body
    # "3 X - X - X -2d": Kay acts in segments 1, 3 and 5 at -2d.
    assert body.count("déclarée · -2d") == 3
    # Rook's undeclared action in segment 1 costs 1d to its declared action in segment 3.
    assert "non déclarée · -0d" in body
    assert "déclarée · -1d" in body


def test_the_plan_comes_alone_to_htmx(client):
    query = turn_query(**{"0": {"name": "Kay", "declared": "2"}})
    response = client.get(
        reverse("corporates-turn"), query, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="turn-plan"
    )
    assert b"<html" not in response.content
    assert b'id="turn-plan"' in response.content


def test_a_delay_past_segment_five_loses_the_action(client):
    query = turn_query(**{"0": {"name": "Kay", "declared": "3", "delay": "1"}})
    response = client.get(reverse("corporates-turn"), query)
    assert "au-delà du segment 5" in response.content.decode()


def test_the_home_page_shows_only_systems_that_work_with_their_links(client):
    body = client.get(reverse("home")).content.decode()
    assert reverse("dice-calculators", kwargs={"system": "corporates"}) in body
    assert reverse("dice-calculators", kwargs={"system": "modern-rpg"}) in body
    assert reverse("corporates-turn") in body
    # Every registered system works now; each shows its links.
    assert reverse("rapid40k-calculator", kwargs={"resolver": "cost"}) in body

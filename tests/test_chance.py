"""One way of showing a chance on every page: a localized percentage ("80,4 %" in French,
with a narrow no-break space), "< 0,1 %" for a tiny chance that can still happen, "0 %" only
for the impossible, the exact fraction in the title a tap shows."""

import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from characters.chance import chance, chance_text

NNBSP = "\u202f"


@pytest.mark.parametrize(
    ("value", "french", "english"),
    [
        ("37457/46656", f"80,3{NNBSP}%", "80.3%"),
        (Fraction(1, 16), f"6,3{NNBSP}%", "6.3%"),
        (0.804, f"80,4{NNBSP}%", "80.4%"),
        ("0/1", f"0{NNBSP}%", "0%"),
        (0.0, f"0{NNBSP}%", "0%"),
        (2.3e-10, f"<\u00a00,1{NNBSP}%", "< 0.1%"),
        ("1/46656", f"<\u00a00,1{NNBSP}%", "< 0.1%"),
        ("46655/46656", f">\u00a099,9{NNBSP}%", "> 99.9%"),
        (1, f"100{NNBSP}%", "100%"),
    ],
)
def test_a_chance_reads_as_a_localized_percentage(value, french, english):
    with translation.override("fr"):
        assert chance_text(value) == french
    with translation.override("en"):
        assert chance_text(value) == english


def test_the_exact_fraction_is_a_tap_away():
    with translation.override("fr"):
        html = chance("37457/46656")
        tiny = chance("1/46656")
        far = chance(2.3e-10)
    assert html == (f'<abbr class="chance" title="37457/46656" tabindex="0">80,3{NNBSP}%</abbr>')
    assert 'title="1/46656, environ 1 sur 46\u00a0656"' in tiny
    assert "e-10" not in far and "environ 1 sur 4\u00a0347\u00a0826\u00a0087" in far


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "query"),
    [
        (reverse("dice-calculator", args=["corporates", "damage"]), "damage_dice=3&soak_dice=2"),
        (
            reverse("dice-calculator", args=["modern-rpg", "cold-blood"]),
            "characteristic=4&empathie=4&sang_froid=4&stress=3",
        ),
    ],
)
def test_calculator_facts_show_no_raw_float(client, url, query):
    """Corporates damage answered "2.30e-10", the cold-blood odds "0.000"."""
    client.cookies["django_language"] = "fr"
    html = client.get(f"{url}?{query}").content.decode()
    assert 'class="chance"' in html
    shown = re.sub(r"<[^>]*>", " ", html)  # what a player reads, not the meters' values
    for raw in ("e-1", "e-0", "0.000", "0,000"):
        assert raw not in shown

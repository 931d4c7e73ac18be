"""User text among the site's words: isolated when it could reorder them (right-to-left
letters, bidi controls), given back byte for byte otherwise."""

import pytest
from django.template import Context, Template

from characters.bidi import isolate_html, isolate_text

RLO, FSI, PDI = "\u202e", "\u2068", "\u2069"


@pytest.mark.parametrize(
    ("typed", "html", "text"),
    [
        ("Brigade", "Brigade", "Brigade"),
        ("Élodie & <Co>", "Élodie &amp; &lt;Co&gt;", "Élodie & <Co>"),
        ("Zoë\u200b", "Zoë\u200b", "Zoë\u200b"),  # zero-width: nothing to reorder
        (f"ab{RLO}cd", f"<bdi>ab{RLO}cd</bdi>", f"{FSI}ab{RLO}cd{PDI}"),
        ("שלום", "<bdi>שלום</bdi>", f"{FSI}שלום{PDI}"),
        ("سلام <b>", "<bdi>سلام &lt;b&gt;</bdi>", f"{FSI}سلام <b>{PDI}"),
        ("x\u2066y", "<bdi>x\u2066y</bdi>", f"{FSI}x\u2066y{PDI}"),
        ("x\u200fy", "<bdi>x\u200fy</bdi>", f"{FSI}x\u200fy{PDI}"),
    ],
)
def test_it_isolates_only_what_could_reorder_the_words_around_it(typed, html, text):
    assert isolate_html(typed) == html
    assert isolate_text(typed) == text


def test_it_isolates_names_in_templates_without_loading_a_library():
    page = Template(
        "{% block title %}{{ name|bdi_text }} · Chronique{% endblock %}"
        "<p>{{ name|bdi }} a rejoint la campagne</p>"
    ).render(Context({"name": f"<i>Marie{RLO}</i>"}))
    assert page == (
        f"{FSI}&lt;i&gt;Marie{RLO}&lt;/i&gt;{PDI} · Chronique"
        f"<p><bdi>&lt;i&gt;Marie{RLO}&lt;/i&gt;</bdi> a rejoint la campagne</p>"
    )

"""Any body sent to a Corporates or modern RPG resolver is answered or refused with a
`RuleInputError` (a 400 sentence at the API), never a crash (a 500)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.errors import RuleInputError
from rules.engine.registry import RESOLVERS

OURS = [r for r in RESOLVERS if r.system in ("corporates", "modern-rpg")]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-50, 300)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.parametrize("resolver", OURS, ids=lambda r: f"{r.system}/{r.name}")
def test_it_answers_or_refuses_any_body(resolver):
    keys = list(resolver.input_schema["properties"])
    bodies = st.dictionaries(st.sampled_from(keys), json_values, max_size=6)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=bodies, verb=st.sampled_from(["odds", "evaluate", "roll"]))
    def check(body, verb):
        try:
            if verb == "roll":
                resolver.roll(body, random.Random(1))
            else:
                getattr(resolver, verb)(body)
        except RuleInputError:
            pass

    check()

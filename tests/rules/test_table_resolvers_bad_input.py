"""Whatever body the Of the Dead and KOLAPS table resolvers get, they answer or refuse with
a `RuleInputError` naming a field (a 400 sentence in the API): never another exception."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.errors import RuleInputError
from rules.engine.registry import RESOLVERS

TABLE = [
    r
    for r in RESOLVERS
    if r.system == "of-the-dead"
    or r.name
    in {
        "shield",
        "sonar",
        "terreur",
        "ralliement",
        "fall",
        "moral_effect",
        "stray_shot",
        "bookkeeping",
    }
]
leaves = st.none() | st.booleans() | st.integers(-30, 30) | st.sampled_from(
    ["useful", "effective", "partial", "hidden", "slight", "moderate", "molotov", "stumble",
     "novice", "expert", "apc", "sheol", "a", "run", "action", ""]
)  # fmt: skip
values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["combat", "reflexes", "life", "moral", "key", "zeal", "cover", "dice"]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=10,
)


def bodies(resolver):
    keys = sorted(resolver.input_schema["properties"])
    return st.dictionaries(st.sampled_from(keys), values, max_size=len(keys))


@pytest.mark.parametrize("resolver", TABLE, ids=lambda r: f"{r.system}-{r.name}")
def test_it_answers_or_refuses_any_body(resolver):
    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=bodies(resolver))
    def check(body):
        for verb in (resolver.odds, resolver.evaluate):
            try:
                assert isinstance(verb(body), dict)
            except RuleInputError as error:
                assert error.field
        try:
            resolver.roll(body, random.Random(0))
        except RuleInputError as error:
            assert error.field

    check()

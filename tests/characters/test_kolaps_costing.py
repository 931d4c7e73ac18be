"""Every problem rules/systems/kolaps/costing.py can report reaches the user as a sentence."""

from characters.kolaps.text import SENTENCES
from rules.engine.systems.kolaps import costing


def test_every_problem_code_has_a_sentence_for_the_user():
    """A refusal a user can reach is a sentence: each code costing can report has one."""
    assert set(costing.PROBLEM_CODES) <= set(SENTENCES)

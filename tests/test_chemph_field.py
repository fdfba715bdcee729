"""PaperChat on chemical physics papers (real arXiv physics.chem-ph abstracts, tests/data/chemph): two papers
compared without a name are the two that stand out for the whole question, however its parts read."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def chemph_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "chemph")


@pytest.mark.parametrize("question, pair", [
    # "... in the set" is no topic of a group, and "the other does O+O2 collision dynamics" no paper's name
    ("two ozone papers in the set - one builds multistate surfaces, the other does O+O2 collision dynamics. How do "
     "they differ in electronic states and level of theory?", {"2603.07089", "2603.10546"}),
    # the group read from the wording is "the methods": the bracketed acronym hides the counted papers' topic
    ("Two nuclear-electronic orbital (NEO) papers: the extended-Lagrangian MD one and the plasmonic nanocavity one. "
     "How do the methods and applications differ?", {"2603.16990", "2603.12373"}),
])
def test_two_papers_described_by_parts_of_the_question_are_compared(chemph_chat, question, pair):
    answer = chemph_chat.ask(question)
    assert answer.kind == "comparison" and not answer.hedged, answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == pair

"""Two papers compared because the question names their author (real arXiv astro-ph.IM abstracts, tests/data/astroim):
where the author wrote more than two, the two they lead are compared, not a refusal for want of a topic."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def astroim_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "astroim")


@pytest.mark.parametrize("question", [
    "compare Majidi's two papers",
    "How do the two papers by Fatemeh Zahra Majidi differ?",
])
def test_an_author_s_two_papers_are_the_two_they_lead(astroim_chat, question):
    # F. Z. Majidi leads two papers here and is third author of a third (2601.08890)
    answer = astroim_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2512.12453", "2512.12456"}

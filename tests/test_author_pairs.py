"""Two papers compared because the question names their author (real arXiv astro-ph.IM abstracts, tests/data/astroim):
where the author wrote more than two, the two they lead are compared, not a refusal for want of a topic; an author
cited for one side only names that side's paper."""

import pytest


@pytest.mark.parametrize("question", [
    "compare Majidi's two papers",
    "How do the two papers by Fatemeh Zahra Majidi differ?",
])
def test_an_author_s_two_papers_are_the_two_they_lead(astroim_chat, question):
    # F. Z. Majidi leads two papers here and is third author of a third (2601.08890)
    answer = astroim_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2512.12453", "2512.12456"}


@pytest.mark.parametrize("question, expected", [
    ("the habitability transients paper (Majidi et al.) versus the JWST interferometer image reconstruction paper - "
     "how do they differ?", {"2512.12456", "2510.10924"}),
    ("Majidi's time-domain spectroscopy of young stars vs the SPT-SLIM atmospheric calibration: what does each "
     "measure?", {"2512.12453", "2510.14220"}),
])
def test_an_author_cited_for_one_side_names_that_side_only(astroim_chat, question, expected):
    # Majidi wrote two of these papers, but the other side describes another paper: not Majidi's two papers compared
    answer = astroim_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == expected

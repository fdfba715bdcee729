"""A paper named beside a name only another paper writes (real q-bio abstracts, tests/data/qbio4): "M-SDT and the Usutu
virus spread model" are two papers, M-SDT (dengue in Ahmedabad) never writing "Usutu". The described side finds the
Usutu model decisively, so the two are compared as asked; asked of M-SDT alone, Usutu leaves the answer hedged."""

import pytest

from tests.conftest import cited_ids, ingested_field


@pytest.fixture(scope="module")
def qbio4_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "qbio4")


@pytest.mark.parametrize("question", [
    "M-SDT and the Usutu virus spread model - what climate inputs do they use?",
    "The M-SDT dengue model for Ahmedabad and the Usutu virus diffusion model for Germany: how do they treat "
    "temperature?",
])
def test_a_named_paper_and_a_name_only_another_paper_writes_are_compared(qbio4_chat, question):
    answer = qbio4_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {"2605.17975", "2605.03146"} <= cited_ids(answer)  # M-SDT, the Usutu virus diffusion model
    # both papers are found as asked, not one hedged for lacking the other's name
    assert not answer.hedged and answer.text.startswith("**Closest common ground:**"), answer.text


def test_a_subject_the_named_paper_never_writes_stays_hedged(qbio4_chat):
    # asked of M-SDT alone about a virus it never mentions: never answered as if M-SDT were on it
    answer = qbio4_chat.ask("What climate inputs does M-SDT use for Usutu virus in Germany?")
    assert answer.hedged, answer.text
    assert "2605.17975" in cited_ids(answer)

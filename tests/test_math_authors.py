"""Comparisons of papers cited by their authors in mathematics corpora (real arXiv math.AP and math.RT abstracts,
tests/data/mathap and tests/data/mathrt): a surname alone ("Danchin has two papers"), two surnames joined by a hyphen
("the Ferrari-Lederman papers"), and an author with more papers than the two compared ("Jie Li's paper on X and her
one on Y"); and a paper described by its author, whose abstract never writes the name ("Danchin's 1D ... paper")."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def mathap_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "mathap")


def compared(answer) -> set[str]:
    assert answer.kind == "comparison", answer.text
    return {c.paper.url[-10:] for c in answer.citations}


def test_an_author_named_by_the_surname_alone_cites_their_papers(mathap_chat):
    answer = mathap_chat.ask("Danchin has two papers on compressible Navier-Stokes here; how do their settings differ?")
    assert compared(answer) == {"2603.15209", "2603.15211"}


def test_a_paper_described_by_its_author_is_not_refused_for_a_name_its_abstract_never_writes(mathap_chat):
    # "Danchin" is in the paper's record (its author), never in an abstract: the topic checks read the authors too
    answer = mathap_chat.ask("In Danchin's one-dimensional compressible Navier-Stokes paper, what decay rate does he "
                             "prove for the specific volume?")
    assert not answer.refused, answer.text
    assert answer.citations[0].paper.url.endswith("2603.15211"), answer.text
    assert answer.kind == "not_stated", answer.text  # the abstract gives no rate


def test_two_surnames_joined_by_a_hyphen_cite_the_papers_both_wrote(mathap_chat):
    answer = mathap_chat.ask("What separates the two Ferrari-Lederman free boundary papers?")
    assert compared(answer) == {"2603.15000", "2603.15024"}


def test_an_author_of_more_papers_is_narrowed_to_the_two_asked_of(tmp_path_factory):
    from rag.engine import PaperChatEngine

    chat = ingested_field(tmp_path_factory, "mathrt")  # Jie Li wrote five of its papers
    by_arxiv = {p.url[-10:]: p.paper_id for p in chat.papers()}
    pair = PaperChatEngine.from_settings(chat).comparisons.authored_pair(
        "Jie Li's two papers, on derived-discrete algebras over the reals and on algebra extensions", None)
    assert set(pair) == {by_arxiv["2010.03787"], by_arxiv["1904.07168"]}


@pytest.fixture(scope="module")
def mathdg_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "mathdg")


@pytest.mark.parametrize("question", [
    # "Wheeler" is also an English word; two other loaded papers are on the Cartan-Hadamard conjecture
    "How does Wheeler's Cartan-Hadamard paper compare with the small-volume one by Agnoletto et al.?",
    "Agnoletto, Da Silva, Nardulli and Resende vs Wheeler's isoperimetric inequality paper: what does each assume "
    "about curvature?",
])
def test_a_side_named_by_its_author_is_that_author_s_paper(mathdg_chat, question):
    assert compared(mathdg_chat.ask(question)) == {"2609.14505", "2609.17093"}


def test_an_author_s_two_described_papers_are_the_ones_described(tmp_path_factory):
    chat = ingested_field(tmp_path_factory, "mathrt")  # Jie Li wrote three of its 2020 papers
    answer = chat.ask("Jie Li wrote two 2020 papers on field extensions: the derived-discrete algebras over the real "
                      "numbers one and the piecewise hereditary one. What does each prove?")
    assert compared(answer) == {"2010.03787", "2010.03789"}

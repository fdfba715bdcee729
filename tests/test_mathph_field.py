"""PaperChat on mathematical-physics papers (real arXiv math-ph abstracts, tests/data/mathph): a number word joined to
the topic ("the eight-vertex model") states its setting as digits do, so the six-vertex paper is only the closest; an
author's name typed without its accent ("Raquepas") is the name the paper writes ("Raquépas"); "part II" of a series
is the paper its title numbers so; "Ammari–Qiu" cites the paper both wrote."""

import pytest

from tests.conftest import cited_ids, ingested_field


@pytest.fixture(scope="module")
def mathph_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "mathph")


def test_a_number_word_of_the_setting_is_checked_like_digits(mathph_chat):
    six_vertex = "2603.06268"  # "Gaussian free field convergence of the six-vertex model ..."
    answer = mathph_chat.ask("Has anyone shown that the eight-vertex model's height function converges to the "
                             "Gaussian free field?")
    assert answer.hedged or answer.refused, answer.text
    assert "never mention “eight”" in answer.text, answer.text
    answer = mathph_chat.ask("Has anyone shown that the six-vertex model's height function converges to the Gaussian "
                             "free field?")
    assert not answer.hedged and not answer.refused, answer.text
    assert answer.citations[0].paper.url.endswith(six_vertex)


def test_an_author_typed_without_the_accent_is_the_papers_author(mathph_chat):
    specific_energy = "2603.17338"  # "On the conservation of specific energy ...", by Pozzoli and Raquépas
    answer = mathph_chat.ask("Pozzoli and Raquepas on conservation of specific energy/entropy for anharmonic crystals: "
                             "whose classic assumptions are they working close to?")
    assert not answer.hedged and not answer.refused, answer.text
    assert answer.citations[0].paper.url.endswith(specific_energy)

def test_two_parts_of_a_series_are_compared(mathph_chat):
    # "BC Toda chain I: reflection operator and eigenfunctions", "BC Toda chain II: symmetries. Dual picture"
    answer = mathph_chat.ask("BC Toda chain: what does part II establish beyond part I?")
    assert answer.kind == "comparison", answer.text
    assert {"2603.16380", "2603.16387"} <= cited_ids(answer)


def test_one_part_of_a_series_is_that_paper(mathph_chat):
    answer = mathph_chat.ask("In part II of the BC Toda chain series, what do the authors prove about Baxter operators?")
    assert not answer.refused and not answer.hedged, answer.text
    assert answer.citations[0].paper.url.endswith("2603.16387"), answer.text

def test_coauthors_joined_by_an_en_dash_name_their_paper(mathph_chat):
    # Ammari and Qiu's paper on interface modes, beside the non-Hermitian photonic crystal paper by Lin and Zhang
    # (another Ammari wrote a paper here, on coherent states: the dash to Qiu says which Ammari is meant)
    answer = mathph_chat.ask("Ammari\u2013Qiu vs the non-Hermitian photonic crystal paper: which tools are used?")
    assert answer.kind == "comparison", answer.text
    assert {"2603.19442", "2603.22515"} <= cited_ids(answer)

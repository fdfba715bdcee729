"""PaperChat on nickelate superconductivity papers (real arXiv abstracts, tests/data/nickel), a corpus on one topic:
each side of a comparison must find its own paper among many neighbours."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def nickel_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "nickel")


@pytest.mark.parametrize("question, pair", [
    # "the neutron scattering study" alone is as near to the neutron study of LaNiO2's lattice; the question is about
    # magnetic order in La3Ni2O7
    ("The neutron scattering study and the ultrafast optics one: what magnetic order does each find in La3Ni2O7 at "
     "ambient pressure?", {"2605.03448", "2508.09436"}),
    # "the DMRG trilayer Hubbard paper" alone is nearer an orbital-selective bilayer paper; the question is about
    # La4Ni3O10's pairing
    ("La4Ni3O10 under pressure: the DMRG trilayer Hubbard paper vs the trans-proximate correlation one, what pairing "
     "do they find?", {"2508.06802", "2505.13442"}),
])
def test_a_side_near_two_papers_takes_the_one_the_whole_question_is_about(nickel_chat, question, pair):
    answer = nickel_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == pair


def test_an_author_named_in_an_aside_picks_the_side_s_paper(nickel_chat):
    # "(Leonov)": the epitaxial strain paper is I. V. Leonov's; the side alone reads like several strain papers
    answer = nickel_chat.ask("How does the DFT+DMFT doping study of La3Ni2O7 differ from the epitaxial strain paper "
                             "(Leonov)?")
    assert answer.kind == "comparison", answer.text
    assert "2608.14810" in {c.paper.url[-10:] for c in answer.citations}


def test_two_counted_papers_each_described_are_those_two(nickel_chat):
    # "the two bilayer t-J papers" counts a group of many near neighbours; the sides after the dash say which two
    answer = nickel_chat.ask("Which of the two bilayer t-J papers on La3Ni2O7 finds magnetism coexisting with "
                             "superconductivity - the 2024 renormalized mean-field one or the variational Monte Carlo "
                             "study?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2412.17453", "2510.04224"}


def test_a_side_saying_it_is_a_paper_is_not_merged_with_the_other_side_s_paper(nickel_chat):
    # "the orbital-selective multiorbital t-J model paper" scores the Schrieffer-Wolff t-J paper a little above its own
    # (0.11): a side that says it is a paper is read as the other side's paper only when decisively so
    answer = nickel_chat.ask("difference between the orbital-selective multiorbital t-J model paper and the one that "
                             "derives a two-orbital t-J model via Schrieffer-Wolff for bilayer nickelates?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2502.09195", "2504.10114"}

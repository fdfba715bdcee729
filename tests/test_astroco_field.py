"""PaperChat on cosmology papers (real arXiv astro-ph.CO abstracts, tests/data/astroco): two described sides that
each find their paper decisively are compared as described, whatever else stands near the whole question; papers
cited by their authors ("Sharma & Lesgourgues", "the Pan/Huterer et al. study") are those authors' papers; names
that two papers write between them ("CSST", "COLA") ask of both."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def astroco_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "astroco")


def test_two_sides_found_decisively_are_the_compared_pair(astroco_chat):
    # a third kSZ paper (Iskay2) stands near the whole question; each side finds its own paper far ahead of it
    answer = astroco_chat.ask("kSZ with DESI + ACT shows up twice: the pairwise BGS velocity measurement and the paper "
                              "using kSZ to benchmark AGN feedback in sims. Compare their goals and main results.")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2510.14135", "2510.15822"}


def test_names_two_papers_write_between_them_ask_of_both(astroco_chat):
    # "CSST" is written by the emulator extension (and two GW papers), "COLA" by the COLA paper, neither by the other;
    # "what do ... each do" sets them side by side, and the short side "the COLA paper" finds its paper only as the
    # closest, so the comparison is hedged
    answer = astroco_chat.ask("What do the CSST emulator work and the COLA paper each do for w0wa dark energy?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2510.09503", "2510.14888"}, answer.text
    assert answer.hedged and "the closest" in answer.text, answer.text


def test_papers_cited_by_their_authors_are_compared(astroco_chat):
    # "Pan/Huterer et al." names no paper by its title; Pan and Huterer wrote one of the loaded papers together
    answer = astroco_chat.ask("How do Sala et al.'s galaxy x dark-siren cross-correlation forecast and the Pan/Huterer "
                              "et al. study of H0 from galaxy-GW cross-correlations differ in setup and conclusions?")
    assert answer.kind == "comparison" and not answer.hedged, answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2510.08699", "2510.19931"}


def test_two_authors_cited_together_name_the_paper_they_wrote(astroco_chat):
    answer = astroco_chat.ask("What upper bound on the neutrino mass sum do Sharma & Lesgourgues get?")
    assert answer.citations and answer.citations[0].paper.url.endswith("2510.15835"), answer.text
    assert not answer.hedged, answer.text


def test_a_symbol_asked_for_is_stated_only_by_its_value(astroco_chat):
    # "what sigma_8": a number beside σ8 (LaTeX "$\sigma_8$" read as typed) answers; the word alone does not
    stated = astroco_chat.ask("what sigma_8 do they measure from the angular power spectrum of DESI luminous red "
                              "galaxies?")
    assert stated.kind != "not_stated" and "σ8=0.761" in stated.text, stated.text
    unstated = astroco_chat.ask("What sigma_8 does the Euclid paper on observational systematics in cluster "
                                "cosmology get?")
    assert unstated.kind == "not_stated" and unstated.citations[0].paper.url.endswith("2510.13509"), unstated.text

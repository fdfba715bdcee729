"""PaperChat on gravitation and cosmology papers (real arXiv gr-qc abstracts, tests/data/grqc): an acronym of the
question that the right paper spells out ("GWs", "PBH") does not pin the few papers writing the acronym itself, and
two papers counted that no paper surely answers are compared as the closest."""

import pytest

from rag.sides import COMPARE_CUE
from tests.conftest import cited_ids, ingested_field


@pytest.fixture(scope="module")
def grqc_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "grqc")


@pytest.mark.parametrize("question, arxiv_id", [
    # the lensing paper writes "gravitational waves"; a paper on early warnings writes "GWs"
    ("Which paper bounds the graviton mass from the time delay between the GWs and the light of a strongly lensed "
     "event?", "2509.03196"),
    # the initial-conditions paper writes "primordial black hole formation"; a hybrid-inflation paper writes "PBHs"
    ("Is there a study of PBH formation in numerical relativity where the Hamiltonian constraint has two branches of "
     "solutions?", "2509.26470"),
])
def test_an_acronym_the_paper_spells_out_finds_it(grqc_chat, question, arxiv_id):
    answer = grqc_chat.ask(question)
    assert not answer.refused and answer.citations[0].paper.url.endswith(arxiv_id), answer.text


def test_an_acronym_every_paper_of_its_topic_uses_points_to_none_of_them(grqc_chat):
    """"GWs" is written by a few abstracts and spelled out by many more: the question's other words decide."""
    answer = grqc_chat.ask("I remember a GPU search for long-transient GWs from newborn neutron stars written with "
                           "JAX. Who is it by?")
    assert not answer.hedged and answer.citations[0].paper.url.endswith("2507.07816"), answer.text


def test_two_papers_counted_that_no_paper_answers_surely_are_compared_as_the_closest(grqc_chat):
    """No paper is surely the whole question (it describes two); the two nearest are compared, said to be that."""
    answer = grqc_chat.ask("Two QPO-based constraint papers from one group: one on a rotating regular BH with a "
                           "Minkowski core, one on a Horndeski rotating BH. How do they differ in the data used and in "
                           "what they constrain?")
    assert answer.kind == "comparison" and answer.hedged, answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2508.13974", "2509.26270"}
    assert answer.text.startswith("No loaded paper surely fits the question")


def test_a_side_written_as_a_symbol_is_compared(grqc_chat):
    # "f(Q)" once ended the side at its bracket, and the question collapsed to a lookup of the other paper
    answer = grqc_chat.ask("f(Q) gravity with CPL/BA dark energy vs the generalized mass-to-horizon entropy cosmology: "
                           "does either prefer LCDM?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2507.05975", "2508.13260"}


@pytest.mark.parametrize("question", [
    "The affine gauge theory of gravity and the essay on background independence by Tjandra and Singh: which is a "
    "concrete theory and which is philosophical?",
    "Tjandra's affine gauge theory and the diffeomorphism invariance essay - which one builds a theory and which one "
    "argues about concepts?",
])
def test_asking_which_paper_is_which_compares_both(grqc_chat, question):
    answer = grqc_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {"2509.26410", "2509.26450"} <= cited_ids(answer)


def test_which_of_one_papers_things_is_which_sets_no_papers_side_by_side():
    # a choice among a paper's datasets, not between papers
    assert not COMPARE_CUE.search("In the affine gauge paper, which datasets are used for training and which for "
                                  "testing?")

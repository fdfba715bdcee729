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


def test_two_papers_the_asker_counted_stay_two_when_one_describes_both(chemph_chat):
    # the inverse Kohn-Sham side finds the other paper first, well ahead; the asker said two papers
    answer = chemph_chat.ask("Nan Sheng had two formal DFT papers - one on exact DFT as parallel variational "
                             "hierarchies and one on inverse Kohn-Sham. How do the scopes differ?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2603.23399", "2603.23452"}


def test_the_papers_methods_are_no_group_to_compare():
    from rag.sides import compared_group

    assert compared_group("Two X-ray cluster papers here: the Perseus one and the ZwCl 3146 one. How do the methods "
                          "compare?") == ""
    assert compared_group("Compare the video benchmarks") == "video benchmarks"


def test_an_authors_two_papers_are_compared_by_the_authors_full_name(chemph_chat):
    # one author, cited by the full name: the two loaded papers Nan Sheng wrote
    answer = chemph_chat.ask("How do Nan Sheng's two papers differ?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2603.23399", "2603.23452"}


@pytest.mark.parametrize("question, pair", [
    # "Tao E. Li" and "Garnet Kin-Lic Chan" typed without the middle: Li and Chan alone are many authors here
    ("How do the two papers by Tao Li differ?", {"2603.12373", "2603.24521"}),
    ("compare the two papers of Garnet Chan", {"2603.14155", "2603.24881"}),
])
def test_an_author_named_without_the_middle_name_has_two_papers_compared(chemph_chat, question, pair):
    answer = chemph_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == pair


def test_one_paper_by_an_author_set_beside_another_s_is_not_that_author_s_pair(chemph_chat):
    # Tianchu Li's polariton paper vs the IR-Raman paper (Ji, Begusic, Tao E. Li): not two first-authored Li papers
    answer = chemph_chat.ask("Li et al.'s MPS-HEOM paper on polariton dark states versus the two-dimensional IR-Raman "
                             "study of water under vibrational strong coupling: which one is about the thermodynamic "
                             "limit?")
    assert {"2603.06868", "2603.24521"} <= {c.paper.url[-10:] for c in answer.citations}

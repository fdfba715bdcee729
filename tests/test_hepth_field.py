"""PaperChat on high-energy theory papers (real arXiv hep-th abstracts, tests/data/hepth): a term of the question
pins papers only when few write it in any spelling ("large-N" as "Large $N$", "QED" as "QED$_3$"), the authors
a question names are names the paper writes, and a value asked for is stated only by a number beside its name."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def hepth_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "hepth")


@pytest.mark.parametrize("question, arxiv_id", [
    # the paper's title writes "Large $N$"; another paper writes "large-N" once, in passing
    ("Has someone studied large-N one-matrix quantum mechanics evolving with a Lindblad master equation and asked "
     "about nonequilibrium steady states in the planar limit?", "2508.04764"),
    # the paper writes "QED$_3$"; two others write "QED" about Lorentz violation and tunnelling
    ("What happens to the vacuum of 2+1d QED with massless Dirac fermions once a strong uniform magnetic field is "
     "switched on?", "2508.03532"),
])
def test_a_term_written_in_latex_or_with_a_space_is_written(hepth_chat, question, arxiv_id):
    answer = hepth_chat.ask(question)
    assert not answer.refused and not answer.hedged, answer.text
    assert answer.citations[0].paper.url.endswith(arxiv_id), answer.text


def test_the_authors_a_question_names_are_names_their_paper_writes(hepth_chat):
    """A paper asked of by its authors is that paper, not the closest to a paper no one wrote."""
    answer = hepth_chat.ask("What did Dumitrescu and Maldacena find for QED3 in a strong magnetic field?")
    assert not answer.hedged and answer.citations[0].paper.url.endswith("2508.03532"), answer.text
    answer = hepth_chat.ask("In the Pope-Rohrer-Whiting paper on perturbations of EMDA black holes, above what "
                            "critical value of the axion coupling b does the radial potential go negative outside the "
                            "horizon?")
    assert not answer.hedged and answer.citations[0].paper.url.endswith("2508.04589"), answer.text


def test_a_value_whose_quantity_the_abstract_names_without_a_number_is_not_stated(hepth_chat):
    # the abstract says the potential goes negative "if b is sufficiently large"; its only number is "1-parameter"
    answer = hepth_chat.ask("In the Pope-Rohrer-Whiting paper on perturbations of EMDA black holes, above what critical "
                            "value of the axion coupling b does the radial potential go negative outside the horizon?")
    assert answer.kind == "not_stated", answer.text
    assert answer.citations[0].paper.url.endswith("2508.04589")


def test_a_value_stated_beside_its_quantity_is_quoted(hepth_chat):
    answer = hepth_chat.ask("In the holographic anisotropic Dirac semimetal paper, what dynamical critical exponent "
                            "does the Lifshitz geometry at the critical point have?")
    assert answer.kind != "not_stated", answer.text
    assert answer.citations[0].paper.url.endswith("2508.01497")
    assert "approximately equal to" in answer.text, answer.text


def test_a_yes_no_check_naming_another_object_of_an_unnamed_paper_is_hedged(hepth_chat):
    # no loaded abstract writes "Horndeski": the EMDA paper is only the closest
    answer = hepth_chat.ask("Did the study of linearised perturbations of static dilaton-axion black holes find mode "
                            "instabilities in Horndeski gravity?")
    assert answer.hedged or answer.refused, answer.text
    assert "Horndeski" in answer.text


def test_a_number_the_question_states_that_the_paper_never_writes_makes_it_only_the_closest(hepth_chat):
    """The localization paper is on D=5 supergravity (reduced to D=4): asked of D=7 it is only the closest paper,
    whatever its score; asked of D=5 it answers."""
    asked = "equivariant localization for D={} gauged supergravity - has someone computed the on-shell action that way?"
    answer = hepth_chat.ask(asked.format(7))
    assert answer.hedged and answer.citations[0].paper.url.endswith("2508.08207"), answer.text
    assert "“7”" in answer.text
    answer = hepth_chat.ask(asked.format(5))
    assert not answer.hedged and not answer.refused and answer.citations[0].paper.url.endswith("2508.08207"), answer.text


def test_the_numbers_a_question_states_are_read_apart_from_names_powers_ordinals_and_dimensions():
    from rag.asked import stated_numbers

    assert stated_numbers("the nu = 12/5 edge at 13.6 TeV, aged 12-17, in 28nm CMOS, in 2021") == [
        "12/5", "13.6", "12", "17", "28"]
    assert stated_numbers("a 10^4 Msun (1e4) cloud, 2nd harmonic, 3D-printed, phi^3 in 6d, SPT-100 and M31") == []
    # a number word joined to a word states its setting as digits do; a dimension, a count of papers do not
    assert stated_numbers("the eight-vertex model's five-loop terms on rank-three bundles") == ["eight", "five", "three"]
    assert stated_numbers("Two three-dimensional flows: which of the two papers is faster?") == []
    # an approximate number ("~7", "about 430") is marked so: an abstract's "7.1" or "432" states it
    assert stated_numbers("from ~18 to ~7 min, about 430 MeV, near 47% but under 7%") == ["~18", "~7", "~430", "~47", "7"]

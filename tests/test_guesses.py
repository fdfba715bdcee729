"""Guesses an asker offers at the answer (real astro-ph.IM abstracts, tests/data/astroim): after the question ("which
camera model? Xenics? FLIR?", "...? an A100?") or in a bracket ("(A100? H100?)"), they say how the answer would be
named. None written, a sentence that only mentions the cameras or the GPUs does not state which; one written answers
with the sentence writing it."""

import pytest

from rag.focus import offered_examples


@pytest.mark.parametrize("question, guesses", [
    ("which wearable device recorded the heart rate? empatica?", ["empatica"]),
    ("which volatile compounds did they model? acetone? ethanol?", ["acetone", "ethanol"]),
    ("which aromatic molecules were irradiated? benzene, toluene...?", ["benzene", "toluene"]),
    ("which GPU did it run on? an A100?", ["A100"]),
    ("what spectral types do the two dwarfs have (like T7 and T8)?", ["T7", "T8"]),
])
def test_guesses_after_the_question_or_likened_in_a_bracket_are_read(question, guesses):
    assert offered_examples(question) == guesses


@pytest.mark.parametrize("question", [
    "what is the note actually about? new algorithms or something else?",  # words of a further ask, no name
    "did they settle the pseudogap question? and T*?",
    "Which paper came up with a levelized-cost metric for neutrons (like LCOE but per neutron)?",
])
def test_a_further_ask_or_a_likeness_is_no_guess(question):
    assert offered_examples(question) == []


@pytest.mark.parametrize("question", [
    "For the Antarctic Infrared Binocular Telescope, which InGaAs camera model do they use? Xenics? FLIR?",
    "which GPU did the jFoF cluster finder run on? an A100?",
    "which GPU did the jFoF cluster finder run on (A100? H100?)",
])
def test_a_detail_whose_guesses_the_abstract_never_writes_is_not_stated(astroim_chat, question):
    # the abstracts say "two cost-effective InGaAs cameras" and "directly on GPUs", naming none
    answer = astroim_chat.ask(question)
    assert answer.kind == "not_stated", answer.text


def test_a_guess_the_abstract_writes_is_answered_with_its_sentence(astroim_chat):
    answer = astroim_chat.ask("which instrument took the moonlit sky polarization data at Paranal? FORS2?")
    assert answer.kind != "not_stated" and "with FORS2 in imaging polarimetric mode" in answer.text, answer.text
    assert answer.citations[0].paper.url.endswith("2510.27308")


def test_a_one_letter_guess_is_matched_as_the_abstract_writes_it(astroim_chat):
    # "B" and "V" are filters the abstract would name; its authors' initials or any "b" inside a word are not them
    answer = astroim_chat.ask("moonlit sky polarization at Cerro Paranal: which filters, e.g. B or V, were used?")
    assert answer.kind == "not_stated", answer.text
    assert answer.citations[0].paper.url.endswith("2510.27308")

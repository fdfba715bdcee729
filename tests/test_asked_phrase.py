"""What a what/which question asks of a paper, as people type it: in a hurry ("whats"), or running on from the thing
asked into what is said of it ("what replaces the intermediate subfactors?")."""

import pytest

from rag.focus import asked_focus


def _asked(question: str) -> list[str]:
    return [detail.phrase for detail in asked_focus(question)]


@pytest.mark.parametrize("question", ["whats the charging energy of the quantum dots?",
                                      "whats the PI degree of the localised algebra at an odd root of unity?"])
def test_whats_asks_what_what_s_asks(question):
    assert _asked(question) == _asked(question.replace("whats", "what's")) != []


@pytest.mark.parametrize("question, asked", [
    ("which scalar meson enters the loops?", ["scalar meson"]),
    ("what coefficient multiplying the Laplacian appears in the expansion?", ["coefficient"]),
    ("what combinatorial objects index the basis they describe?", ["combinatorial objects"]),
    ("what caused the dips NuSTAR saw?", []),  # asks for a cause, told in the paper's own words
    ("what drives the vibrational instability?", []),
])
def test_the_thing_asked_ends_where_a_verb_or_a_preposition_takes_an_article(question, asked):
    assert _asked(question) == asked


def test_a_question_on_what_takes_a_role_is_answered_not_said_unstated(mathqa_chat):
    # "what replaces the intermediate subfactors" asks what the paper puts in their place, which its abstract says
    # ("through Frobenius subalgebras"), not for a detail called "replaces the intermediate subfactors"
    answer = mathqa_chat.ask("Frobenius subalgebras in abelian monoidal categories, after Bisch and Jones: what "
                             "replaces the intermediate subfactors?")
    assert answer.kind != "not_stated", answer.text
    assert answer.citations[0].paper.url.endswith("2511.13167")


@pytest.mark.parametrize("question, asked", [
    # "the X value" asks for X's value, a number; "a value" alone names no thing
    ("very cold neutron interferometer: do they quote the diffraction efficiency value they achieved?",
     "diffraction efficiency value"),
    ("Kerr hyperspectral imaging paper: do they actually quote the n2 value they got for fused silica?", "n2 value"),
    # an example offered ends the thing asked: "such as twisted bilayer graphene" is no part of it
    ("Chern mosaic transport: did they name a specific moire material such as twisted bilayer graphene?",
     "moire material"),
])
def test_a_thing_asked_whether_reported_is_read_before_its_value_or_example(question, asked):
    details = asked_focus(question)
    assert [detail.phrase for detail in details] == [asked]
    assert details[0].wants_number == asked.endswith("value")

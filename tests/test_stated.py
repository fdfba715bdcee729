"""The stated reader (rag/stated.py), a cross-encoder reading question and abstract together, decides offline whether
an abstract answers what it is asked: real eess.SY abstracts (tests/data/eesssy), questions written for this test."""

from types import SimpleNamespace

import pytest

from rag.stated import NOT_STATED_BELOW, StatedReader, asked_detail, stated_reader
from tests.conftest import cited_ids, ingested_field

PACKETIZED_MPC = "2604.08270"  # "Bandwidth reduction methods for packetized MPC over lossy networks"
AIR_SUPPLY = "2604.11433"  # "Air supply control for proton exchange membrane fuel cells without explicit modeling"


@pytest.fixture(scope="module")
def eesssy_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "eesssy")


def paper(chat, key):
    return next(p for p in chat.papers() if p.url.endswith(key))


def test_the_reader_tells_a_detail_the_abstract_gives_from_one_it_lacks(eesssy_chat):
    # the abstract: "validated using a hardware-in-the-loop setup with a real 5G network" (no loss rate, no vendor)
    mpc = paper(eesssy_chat, PACKETIZED_MPC)
    reader = stated_reader()
    for lacking in ("what packet drop rate did the real 5G link show in the hardware-in-the-loop test?",
                    "which 5G vendor supplied the network for the tests?"):
        assert reader.score(lacking, mpc) < NOT_STATED_BELOW, lacking
    for given in ("how do the two methods of the packetized MPC paper reduce bandwidth?",
                  "what guarantees do they derive for the MPC over the lossy channel?"):
        assert reader.score(given, mpc) > NOT_STATED_BELOW, given


def test_the_reader_reads_the_paper_it_is_given():
    # the same question of an abstract that answers it and of one that does not
    reader = StatedReader()
    question = "Which two elastomer properties does the inverse design pipeline tailor?"
    answering = SimpleNamespace(paper_id="a", title="Inverse design of tactile skins",
                                text="An inverse design pipeline tailors the transparency and hardness of elastomers "
                                     "for optical tactile sensors.")
    other = SimpleNamespace(paper_id="b", title="Frequency regulation by floating wind farms",
                            text="Floating offshore wind farms provide secondary frequency regulation with two model "
                                 "predictive controllers.")
    assert reader.score(question, answering) > reader.score(question, other)


@pytest.mark.parametrize("question, key", [
    # a sentence mentions the thing ("attractive for industrial applications"; "satisfactory performance" in
    # numerical simulations): both answered with those sentences before the reader
    ("In the model-free PEM air supply control paper, what industrial application was the controller tested on?",
     AIR_SUPPLY),
    ("In the model-free PEM air supply paper, how did the controller do on a real fuel cell test bench?", AIR_SUPPLY),
])
def test_a_sentence_only_mentioning_the_thing_asked_is_not_an_answer(eesssy_chat, question, key):
    answer = eesssy_chat.ask(question)
    assert answer.kind == "not_stated", answer.text
    assert key in cited_ids(answer), answer.text
    assert "does not state" in answer.text


@pytest.mark.parametrize("question, key, words", [
    ("For the bandwidth reduction paper on packetized MPC, how do the two methods reduce bandwidth?", PACKETIZED_MPC,
     "communication-rate reduction"),
    ("What guarantees does the packetized MPC over lossy networks paper derive?", PACKETIZED_MPC,
     "recursive feasibility"),
])
def test_an_answer_the_abstract_gives_is_still_quoted(eesssy_chat, question, key, words):
    answer = eesssy_chat.ask(question)
    assert answer.kind == "lookup" and not answer.refused, answer.text
    assert key in cited_ids(answer) and words in answer.text, answer.text


def test_a_question_read_as_no_detail_is_declared_not_stated_in_its_own_words():
    detail = asked_detail("I read the MPC paper. Which 5G vendor supplied the network?")
    assert detail.phrase == "answer to “Which 5G vendor supplied the network?”"
    assert "vendor" in detail.terms

"""A paper asked about by words of its title that its abstract never writes (real arXiv physics.optics abstracts,
tests/data/optics): the title is part of what the paper says, so the question is answered with it, not refused."""

from tests.conftest import cited_ids, ingested_field


def test_a_question_in_the_words_of_a_title_finds_its_paper(tmp_path_factory):
    chat = ingested_field(tmp_path_factory, "optics")
    answer = chat.ask("Notes on Images and Communication - what audience is it written for?")
    assert not answer.refused, answer.text
    assert cited_ids(answer) & {"2604.18308"}, answer.text

"""PaperChat on quantitative-biology papers (real arXiv q-bio abstracts, tests/data/qbio2): a question that swaps the
paper's species, disease or population is hedged or refused while the paper's own subject is answered, and a
detail the abstract lacks (a session length, a count it gives only of other things) is said not stated."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def qbio_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "qbio2")


def by_arxiv(chat, arxiv_id):
    return next(p.paper_id for p in chat.papers() if p.url.endswith(arxiv_id))


@pytest.mark.parametrize("swapped, right, arxiv_id", [
    ("Any paper using NCBI genomic metadata to follow the epidemiology of tuberculosis?",
     "Any paper using NCBI genomic metadata to follow the epidemiology of Enterobacterales?", "2511.14826"),
    ("Is the RDW to MCHC ratio a mortality predictor in the neonatal ICU?",
     "Is the RDW to MCHC ratio a mortality predictor in critical care?", "2511.09583"),
    ("Does MYB drive racial disparities in breast cancer?",
     "Does MYB drive racial disparities in prostate cancer?", "2510.11959"),
])
def test_a_question_swapping_the_papers_subject_is_hedged_and_its_own_subject_answered(qbio_chat, swapped, right,
                                                                                        arxiv_id):
    swapped_answer = qbio_chat.ask(swapped)
    assert swapped_answer.refused or swapped_answer.hedged, swapped
    answer = qbio_chat.ask(right)
    assert not answer.refused and not answer.hedged, right
    assert answer.citations[0].paper.paper_id == by_arxiv(qbio_chat, arxiv_id)


def test_a_length_the_abstract_lacks_is_said_not_stated(qbio_chat):
    answer = qbio_chat.ask("In the yoga trial with chronically stressed pregnant women, how long was each yoga "
                           "session?")
    assert answer.kind == "not_stated"
    assert answer.citations[0].paper.paper_id == by_arxiv(qbio_chat, "2510.23108")


def test_a_count_of_other_things_is_no_count_of_the_asked_ones(qbio_chat):
    seizures = by_arxiv(qbio_chat, "2511.20950")
    # "34 out of 35 total spontaneous episodes from patients": a count of episodes, not of patients
    patients = qbio_chat.ask("In the paper stabilizing fractional dynamical networks to suppress seizures, how many "
                             "patients were the episodes recorded from?")
    assert patients.kind == "not_stated" and patients.citations[0].paper.paper_id == seizures
    episodes = qbio_chat.ask("In the paper stabilizing fractional dynamical networks to suppress seizures, how many "
                             "episodes were suppressed?")
    assert episodes.kind != "not_stated" and "34" in episodes.text


def test_a_detail_asked_after_a_preposition_is_said_not_stated(qbio_chat):
    # "at what sampling rate ...": the thing asked follows the preposition; the abstract gives no sampling rate
    answer = qbio_chat.ask("at what sampling rate was the EEG recorded in the large-Laplacian re-referencing study?")
    assert answer.kind == "not_stated" and "sampling rate" in answer.text
    assert answer.citations[0].paper.paper_id == by_arxiv(qbio_chat, "2510.10733")


def test_versus_inside_one_papers_description_asks_about_that_paper_alone(qbio_chat):
    # both "sides" of "re-referenced vs common-average EEG" find the re-referencing study first: one paper, not two
    answer = qbio_chat.ask("in the P300 speller study of re-referenced vs common-average EEG, how many subjects were "
                           "recorded?")
    assert answer.kind != "comparison"
    assert [c.paper.paper_id for c in answer.citations][:1] == [by_arxiv(qbio_chat, "2510.10733")]


def test_the_thing_asked_ends_before_the_verb_that_follows_it(qbio_chat):
    answer = qbio_chat.ask("in the large-Laplacian re-referencing study, what EEG sampling rate ended up being used?")
    assert answer.kind == "not_stated"
    assert "does not state the EEG sampling rate [" in answer.text  # not "the EEG sampling rate ended"


def test_machine_learnings_detail_catalogue_stays_out_of_another_field(qbio_chat):
    # "link" asks for a code repository only in machine learning's catalogue; here it is a link prediction result
    answer = qbio_chat.ask("how accurate was link prediction in the drug-disease network repurposing paper?")
    assert answer.kind != "not_stated" and "code location" not in answer.text
    assert answer.citations[0].paper.paper_id == by_arxiv(qbio_chat, "2510.19948")

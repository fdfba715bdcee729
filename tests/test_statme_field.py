"""PaperChat on statistics-methodology papers (real arXiv stat.ME abstracts, tests/data/statme): a question setting
two papers side by side whose wording finds one paper compares the two that stand out for the whole question, each
answering its own part of it; one paper described in two parts stays one paper."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def statme_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "statme")


def test_two_papers_each_answering_a_part_of_the_question_are_compared(statme_chat):
    # "bixplot" names one paper; the other is a quoted description no title holds in full
    answer = statme_chat.ask("bixplot vs the 'unifying boxplots' multiple-testing paper — how do their goals differ?")
    assert answer.kind == "comparison" and not answer.hedged, answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2510.20259", "2510.09276"}


def test_one_paper_described_in_two_parts_stays_one_paper(statme_chat):
    # "one organ and others both": a paper on a mixed design, not two papers
    answer = statme_chat.ask("paired-organ studies (eyes/ears) with some patients contributing one organ and others "
                             "both — is there a paper testing the risk difference between two proportions in that "
                             "setup? which test do they end up recommending?")
    assert answer.kind != "comparison", answer.text
    assert answer.citations[0].paper.url.endswith("2510.18834")


@pytest.mark.parametrize("question", [
    "Zhou and Ma's risk difference tests for paired organs: did they report the sample size of the ophthalmologic data?",
    "paired-organ risk difference paper - is there a value for the intra-subject correlation in their applications?",
    "In the paired-organ risk difference paper, did they report how many patients the ophthalmologic data had?",
    "paired-organ risk difference tests: do they give the time period over which the otolaryngologic data were "
    "collected?",
])
def test_a_detail_asked_whether_reported_is_said_not_stated_when_the_abstract_lacks_it(statme_chat, question):
    # asked as "did they report X?", the detail is looked for as "what X?" is; the authors name the paper
    answer = statme_chat.ask(question)
    assert answer.kind == "not_stated", answer.text
    assert answer.citations[0].paper.url.endswith("2510.18834")


def test_a_detail_asked_whether_reported_is_quoted_when_the_abstract_states_it(statme_chat):
    answer = statme_chat.ask("In the boxplots-as-multiple-testing paper, do they say which error rate their new "
                             "boxplot is motivated by?")
    assert answer.kind != "not_stated", answer.text
    assert "Error Rate" in answer.text and answer.citations[0].paper.url.endswith("2510.20259")


@pytest.mark.parametrize("question", [
    "martingale MMD two-sample test: which kernel did they use, e.g. Gaussian RBF or Laplace?",
    "the martingale kernel two-sample test paper - what kernel (Gaussian? Laplacian? Matern?) is it run with?",
])
def test_examples_offered_of_a_detail_the_abstract_lacks_make_it_not_stated(statme_chat, question):
    # the names offered are candidate answers, not the topic: none written, the detail is not stated, and their
    # absence from the corpus hedges nothing
    answer = statme_chat.ask(question)
    assert answer.kind == "not_stated" and not answer.hedged, answer.text
    assert answer.citations[0].paper.url.endswith("2510.11853")


def test_an_example_offered_that_the_abstract_writes_is_quoted(statme_chat):
    answer = statme_chat.ask("Unifying boxplots paper: the new adaptive boxplot controls which rate (FDR? FWER?)")
    assert answer.kind != "not_stated", answer.text
    assert "False Discovery Rate" in answer.text and answer.citations[0].paper.url.endswith("2510.20259")

"""PaperChat on population-biology and epidemiology papers (real arXiv q-bio.PE/QM abstracts, tests/data/popbio): a
share asked for ("what fraction", "what share") is a number the abstract gives as a percentage; a detail asked with a
possessive, a plural mark or a "%" is said not stated when the abstract lacks it; a study period is a topic, not a
filter; and a paper is found by its first author ("Hastings et al.")."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def popbio_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "popbio")


@pytest.mark.parametrize("question, number", [
    ("In the household size epidemic paper, what proportion of the variance in cumulative incidence does household "
     "size explain?", "40%"),
    ("What percentage of the reviewed behavioural epidemic models were about COVID-19?", "73%"),
    ("In the network pharmacology study of flavonoids, what fraction of flavonoids hit cardiovascular drug targets?",
     "71.4%"),
    ("In the agent-based TB model, what share of adult cases are in males?", "62.5%"),
])
def test_a_share_asked_for_is_quoted_as_the_percentage_the_abstract_gives(popbio_chat, question, number):
    answer = popbio_chat.ask(question)
    assert answer.kind != "not_stated" and number in answer.text, answer.text


@pytest.mark.parametrize("question, arxiv_id", [
    ("which country's surveillance data was the age-structured dengue vaccination model fitted to?", "2602.21150"),
    ("Which FluSight season(s) did the cost-loss forecast evaluation use?", "2601.05921"),
    ("what % of the hospital wastewater samples carried carbapenem-resistant A. baumannii?", "2603.14395"),
])
def test_a_detail_asked_with_a_possessive_a_plural_mark_or_a_percent_sign_is_said_not_stated(popbio_chat, question,
                                                                                              arxiv_id):
    answer = popbio_chat.ask(question)
    assert answer.kind == "not_stated", answer.text
    assert answer.citations[0].paper.url.endswith(arxiv_id)


def test_a_study_period_is_read_as_the_topic_when_papers_of_other_years_are_loaded(popbio_chat):
    """The papers are from 2025 and 2026; a 2026 review searched the literature of 2020-2025."""
    answer = popbio_chat.ask("In the systematic review of behaviour-change transmission models (2020-2025), how many "
                             "studies met the inclusion criteria?")
    assert not answer.refused and "216" in answer.text, answer.text
    assert answer.citations[0].paper.url.endswith("2602.16633")


def test_a_paper_cited_by_its_first_author_is_compared(popbio_chat):
    answer = popbio_chat.ask("How does the Hastings et al. review of tipping points relate to the paper unifying "
                             "ecological and engineering resilience?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2602.20702", "2606.13921"}


def test_a_paper_named_beside_one_described_is_compared_with_it(popbio_chat):
    # "CEI" names one paper; "the longitudinal Bayesian mixture model ..." describes the other
    answer = popbio_chat.ask("CEI and the longitudinal Bayesian mixture model for expanding TCR clonotypes: do they "
                             "agree on what to look for?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2601.20343", "2601.04536"}


def test_a_named_paper_s_speed_compared_with_nothing_named_stays_one_paper(popbio_chat):
    # the rest of the question ("what does it compute, how does its speed compare") describes no other paper
    answer = popbio_chat.ask("What does FBApro compute, and how does its speed compare?")
    assert answer.kind != "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2601.14577"}

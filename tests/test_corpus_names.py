"""What the loaded papers write decides how a question reads (real arXiv q-bio abstracts, tests/data/qbio): a word the
papers capitalise inside a sentence, or never write, is a name, so a question set in another place than the paper's
is hedged, while the paper's own place, and a question typed in title case, are answered; and years an abstract writes
(a study period) are its topic, not a filter on when papers came out."""

import pytest

from rag.terms import TermStats
from tests.conftest import REPO, ingested_field


@pytest.fixture(scope="module")
def qbio_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "qbio")


def by_arxiv(chat, arxiv_id):
    return next(p.paper_id for p in chat.papers() if p.url.endswith(arxiv_id))


def test_a_word_is_a_name_where_the_papers_capitalise_it_or_never_write_it():
    stats = TermStats(["Cases rose in Germany and in the north of Germany.", "We study learning in mice.",
                       "A model of Learning is fitted; learning rates and learning curves follow."])
    assert stats.written_as_name("Germany") and stats.written_as_name("Manhattan")  # capitalised; never written
    assert not stats.written_as_name("Learning")  # mostly in lower case inside a sentence


@pytest.mark.parametrize("own, other, arxiv_id", [
    ("Granada", "Madrid", "2506.09751"), ("Vietnam", "Cambodia", "2506.10040"), ("Victoria", "Queensland", "2508.08763"),
])
def test_a_question_set_in_another_place_is_hedged_and_the_papers_own_place_answered(qbio_chat, own, other,
                                                                                     arxiv_id):
    template = {
        "2506.09751": "How were the patient flows of the intermediate respiratory care unit in {} modelled during COVID?",
        "2506.10040": "What did the three-scale model of forest malaria in {} find about interventions?",
        "2508.08763": "How many deaths did COVID-19 vaccination avert directly and indirectly in {}?",
    }[arxiv_id]
    paper = by_arxiv(qbio_chat, arxiv_id)
    right = qbio_chat.ask(template.format(own))
    assert not right.hedged and not right.refused and right.citations[0].paper.paper_id == paper
    swapped = qbio_chat.ask(template.format(other))
    assert swapped.refused or swapped.hedged, swapped.text
    assert other in swapped.text  # the hedge says which name no paper writes


def test_a_question_typed_in_title_case_is_answered(qbio_chat):
    answer = qbio_chat.ask("What Does The Three-Scale Model Of Forest Malaria Find About Interventions?")
    assert not answer.hedged and answer.citations[0].paper.paper_id == by_arxiv(qbio_chat, "2506.10040")


def test_years_an_abstract_writes_are_its_topic_and_other_years_filter(qbio_chat):
    """The papers are from 2025; one monitored reservoirs over 2020-2024."""
    study_period = qbio_chat.ask("What did the 2020-2024 field monitoring of reservoirs find about chlorophyll-a?")
    assert not study_period.refused
    assert study_period.citations[0].paper.paper_id == by_arxiv(qbio_chat, "2507.19553")
    other_years = qbio_chat.ask("Which papers from 2015 to 2017 study reservoirs?")
    assert other_years.refused and "No loaded paper is from 2015 to 2017." in other_years.text


def test_a_name_many_abstracts_write_names_none_of_their_papers():
    # real astro-ph.GA abstracts (tests/data/astroga): one paper is named "ALMA" after its title ("ALMA observation of
    # ..."), but nine abstracts write ALMA, the telescope; "XRISM", written by one paper, names it
    from rag.catalog import PaperCatalog
    from store.parse import parse_file

    catalog = PaperCatalog(parse_file(REPO / "tests" / "data" / "astroga" / "abstracts.jsonl").papers)
    named = lambda question: [catalog.papers[pid].name for *_, pid in catalog.mentions(question)]  # noqa: E731
    assert named("what mean dust emissivity index did the ALMA study of 21 IR-bright galaxies find?") == []
    assert named("the XRISM Hydra-A velocity dispersion paper vs the CO study of type-2 quasars") == ["XRISM"]

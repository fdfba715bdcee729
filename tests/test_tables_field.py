"""PaperChat on a corpus the machine-learning rule tables apply to though it is not machine learning (real arXiv q-bio
abstracts, tests/data/qbio4, a fifth of which write an ML term such as "deep learning" or "LLM"): an amount asked
for is still a detail, quoted where the abstract gives it and said not stated where it does not."""

import pytest

from rag.acronyms import in_tables_field
from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def qbio4_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "qbio4")


def by_arxiv(chat, arxiv_id):
    return next(p.paper_id for p in chat.papers() if p.url.endswith(arxiv_id))


def test_an_amount_the_abstract_lacks_is_said_not_stated_where_the_ml_tables_apply(qbio4_chat):
    assert in_tables_field(p.text for p in qbio4_chat.papers())  # the case: ML's own detail patterns are in use
    answer = qbio4_chat.ask("Which diffusion coefficient does the temperature-driven PDE model of Usutu virus "
                            "spreading across Germany assume?")
    assert answer.kind == "not_stated" and "diffusion coefficient" in answer.text
    assert answer.citations[0].paper.paper_id == by_arxiv(qbio4_chat, "2605.03146")


@pytest.mark.xfail(strict=True, reason="the stated reader (rag/stated.py) reads this stated age range as not stated: "
                   "one of its measured errors on answerable lookups (docs/evaluation.md, round 38)")
def test_an_amount_the_abstract_gives_is_quoted_where_the_ml_tables_apply(qbio4_chat):
    answer = qbio4_chat.ask("How old were the NHANES participants in the analysis of statin recommendations under "
                            "the 2026 dyslipidemia guidelines?")
    assert answer.kind != "not_stated" and "30-79 years" in answer.text
    assert answer.citations[0].paper.paper_id == by_arxiv(qbio4_chat, "2605.10979")

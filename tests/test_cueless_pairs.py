"""Two papers set side by side in words no comparison cue knows (real arXiv cs.IT abstracts, tests/data/csit): each
side finds its paper decisively, so both are compared; two descriptions of one paper stay a lookup of it."""

import pytest

from rag.sides import COMPARE_CUE
from tests.conftest import cited_ids, ingested_field


@pytest.fixture(scope="module")
def csit_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "csit")


@pytest.mark.parametrize("question, pair", [
    # two described papers, then "they": no "compare", "differ" or "vs"
    ("The secure aggregation paper where users can drop out and there is no server, and the one on the capacity of "
     "secure aggregation for federated learning: where do they get their correlated keys?",
     {"2605.22261", "2606.07277"}),
    # a named paper, then a described one, then "which ... and which ..." with a verb no cue lists
    ("BF-OSD or the paper decoding the XYZ planar code by posterior matching: which targets biased noise and which "
     "circuit-level noise?", {"2605.25777", "2605.23236"}),
])
def test_two_papers_set_side_by_side_without_a_cue_are_compared(csit_chat, question, pair):
    assert not COMPARE_CUE.search(question)  # the pair is found by retrieval, not by a cue word
    answer = csit_chat.ask(question)
    assert answer.kind == "comparison" and not answer.refused, answer.text
    assert cited_ids(answer) == pair, answer.text


def test_one_paper_described_twice_stays_a_lookup(csit_chat):
    answer = csit_chat.ask("The paper on secure aggregation without a trusted server, with users dropping out: how "
                           "many users can drop?")
    assert answer.kind != "comparison", answer.text
    assert "2605.22261" in cited_ids(answer), answer.text

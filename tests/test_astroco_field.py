"""PaperChat on cosmology papers (real arXiv astro-ph.CO abstracts, tests/data/astroco): two described sides that
each find their paper decisively are compared as described, whatever else stands near the whole question."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def astroco_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "astroco")


def test_two_sides_found_decisively_are_the_compared_pair(astroco_chat):
    # a third kSZ paper (Iskay2) stands near the whole question; each side finds its own paper far ahead of it
    answer = astroco_chat.ask("kSZ with DESI + ACT shows up twice: the pairwise BGS velocity measurement and the paper "
                              "using kSZ to benchmark AGN feedback in sims. Compare their goals and main results.")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2510.14135", "2510.15822"}

"""Comparisons over planetary-science papers (real arXiv astro-ph.EP abstracts, tests/data/planets): a side that finds
its paper decisively keeps it when the other side is unsure, and words joined by "and" to a paper named by its authors
stay on that side."""

import pytest

from tests.conftest import cited_ids, ingested_field


@pytest.fixture(scope="module")
def planets_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "planets")


@pytest.mark.parametrize("question, pair", [
    # the HD 28471 paper is surely the first side's; the re-examination of HD208487 is then surely the second's, though
    # the whole question (a long-period signal, planets) stands closer to another radial-velocity paper
    ("one radial-velocity study reports three short-period planets around HD 28471, the other re-examines HD208487 - "
     "is the long-period signal a planet in both?", {"2508.18000", "2508.12447"}),
    # "pebble drift" is the rest of the side Krijt et al. name, not a side of its own
    ("Krijt et al.'s water and pebble drift vs the MINDS very low-mass star disk: how does each link its spectra to "
     "disk gaps?", {"2508.10402", "2508.11761"}),
])
def test_each_side_keeps_the_paper_it_finds_surely(planets_chat, question, pair):
    answer = planets_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert cited_ids(answer) == pair, answer.text

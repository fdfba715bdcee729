"""Comparisons over planetary-science papers (real arXiv astro-ph.EP abstracts, tests/data/planets): a side that finds
its paper decisively keeps it when the other side is unsure, and words joined by "and" to a paper named by its authors
stay on that side."""

import pytest

from tests.conftest import cited_ids, ingested_field


@pytest.fixture(scope="module")
def planets_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "planets")


def test_a_side_found_decisively_keeps_its_paper(planets_chat):
    # the HD 28471 paper is surely the first side's; the re-examination of HD208487 is then surely the second's, though
    # the whole question (a long-period signal, planets) stands closer to another radial-velocity paper
    answer = planets_chat.ask("one radial-velocity study reports three short-period planets around HD 28471, the other "
                              "re-examines HD208487 - is the long-period signal a planet in both?")
    assert answer.kind == "comparison", answer.text
    assert cited_ids(answer) == {"2508.18000", "2508.12447"}, answer.text


def test_words_joined_to_a_paper_named_by_its_authors_stay_on_its_side(planets_chat):
    answer = planets_chat.ask("Krijt et al.'s water and pebble drift vs the MINDS very low-mass star disk: how does each "
                              "link its spectra to disk gaps?")
    assert answer.kind == "comparison", answer.text
    assert cited_ids(answer) == {"2508.10402", "2508.11761"}, answer.text

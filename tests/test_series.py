"""The parts of a series as titles number them and questions name them (rag.series)."""

from rag.series import SeriesParts
from store.paper import Paper


def _paper(paper_id: str, title: str, authors: tuple[str, ...] = ()) -> Paper:
    return Paper(paper_id=paper_id, name=title, title=title, abstract="", text="", source="t", ordinal=0,
                 authors=authors)


PAPERS = [
    _paper("a", "Cuspidal character sheaves on graded Lie algebras", ("Lusztig", "Yun")),
    _paper("b", "Cuspidal character sheaves on graded Lie algebras II", ("Lusztig", "Yun")),
    _paper("c", "Long-term evolution of regulatory DNA sequences. Part 1: Simulations"),
    _paper("d", "Long-term evolution of regulatory DNA sequences. Part 2: Theory and future challenges"),
    _paper("e", "XRISM/Resolve observations of Hercules X-1: the disk wind"),
    _paper("f", "A Sharper View of the X-ray Spectrum of MCG-6-30-15"),
]


def test_a_question_naming_two_parts_names_both_papers():
    series = SeriesParts(PAPERS)
    assert [pid for *_, pid in series.named("regulatory DNA sequences: part 1 vs part 2?")] == ["c", "d"]
    # the first part may carry no number; the authors help name the series
    assert [pid for *_, pid in series.named("Lusztig's cuspidal sheaves: what does part II add to part I?")] == [
        "b", "a"]


def test_a_part_of_no_series_written_names_nothing():
    series = SeriesParts(PAPERS)
    assert series.named("What does part II of the Hercules disk wind study find?") == []  # "X-1" numbers no part
    assert series.named("In part 2, which sequences evolve?") == []  # no series named

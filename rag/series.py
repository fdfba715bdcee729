"""The parts of a series of papers, as their titles number them ("BC Toda chain I: ...", "... Part 2: ..."), and the
parts a question names ("part II", "parts 1 and 2", "part III ... beyond part II")."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from store.paper import Paper

_NUMERAL = r"[IVX]{1,4}|\d"
# A title's part number after its series' name: "BC Toda chain II: symmetries", "... models, I", "... -- Part I: ...",
# "... sequences. Part 1: ..."; not "X-ray" or "Hercules X-1".
_TITLE_PART = re.compile(rf"^(?P<series>.+?)(?:[\s,.:]+|\s+[-\u2013\u2014]+\s+)(?:part\s+)?(?P<part>{_NUMERAL})"
                         r"(?=\s*(?:[:.,]|\s[-\u2013\u2014]|$))", re.I)
# The parts a question names: "part II", "Part 1 vs Part 2", "parts I and II", "part I/II".
_ASKED_PART = re.compile(rf"\bparts?\s+(?P<part>{_NUMERAL}|one|two|three)\b"
                         rf"(?P<more>(?:\s*(?:,|/|&|and|or|vs\.?|versus)\s*(?:{_NUMERAL})\b)*)", re.I)
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10,
          "one": 1, "two": 2, "three": 3}
_WORD = re.compile(r"[^\W_]{3,}")
# How many words of a series' name (or its authors' surnames) a question must write to name the series.
MIN_SERIES_WORDS = 2


def _number(numeral: str) -> int | None:
    numeral = numeral.lower()
    return int(numeral) if numeral.isdigit() else _ROMAN.get(numeral)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


class SeriesParts:
    """Papers by series and part: a series is the name its parts' titles share; a paper titled with the name alone is
    its first part ("Cuspidal character sheaves on graded Lie algebras", then "... II")."""

    def __init__(self, papers: Iterable[Paper]):
        papers = list(papers)
        self._parts: dict[str, dict[int, str]] = defaultdict(dict)  # series name (lower case) -> part -> paper id
        for paper in papers:
            if (match := _TITLE_PART.match(paper.title)) and (part := _number(match["part"])) and (
                    match["part"].isupper() or match["part"].isdigit()):
                self._parts[match["series"].strip().lower()][part] = paper.paper_id
        for paper in papers:
            if (series := paper.title.strip(" .").lower()) in self._parts:
                self._parts[series].setdefault(1, paper.paper_id)
        authors = {paper.paper_id: paper.authors for paper in papers}
        # each series' name and its authors' surnames, as a question may write them
        self._names = {series: _words(series) | {w for pid in parts.values() for author in authors[pid]
                                                 for w in _words(author.split()[-1])}
                       for series, parts in self._parts.items()}

    def named(self, text: str) -> list[tuple[int, int, str]]:
        """Where the text names parts of one series, and the papers: (start, end, paper id). The series is the one
        whose name and authors the text writes most of (two words at least), among those with every part named."""
        asked = []
        for match in _ASKED_PART.finditer(text):
            numerals = [match["part"], *re.findall(_NUMERAL, match["more"], re.I)]
            asked += [(match.start(), match.end(), n) for numeral in numerals if (n := _number(numeral))]
        if not asked:
            return []
        written = _words(text)
        fits = sorted(((len(self._names[series] & written), series) for series, parts in self._parts.items()
                       if all(n in parts for _, _, n in asked)), reverse=True)
        if not fits or fits[0][0] < MIN_SERIES_WORDS or (len(fits) > 1 and fits[1][0] == fits[0][0]):
            return []
        parts = self._parts[fits[0][1]]
        return [(start, end, parts[n]) for start, end, n in asked]

"""Names a paper coins for its own work ("Here we introduce Sparse NUTS (SNUTS)") and no other loaded abstract
writes: a question writing one names that paper, as a title's name would."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from store.acronyms import defined_acronyms
from store.paper import Paper
from store.tokens import is_common_acronym

# A coined name as a question writes it: two capitals at least ("LAPS", "SNUTS", "FlexEmu").
_COINED = re.compile(r"(?<![\w-])(?=[\w-]*[A-Z][\w-]*[A-Z])[A-Za-z][\w-]*[A-Za-z0-9](?![\w-])")
# A paper's own name is introduced by a verb at most INTRODUCED_REACH words before it: "we introduce Sparse NUTS
# (SNUTS)", "we here develop Late Adjusted Parallel Sampler (LAPS)", not "we present the results of ... using the ...
# Telescope (FAST)".
INTRODUCED_REACH = 8
_INTRODUCED = re.compile(r"\b(?:introduc\w*|propos\w*|present(?:s|ed)?|develop\w*|design\w*|call(?:ed)?|dubbed|coined"
                         r"|termed|named)\b", re.I)
_HYPHEN_OR_SPACE = re.compile(r"[\s-]+")
_LINKING_WORDS = frozenset("a an the of for and in on with to via by".split())
# Two letters name too many things to be a paper's own name ("parity violation (PV)").
MIN_CHARS = 3


class CoinedNames:
    """The papers the names a text writes were coined by, looked up name by name and remembered; ``papers_writing``
    counts the abstracts writing a name in its case."""

    def __init__(self, papers: Iterable[Paper], papers_writing: Callable[[str], int]):
        self.papers = list(papers)
        self._papers_writing = papers_writing
        self._coined: dict[str, str | None] = {}  # a name -> the paper coining it, or None
        self._spelled_texts: list[str] = []  # lazy: each title and abstract in lower case, hyphens as spaces

    def named(self, text: str) -> list[tuple[int, int, str]]:
        """Where the text writes a coined name, and its paper: (start, end, paper id)."""
        return [(*token.span(), pid) for token in _COINED.finditer(text) if (pid := self.coined_by(token.group()))]

    def coined_by(self, name: str) -> str | None:
        """The paper whose abstract introduces the name in brackets after a long form capitalised as a name is, when no
        other abstract writes the name, nor its long form ("path integral molecular dynamics (PIMD)" is the field's
        method, which other abstracts spell out)."""
        if name not in self._coined:
            self._coined[name] = None
            if len(name) < MIN_CHARS or is_common_acronym(name):
                return None
            bracket = f"({name})"
            coiners = [paper for paper in self.papers if bracket in paper.text]
            if len(coiners) != 1 or self._papers_writing(name) != 1:
                return None
            text = coiners[0].text
            before = text[:text.index(bracket)]
            if not _INTRODUCED.search(" ".join(before.split()[-INTRODUCED_REACH:])):
                return None  # an instrument or method it uses ("observed with the ... Explorer (IXPE)")
            long_form = defined_acronyms(text).get(name) or " ".join(before.split()[-2:])  # or "Sparse NUTS"
            # capitalised as a name is ("Late Adjusted Parallel Sampler"), not as a method ("finite element method")
            capitalised = all(w[:1].isupper() or not w[:1].isalpha() for w in long_form.split()
                              if w.lower() not in _LINKING_WORDS)
            if capitalised and sum(_spelled(long_form) in spelled for spelled in self._spelled()) == 1:
                self._coined[name] = coiners[0].paper_id
        return self._coined[name]

    def _spelled(self) -> list[str]:
        if not self._spelled_texts:
            self._spelled_texts = [_spelled(f"{paper.title}\n{paper.text}") for paper in self.papers]
        return self._spelled_texts


def _spelled(text: str) -> str:
    return _HYPHEN_OR_SPACE.sub(" ", text.lower())

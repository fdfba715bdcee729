"""What an answer is: text with [n] markers, the papers cited, and the papers retrieved."""

from __future__ import annotations

from dataclasses import dataclass, field

from prompts import CLOSEST_PHRASE
from store.paper import Paper


@dataclass(frozen=True)
class DetailAsk:
    """A specific detail the question wants ("batch size", "which GPU"): what to look for in an abstract."""

    phrase: str
    terms: tuple[str, ...]  # word stems; a supporting sentence contains one
    wants_number: bool  # a quantity: the sentence must also hold a number
    wants_name: bool  # a named thing (dataset, backbone): the sentence must hold a proper name
    shape: str = ""  # when set, what the answer itself looks like ("A100", "Adam", a URL): a sentence must match it
    record: str = ""  # when set, the field of the paper's record that answers it ("authors", "venue_year")
    all_terms: bool = False  # a supporting sentence holds every term ("conversion factor"), not one of them
    counted: bool = False  # "how many": the number must count a term ("398 disc galaxies"), not stand anywhere
    shape_beside_term: bool = False  # the shape stands in a sentence holding a term ("films 20 nm thick")
    number_beside_term: bool = False  # the number stands a few words from a term ("masses of 4.2 GeV")
    companions: tuple[str, ...] = ()  # when set, a supporting sentence also holds one of these ("axion", "coupling")


@dataclass(frozen=True)
class Citation:
    """Marker ``[n]`` in the text points at ``paper``; ``quote`` is the abstract sentence supporting it."""

    n: int
    paper: Paper
    quote: str = ""


@dataclass
class Answer:
    """A cited answer; ``refused`` when the loaded papers do not cover the question."""

    text: str
    citations: list[Citation] = field(default_factory=list)
    papers: list[Paper] = field(default_factory=list)
    refused: bool = False
    backend: str = "extractive"
    notice: str = ""  # e.g. why the LLM answer fell back to the extractive one
    kind: str = "lookup"  # lookup | comparison | which | not_stated | refusal
    table: list[dict] = field(default_factory=list)  # comparison rows: paper, n, problem, approach, data, results
    rewritten: str = ""  # the standalone question a follow-up was rewritten to
    suggestions: list[str] = field(default_factory=list)  # questions to ask next, from the cited papers
    hedged: bool = False  # no paper is exactly about the question: the closest one is given, and said to be that
    probability: float | None = None  # the calibrated probability that the best paper answers (rag.answerable)

    def hedge(self, closest: Paper, why: str = "") -> None:
        """Mark the answer as the closest paper's, not a match, and say so first, with ``why`` when it is known
        ("The papers nearest to it never mention “Madrid”.")."""
        cited = next((f" [{c.n}]" for c in self.citations if c.paper.paper_id == closest.paper_id), "")
        self.hedged = True
        self.lead_with(f"{CLOSEST_PHRASE}; the closest is {closest.name}{cited}:"
                       + (f" {why}" if why else ""))

    def lead_with(self, note: str) -> None:
        """Put a note on what the answer covers ("“FlashAttention” is not among the loaded papers ...") before it."""
        self.text = f"{note}\n\n{self.text}"

    def to_dict(self) -> dict:
        """JSON-ready form (the CLI's --json)."""
        return {
            "text": self.text,
            "refused": self.refused, "hedged": self.hedged, "probability": self.probability,
            "backend": self.backend,
            "notice": self.notice,
            "kind": self.kind,
            "table": self.table,
            "rewritten": self.rewritten,
            "suggestions": self.suggestions,
            "citations": [
                {"n": c.n, "quote": c.quote, "paper": _paper_dict(c.paper)} for c in self.citations
            ],
            "papers": [_paper_dict(p) for p in self.papers],
        }


def _paper_dict(paper: Paper) -> dict:
    return {
        "paper_id": paper.paper_id, "name": paper.name, "title": paper.title, "abstract": paper.abstract,
        "source": paper.source, "ordinal": paper.ordinal, "year": paper.year, "venue": paper.venue,
        "authors": list(paper.authors), "url": paper.url, "score": paper.score,
    }

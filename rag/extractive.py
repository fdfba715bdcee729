"""The offline answerer: picks the abstract sentences that answer the question, cites each."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from rag.retrieve import PaperHit
from rag.types import Answer, Citation
from store.paper import Paper

_WORD = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")
_STOP = frozenset(STOPWORDS_EN) | {"paper", "papers", "does", "do", "what", "which", "how", "use", "used", "propose", "proposed"}
# Weight of question-word overlap next to embedding similarity when ranking sentences.
LEXICAL_WEIGHT = 0.25
# A paper joins the answer when its relevance is within this margin of the best one.
SECOND_PAPER_MARGIN = 0.08


def content_words(text: str) -> set[str]:
    """Lower-cased words of a text that carry meaning (no stopwords)."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


@dataclass
class ScoredSentence:
    index: int
    text: str
    score: float


def rank_sentences(question_vec: np.ndarray, question: str, sentences: list[tuple[str, object]],
                   ignore: set[str] = frozenset()) -> list[ScoredSentence]:
    """Sentences of one paper, best answer to the question first."""
    q_words = content_words(question) - ignore
    scored = []
    for i, (text, vector) in enumerate(sentences):
        cosine = float(np.dot(question_vec, np.asarray(vector, dtype=np.float32)))
        overlap = len(q_words & content_words(text)) / len(q_words) if q_words else 0.0
        scored.append(ScoredSentence(i, text, cosine + LEXICAL_WEIGHT * overlap))
    return sorted(scored, key=lambda s: s.score, reverse=True)


class CitationBuilder:
    """Numbers papers in order of first citation and keeps one Citation per number."""

    def __init__(self) -> None:
        self.citations: list[Citation] = []
        self._numbers: dict[str, int] = {}

    def cite(self, paper: Paper, quote: str) -> int:
        if paper.paper_id not in self._numbers:
            self._numbers[paper.paper_id] = len(self._numbers) + 1
            self.citations.append(Citation(self._numbers[paper.paper_id], paper, quote))
        return self._numbers[paper.paper_id]


def refusal(hits: list[PaperHit], near: float) -> Answer:
    """The answer when no loaded paper covers the question, naming the closest ones if any are near."""
    closest = [h.paper for h in hits if h.relevance >= near][:3]
    text = "The loaded papers do not cover this question."
    if closest:
        text += " The closest papers are: " + "; ".join(f"{p.name} ({p.title})" if p.title != p.name else p.name for p in closest) + "."
    return Answer(text=text, papers=[h.paper for h in hits], refused=True, kind="refusal")


def select_papers(hits: list[PaperHit], min_relevance: float, limit: int = 3) -> list[PaperHit]:
    """The papers an answer rests on: those named, else the best and any close behind it."""
    named = [h for h in hits if h.named]
    if named:
        return named[:limit]
    relevant = [h for h in hits if h.relevance >= min_relevance]
    if not relevant:
        return []
    top = relevant[0].relevance
    return [h for h in relevant if h.relevance >= top - SECOND_PAPER_MARGIN][:limit]


def extractive_answer(
    question: str, question_vec: np.ndarray, chosen: list[PaperHit],
    sentences: dict[str, list[tuple[str, object]]], all_hits: list[PaperHit],
) -> Answer:
    """Two best sentences of the main paper, one of each other chosen paper, each cited."""
    cites = CitationBuilder()
    paragraphs = []
    for rank, hit in enumerate(chosen):
        paper = hit.paper
        ranked = rank_sentences(question_vec, question, sentences.get(paper.paper_id, []),
                                ignore=content_words(paper.name))
        picked = sorted(ranked[: 2 if rank == 0 else 1], key=lambda s: s.index)
        if not picked:
            continue
        n = cites.cite(paper, ranked[0].text)
        body = " ".join(f"{s.text} [{n}]" for s in picked)
        paragraphs.append(f"**{paper.name}**: {body}")
    return Answer(text="\n\n".join(paragraphs), citations=cites.citations, papers=[h.paper for h in all_hits])

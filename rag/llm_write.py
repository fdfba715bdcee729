"""The LLM writer: an answer written by the configured LLM from numbered sources, every [n] checked against the
abstracts (rag.cite); on any LLM failure, the offline answer with a one-line notice.

With an LLM configured, the LLM judges the candidates: a lookup the offline checks would refuse, a detail they
would call unstated and a "which papers" list all reach it with their candidate papers, and it says itself when
none answers (prompts' ``{cannot_answer}``), that the abstract does not state what is asked (``{not_stated}``) or that
it gives the closest paper only (``{closest}``): the answer's kind and hedge say so, as offline.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Sequence

from prompts import CANNOT_ANSWER_PHRASE, CLOSEST_PHRASE, NOT_STATED_PHRASE
from rag.cite import verify_citations
from rag.extractive import refusal
from rag.generate import relay, stream_llm_answer, writes_verdict
from rag.retrieve import PaperHit
from rag.types import Answer, Citation
from store.errors import LLMUnavailable
from store.paper import Paper

log = logging.getLogger(__name__)
# Candidate papers a list question sends the LLM: those the offline list keeps, then the next best scored.
LIST_CANDIDATES = 15


def sources_for(chosen: Sequence[PaperHit], hits: Sequence[PaperHit]) -> list[Paper]:
    """The papers an LLM answer is written from, best first: the chosen ones, then every other candidate (the LLM,
    not a relevance floor, decides which of them answer; the context window trims the tail)."""
    ranked = list(chosen) + [h for h in hits if h not in chosen]
    return list({h.paper.paper_id: h.paper for h in ranked}.values())


def write_with_llm(chat, question: str, papers: Sequence[Paper], hits: Sequence[PaperHit],
                   offline: Callable[[], Answer], prompt_name: str = "answer", kind: str = "lookup"
                   ) -> Generator[str, None, Answer]:
    """Stream the LLM's answer from ``papers`` (numbered sources), then return it checked; ``offline()`` makes the
    answer shown instead when the LLM fails, returns nothing usable or cites nothing that holds."""
    settings = chat.settings
    try:
        sources, deltas = stream_llm_answer(chat.llm, settings, question, list(papers), prompt_name=prompt_name)
        text = yield from relay(deltas)
        if not text:
            raise LLMUnavailable("the LLM returned an empty answer")
        if writes_verdict(text, CANNOT_ANSWER_PHRASE):
            answer = refusal(list(hits))
            answer.backend = settings.llm.backend
            return answer
        sentences = chat.store.sentences([p.paper_id for p in sources])
        text, citations = verify_citations(text, sources, chat.embed_texts, sentences)
        if not citations:
            raise LLMUnavailable("the LLM answer cited none of the sources")
        if kind == "lookup" and writes_verdict(text, NOT_STATED_PHRASE):
            kind = "not_stated"
        return Answer(text=text, citations=citations, papers=[h.paper for h in hits], backend=settings.llm.backend,
                      kind=kind, hedged=writes_verdict(text, CLOSEST_PHRASE))
    except LLMUnavailable as exc:
        log.warning("LLM answer failed, falling back to the offline answer: %s", exc)
        answer = offline()
        answer.notice = f"Offline answer shown: {exc}."
        return answer


def synthesize_comparison(chat, question: str, papers: Sequence[Paper], sentences: dict, answer: Answer,
                          table: str) -> Generator[str, None, Answer]:
    """The offline comparison ``answer`` with the LLM's synthesis of ``papers`` before its ``table`` (streamed first),
    each citation keeping the quote the check found; the offline answer with a notice when the LLM fails."""
    table += "\n\n"
    yield table
    try:
        sources, deltas = stream_llm_answer(chat.llm, chat.settings, question, list(papers), prompt_name="comparison")
        text = yield from relay(deltas)
        if not text:
            raise LLMUnavailable("the LLM returned an empty comparison")
        text, checked = verify_citations(text, sources, chat.embed_texts, sentences)
    except LLMUnavailable as exc:
        log.warning("LLM comparison failed, showing the offline synthesis: %s", exc)
        answer.notice = f"Offline synthesis shown: {exc}."
        return answer
    quotes = {c.paper.paper_id: c.quote for c in checked if c.quote}
    answer.text = text + "\n\n" + table.strip()  # the synthesis first, as offline
    answer.citations = [Citation(c.n, c.paper, quotes.get(c.paper.paper_id) or c.quote) for c in answer.citations]
    answer.backend = chat.settings.llm.backend
    return answer

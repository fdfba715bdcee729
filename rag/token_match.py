"""Word-by-word matching of a question against abstracts, in context (BERTScore recall with the bundled MiniLM).

A whole-sentence vector blurs a paraphrase that a researcher's own words make of an abstract ("hard physics
competition problems with figures" for "Olympiad-level problems with diagrams"); matching each question word to
its closest token of the abstract, both as the encoder reads them in their sentences, keeps it.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

import numpy as np

from rag.terms import ASKING_WORDS, content_words
from store.embed import MINILM_DIM, MiniLMEmbedding

# Sentences whose token vectors are kept (float16, ~25 KB each): those of recent questions' candidates.
CACHED_SENTENCES = 2048
_WORD_CHAR = re.compile(r"[\w.-]")  # "GPT-4", "v1.5": one word


class TokenMatcher:
    """How well each paper's sentences cover a question's content words: the mean, over the question's content
    tokens, of the cosine of the closest token of the paper (0..1)."""

    def __init__(self, encoder: MiniLMEmbedding):
        self.encoder = encoder
        self._sentences: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def recall(self, question: str, sentences: dict[str, list[str]]) -> dict[str, float]:
        """Each paper's recall of the question's content tokens, by paper id (``sentences``: id -> its sentences)."""
        asked = self._question_tokens(question)
        if not len(asked):
            return {pid: 0.0 for pid in sentences}
        papers = self._paper_tokens(sentences)
        return {pid: float((asked @ tokens.T).max(axis=1).mean()) if len(tokens) else 0.0
                for pid, tokens in papers.items()}

    def _question_tokens(self, question: str) -> np.ndarray:
        """The vectors of the question's tokens that belong to content words (not "which", "paper", "the")."""
        ((vectors, spans),) = self.encoder.token_vectors([question])
        meaningful = content_words(question) - ASKING_WORDS
        keep = [i for i, (start, end) in enumerate(spans) if _word_at(question, start, end) in meaningful]
        return vectors[keep]

    def _paper_tokens(self, sentences: dict[str, list[str]]) -> dict[str, np.ndarray]:
        """Each paper's token vectors over the given sentences; the sentences not cached encoded in one call."""
        texts = list(dict.fromkeys(text for rows in sentences.values() for text in rows))
        with self._lock:
            known = {text: self._sentences[text] for text in texts if text in self._sentences}
            for text in known:
                self._sentences.move_to_end(text)
        new = [text for text in texts if text not in known]
        for text, (vectors, _) in zip(new, self.encoder.token_vectors(new) if new else []):
            known[text] = vectors.astype(np.float16)
        with self._lock:
            for text in new:
                self._sentences[text] = known[text]
            while len(self._sentences) > CACHED_SENTENCES:
                self._sentences.popitem(last=False)
        return {pid: np.concatenate([known[text] for text in rows]).astype(np.float32) if rows
                else np.zeros((0, MINILM_DIM), np.float32) for pid, rows in sentences.items()}


def _word_at(text: str, start: int, end: int) -> str:
    """The lower-cased word around a token's span (a word piece belongs to its whole word)."""
    while start > 0 and _WORD_CHAR.match(text[start - 1]):
        start -= 1
    while end < len(text) and _WORD_CHAR.match(text[end]):
        end += 1
    return text[start:end].strip(".-").lower()

"""Citations in answer text: parse [n] markers, drop the ones that point nowhere, find the supporting sentence."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from rag.terms import content_words
from rag.types import Citation
from store.paper import Paper

MARKER = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*\"(])|\n+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
UNSUPPORTED_FLAG = "[no valid citation]"
# Shorter uncited pieces ("In short:", "Both do.") are connective, not claims.
MIN_CLAIM_WORDS = 4


def split_answer_sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def clean_markers(text: str, n_sources: int) -> tuple[str, list[int]]:
    """Rewrite ``[1, 2]`` as ``[1][2]`` and drop numbers outside 1..n_sources; returns text and numbers kept."""
    used: list[int] = []

    def fix(match: re.Match) -> str:
        kept = [int(x) for x in re.split(r"\s*,\s*", match.group(1)) if 1 <= int(x) <= n_sources]
        used.extend(n for n in kept if n not in used)
        return "".join(f"[{n}]" for n in kept)

    cleaned = MARKER.sub(fix, text)
    return re.sub(r"[ \t]+([.,;])", r"\1", cleaned), used


def support_score(claim_vec: np.ndarray, claim: str, sentence: str, sentence_vec: np.ndarray) -> float:
    """How well an abstract sentence supports a claim: embedding similarity plus shared numbers and terms."""
    cosine = float(np.dot(claim_vec, sentence_vec))
    claim_words, sentence_words = content_words(claim), content_words(sentence)
    overlap = len(claim_words & sentence_words) / len(claim_words) if claim_words else 0.0
    numbers = set(_NUMBER.findall(claim))
    number_hit = len(numbers & set(_NUMBER.findall(sentence))) / len(numbers) if numbers else 0.0
    return cosine + 0.3 * overlap + 0.2 * number_hit


def _flag(sentence: str) -> str:
    """Mark a sentence as unsupported, keeping its closing punctuation last."""
    body = sentence.rstrip()
    end = body[-1] if body and body[-1] in ".!?" else ""
    return f"{body[: len(body) - len(end)].rstrip()} {UNSUPPORTED_FLAG}{end}"


def verify_citations(
    text: str, sources: Sequence[Paper], embed: Callable[[list[str]], np.ndarray],
    sentences: dict[str, list[tuple[str, object]]], min_support: float = 0.35,
) -> tuple[str, list[Citation]]:
    """Check each answer sentence against the abstracts it cites.

    A sentence whose citations all fail (or that has none) gets UNSUPPORTED_FLAG; a citation that
    fails is removed from that sentence. Each kept citation carries its best supporting sentence.
    """
    text, _ = clean_markers(text, len(sources))
    answer_sentences = split_answer_sentences(text)
    claims = [MARKER.sub("", s).strip() for s in answer_sentences]
    vectors = embed(claims) if claims else np.zeros((0, 1))
    quotes: dict[int, tuple[float, str]] = {}
    out = []
    for sentence, claim, vec in zip(answer_sentences, claims, vectors):
        numbers = [int(n) for n in re.findall(r"\[(\d+)\]", sentence)]
        kept = []
        for n in dict.fromkeys(numbers):
            paper_sentences = sentences.get(sources[n - 1].paper_id, [])
            best = max(
                ((support_score(vec, claim, s, np.asarray(v, dtype=np.float32)), s) for s, v in paper_sentences),
                default=(0.0, ""),
            )
            if best[0] >= min_support:
                kept.append(n)
                if best[0] > quotes.get(n, (-1.0, ""))[0]:
                    quotes[n] = best
            else:
                sentence = re.sub(rf"\s*\[{n}\]", "", sentence)
        uncited_claim = not numbers and len(claim.split()) >= MIN_CLAIM_WORDS and not claim.endswith(":")
        if (numbers and not kept) or uncited_claim:
            sentence = _flag(sentence)
        out.append(sentence)
    text = " ".join(s.strip() for s in out)
    used = []
    for n in (int(x) for x in re.findall(r"\[(\d+)\]", text)):
        if n not in used:
            used.append(n)
    return text, [Citation(n, sources[n - 1], quotes.get(n, (0.0, ""))[1]) for n in used]

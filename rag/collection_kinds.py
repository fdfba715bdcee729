"""Is a question about the collection as a whole ("what are the main themes?", "hi", "what can you do?")?

One fitted decision rather than a pattern per phrasing: a logistic regression over the question's bundled-MiniLM
vector, with classes help / overview / trends / papers. It is fitted on the example rows of
``collection_questions.tsv`` and, as "papers", on the 1,261 questions of bench/questions.jsonl (all about papers),
and ships as ``collection_kinds.json``; ``python bench/collection_kinds.py --refit`` fits it again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from pathlib import Path

import numpy as np

EXAMPLES_FILE = Path(__file__).with_name("collection_questions.tsv")
MODEL_FILE = Path(__file__).with_name("collection_kinds.json")
# A question is taken for a collection kind when that kind is the likeliest and has at least this probability,
# picked on the dev split of bench/collection_messages.jsonl (bench/collection_kinds.py --sweep): the lowest at which
# none of its 45 questions about papers is taken for the collection (at 0.5 two are; 50 of 55 collection questions
# are caught at 0.8). A question about papers answered with the themes costs more than a theme question missed.
MIN_PROBABILITY = 0.8


class CollectionKind(str, Enum):
    """What a question about the collection asks for."""

    HELP = "help"  # greetings, thanks, "what can you do?", an empty question
    OVERVIEW = "overview"  # the themes of the loaded papers
    TRENDS = "trends"  # the themes over the years


def load_examples(path: Path = EXAMPLES_FILE) -> list[tuple[str, str]]:
    """(kind, question) rows; "papers" marks a question that is about some of the papers."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kind, question = line.split("\t", 1)
            rows.append((kind, question.strip()))
    return rows


class CollectionKinds:
    """``kind(question)``: the CollectionKind a question asks for, or None for a question about papers."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray], model_file: Path = MODEL_FILE,
                 min_probability: float = MIN_PROBABILITY):
        model = json.loads(model_file.read_text())
        self._embed = embed
        self.classes: list[str] = model["classes"]
        self._coef = np.asarray(model["coef"], dtype=np.float32)
        self._intercept = np.asarray(model["intercept"], dtype=np.float32)
        self.min_probability = min_probability

    def probabilities(self, questions: list[str]) -> np.ndarray:
        """Rows of class probabilities (columns in ``self.classes`` order)."""
        logits = self._embed(questions) @ self._coef.T + self._intercept
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def kinds(self, questions: list[str]) -> list[CollectionKind | None]:
        blank = [not q.strip(" \t\n?!.") for q in questions]
        asked = [q for q, b in zip(questions, blank) if not b]
        rows = iter(self.probabilities(asked) if asked else [])
        out: list[CollectionKind | None] = []
        for is_blank in blank:
            if is_blank:
                out.append(CollectionKind.HELP)
                continue
            row = next(rows)
            best = self.classes[int(row.argmax())]
            out.append(CollectionKind(best) if best != "papers" and row.max() >= self.min_probability else None)
        return out

    def kind(self, question: str) -> CollectionKind | None:
        return self.kinds([question])[0]

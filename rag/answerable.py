"""The calibrated decision of a lookup: the probability that the best candidate paper answers the question, from a
logistic regression over the judge's signals (``signals``), shipped as rag/answerable_model.json and refitted
with ``python bench/answerable_model.py --refit``. Two thresholds, picked on the dev split of held-out questions,
split it into an answer, a hedged answer (the closest paper, said to be only that) and a refusal."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rag.retrieve import PaperHit
from rag.terms import content_words, question_terms

MODEL_PATH = Path(__file__).with_name("answerable_model.json")


@dataclass(frozen=True)
class AnswerableModel:
    """Standardised logistic regression: ``features`` in order, with their means and scales."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    answer_min: float  # from here the gates' answer stands
    hedge_min: float  # from here, below answer_min, the closest paper is given as such; below it, a refusal

    def probability(self, signals: dict[str, float]) -> float:
        z = self.intercept + sum(c * (signals.get(name, 0.0) - m) / s
                                 for name, m, s, c in zip(self.features, self.mean, self.scale, self.coef))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self) -> str:
        return json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}, indent=1)


@cache
def answerable_model(path: Path = MODEL_PATH) -> AnswerableModel | None:
    """The shipped model, or None when there is none (the gates' decision then stands)."""
    if not path.is_file():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    return AnswerableModel(**{k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()
                              if k in AnswerableModel.__dataclass_fields__})


def signals(question: str, scored: list[tuple[float, PaperHit]], refused_by: str, papers: int,
            by_term: bool = False) -> dict[str, float]:
    """What the calibrated decision reads: the best candidate's score, its lead, its best sentence, how much of the
    question its title says, the gate that refused it (if any), whether a term only it uses pinned it, the
    question's length and the corpus size."""
    top = scored[0][0] if scored else 0.0
    second = scored[1][0] if len(scored) > 1 else 0.0
    return {
        "score": top, "margin": top - second, "relevance": scored[0][1].relevance if scored else 0.0,
        "title_share": title_share(question, scored[0][1].paper.title) if scored else 0.0,
        **{f"refused_by_{gate}": float(refused_by == gate) for gate in ("score", "gaps", "facets", "data", "versions")},
        "terms": min(len(question_terms(question)), 20) / 10, "log_papers": math.log10(max(papers, 1)),
        "by_term": float(by_term),
    }


def title_share(question: str, title: str) -> float:
    """The share of the question's topic words its best paper's title has: a question asking for a paper by its
    title is answered, not hedged, however near its neighbours."""
    terms = question_terms(question)
    own = {w[:5] for w in content_words(title)}
    return sum(w[:5] in own for w in terms) / len(terms) if terms else 0.0

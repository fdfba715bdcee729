"""The calibrated decision of a lookup: the probability that the best candidate paper answers the question, from a
logistic regression over the judge's signals (rag.judge.signals), shipped as rag/answerable_model.json and refitted
with ``python bench/answerable_model.py --refit``. Two thresholds, picked on the dev split of held-out questions,
split it into an answer, a hedged answer (the closest paper, said to be only that) and a refusal."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

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

"""The judge's verdict on a lookup: the papers that answer it, why none does, and whether the answer is hedged, as
decided by the gates and then the calibrated model (rag.answerable)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rag.answerable import AnswerableModel
from rag.retrieve import PaperHit


@dataclass
class Verdict:
    """The judge's decision on a lookup: the papers that answer it (none: refuse), every candidate best first, why
    none answers, the signals the decision read, the calibrated probability that the best paper answers, and whether
    the answer is hedged (the closest paper, said to be only that)."""

    chosen: list[PaperHit]
    hits: list[PaperHit]
    gap: str = ""
    signals: dict[str, float] = field(default_factory=dict)
    probability: float | None = None
    hedged: bool = False
    pair: list[PaperHit] = field(default_factory=list)  # two papers writing the question's names between them
    unwritten: list[str] = field(default_factory=list)  # the names the first of them never writes

    def hedged_for(self, lacking: str) -> "Verdict":
        """Hedged on the best chosen paper when the question has a facet it lacks (``lacking`` says which)."""
        if lacking and self.chosen:
            self.chosen, self.hedged, self.gap = self.chosen[:1], True, self.gap or lacking
        return self

    def decide(self, model: AnswerableModel | None, best: PaperHit) -> None:
        """By the model's probability: the papers the gates chose are given as an answer, or hedged when it is below
        ``answer_min``; when the gates chose none, the closest paper is given hedged from ``hedge_min``, else it is a
        refusal. Without a fitted model the gates' decision stands."""
        if model is None:
            return
        self.probability = model.probability(self.signals)
        if self.chosen:
            self.hedged = self.probability < model.answer_min
            self.chosen = self.chosen[:1] if self.hedged else self.chosen
        elif self.probability >= model.hedge_min:
            self.chosen, self.hedged = [best], True

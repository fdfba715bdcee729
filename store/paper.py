"""The paper record every layer passes around."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Paper:
    """One abstract with its metadata; ``score`` is set by retrieval (0 elsewhere)."""

    paper_id: str
    name: str
    title: str
    abstract: str  # raw, as in the file
    text: str  # LaTeX resolved, for display and search
    source: str
    ordinal: int
    year: int | None = None
    venue: str | None = None
    authors: tuple[str, ...] = field(default_factory=tuple)
    url: str | None = None
    score: float = 0.0

    def with_score(self, score: float) -> "Paper":
        return replace(self, score=score)

    @property
    def key(self) -> str:
        """Stable location of the paper: ``source#ordinal``."""
        return f"{self.source}#{self.ordinal}"

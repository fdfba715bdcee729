"""One browser session's choices (answer backend, top-k, filters), kept in ``gr.State``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rag.retrieve import PaperFilters

BACKENDS = ("extractive", "openai", "openai-compatible")
BACKEND_LABELS = {
    "extractive": "Extractive (offline, quotes the abstracts)",
    "openai": "OpenAI (needs OPENAI_API_KEY on the server)",
    "openai-compatible": "OpenAI-compatible server (URL + model)",
}
TOP_K_RANGE = (1, 30)
ANY_YEAR = "Any"


@dataclass
class SessionPrefs:
    """What this session asked for; None/empty means "the server's settings"."""

    backend: str = "extractive"
    model: str = ""
    base_url: str = ""
    top_k: int = 10
    year_min: int | None = None
    year_max: int | None = None
    venues: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def from_settings(cls, settings: Any) -> "SessionPrefs":
        return cls(backend=settings.llm.backend, model=settings.llm.model, base_url=settings.llm.base_url or "",
                   top_k=settings.retrieval.top_k)

    def filters(self) -> PaperFilters:
        return PaperFilters(self.year_min, self.year_max, tuple(self.venues))

    def chat_for(self, chat: Any) -> Any:
        """``chat`` itself when the backend is the server's, else a copy answering with this session's LLM."""
        llm = chat.settings.llm
        wanted = (self.backend, self.model or llm.model, self.base_url or llm.base_url)
        if wanted == (llm.backend, llm.model, llm.base_url):
            return chat
        return chat.with_llm(backend=wanted[0], model=wanted[1], base_url=wanted[2])

    def describe(self) -> str:
        """One line for the chat tab: how answers are made right now."""
        if self.backend == "extractive":
            how = "Extractive answers (offline)"
        elif self.backend == "openai":
            how = f"{self.model or 'default model'} via OpenAI"
        else:
            where = f"`{self.base_url.replace('`', '')}`" if self.base_url else "an OpenAI-compatible server"
            how = f"{self.model or 'default model'} via {where}"
        parts = [how, f"top {self.top_k} papers"]
        if self.year_min is not None or self.year_max is not None:
            parts.append(f"years {self.year_min or '…'}–{self.year_max or '…'}")
        if self.venues:
            parts.append("venues " + ", ".join(self.venues))
        return " · ".join(parts)


def validate_prefs(backend: str, model: str, base_url: str, top_k: Any, year_min: Any, year_max: Any,
                   venues: Any) -> tuple[SessionPrefs, list[str]]:
    """Prefs from the settings form, with readable problems (bad values fall back to defaults)."""
    problems: list[str] = []
    if backend not in BACKENDS:
        problems.append(f"Unknown answer backend {backend!r}; using extractive.")
        backend = "extractive"
    base_url = (base_url or "").strip()
    if backend == "openai-compatible":
        if not base_url:
            problems.append("The OpenAI-compatible backend needs a base URL, e.g. http://127.0.0.1:8080/v1.")
        elif not base_url.startswith(("http://", "https://")):
            problems.append("The base URL must start with http:// or https://.")
            base_url = ""
    try:
        k = int(top_k)
    except (TypeError, ValueError):
        k = 10
    k = min(max(k, TOP_K_RANGE[0]), TOP_K_RANGE[1])
    years = []
    for label, value in (("From year", year_min), ("To year", year_max)):
        try:
            years.append(int(value) if value not in (None, "", ANY_YEAR) else None)
        except (TypeError, ValueError):
            problems.append(f"{label} must be a year.")
            years.append(None)
    if years[0] is not None and years[1] is not None and years[0] > years[1]:
        problems.append("'From year' is after 'To year': no paper can match.")
    prefs = SessionPrefs(backend, (model or "").strip(), base_url, k, years[0], years[1],
                         tuple(v for v in (venues or []) if v))
    return prefs, problems

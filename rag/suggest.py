"""Questions to ask next, built from the papers an answer cites: a comparison with the nearest other paper of the
same theme, what a paper found, and the list of its theme. Worded for any field."""

from __future__ import annotations

from rag.themes import ThemeMap
from rag.types import Answer
from store.paper import Paper

# Suggestions under one answer, and the longest paper name a suggestion is made of (one would not type more).
MAX_SUGGESTIONS = 3
MAX_NAME_CHARS = 40


def next_questions(answer: Answer, papers: dict[str, Paper], themes: ThemeMap | None = None) -> list[str]:
    """Up to MAX_SUGGESTIONS questions following on from ``answer``; none after a refusal or a help reply. The
    comparison is with the nearest paper the answer does not cite; the list of its theme needs ``themes``."""
    if answer.refused or answer.kind in ("help", "language", "overview", "trends"):
        return []
    cited = list(dict.fromkeys(c.paper.paper_id for c in answer.citations))
    named = [pid for pid in cited if len(papers[pid].name) <= MAX_NAME_CHARS]
    if not named:
        return []
    first = papers[named[0]]
    suggestions: list[str] = []
    if answer.kind == "comparison" or len(named) > 1:
        suggestions.append(f"What did {first.name} find?")
        if len(named) > 1:
            suggestions.append(f"What did {papers[named[1]].name} find?")
    else:
        suggestions.append(f"What data does {first.name} use?")
    theme_index = themes.theme_of.get(first.paper_id) if themes else None
    theme = themes.themes[theme_index] if theme_index is not None else None
    # the nearest other paper: the most central of its theme, else the best retrieved one
    near = [papers[pid] for pid in theme.paper_ids if pid in papers] if theme else list(answer.papers)
    peer = next((p for p in near if p.paper_id not in cited and len(p.name) <= MAX_NAME_CHARS), None)
    if peer is not None:
        suggestions.append(f"Compare {first.name} with {peer.name}")
    if theme is not None:
        suggestions.append(f"Which papers are about {theme.label}?")
    return suggestions[:MAX_SUGGESTIONS]

"""Questions to ask next, built from the papers an answer cites: a comparison with the nearest other paper of the
same theme, what a paper found, and the list of its theme. Worded for any field."""

from __future__ import annotations

from rag.themes import ThemeMap
from rag.types import Answer
from store.paper import Paper

# Suggestions under one answer, and the longest paper name a suggestion is made of (one would not type more).
MAX_SUGGESTIONS = 3
MAX_NAME_CHARS = 40


def next_questions(answer: Answer, themes: ThemeMap, papers: dict[str, Paper]) -> list[str]:
    """Up to MAX_SUGGESTIONS questions following on from ``answer``; none after a refusal or a help reply."""
    if answer.refused or answer.kind in ("help", "language", "overview", "trends"):
        return []
    cited = list(dict.fromkeys(c.paper.paper_id for c in answer.citations))
    named = [pid for pid in cited if len(papers[pid].name) <= MAX_NAME_CHARS]
    if not named:
        return []
    first = papers[named[0]]
    suggestions: list[str] = []
    if answer.kind == "comparison" or len(named) > 1:
        second = papers[named[1]] if len(named) > 1 else None
        suggestions.append(f"What did {first.name} find?")
        if second is not None:
            suggestions.append(f"What did {second.name} find?")
    else:
        suggestions.append(f"What data does {first.name} use?")
    theme_index = themes.theme_of.get(first.paper_id)
    if theme_index is not None:
        theme = themes.themes[theme_index]
        peer = next((pid for pid in theme.paper_ids if pid not in cited and pid in papers
                     and len(papers[pid].name) <= MAX_NAME_CHARS), None)
        if peer is not None:
            suggestions.append(f"Compare {first.name} with {papers[peer].name}")
        suggestions.append(f"Which papers are about {theme.label}?")
    return suggestions[:MAX_SUGGESTIONS]

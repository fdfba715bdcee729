"""pandas frames behind the paper browser table and the corpus map."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pandas as pd

from store.paper import Paper

TABLE_COLUMNS = ["Name", "Title", "Year", "Venue", "Source"]
MAP_COLUMNS = ["x", "y", "name", "title", "status"]
LIT, DIM = "retrieved for your last question", "other papers"


def matches(paper: Paper, query: str) -> bool:
    """Every word of the query appears in the paper's name, title, venue, year, source or abstract."""
    haystack = " ".join(str(x) for x in (paper.name, paper.title, paper.venue or "", paper.year or "",
                                         paper.key, paper.text)).lower()
    return all(word in haystack for word in query.lower().split())


def papers_frame(papers: Sequence[Paper], query: str = "") -> pd.DataFrame:
    """The browser table: one row per paper matching ``query``; Source is ``file#ordinal`` (unique)."""
    rows = [[p.name, p.title, p.year, p.venue or "", p.key] for p in papers if matches(p, query)]
    if not rows and query.strip():  # said in the table, not shown as bare headers
        rows = [[f"No papers match “{query.strip()}”.", "", None, "", ""]]
    frame = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    frame["Year"] = frame["Year"].astype("Int64")
    return frame


def map_frame(coords: dict[str, tuple[float, float]], papers: Sequence[Paper],
              lit: Collection[str] = ()) -> pd.DataFrame:
    """Scatter points: the PCA position of each paper, lit when retrieved for the last question."""
    rows = [[*coords[p.paper_id], p.name, _short(p.title), LIT if p.paper_id in lit else DIM]
            for p in papers if p.paper_id in coords]
    rows.sort(key=lambda r: r[4] == LIT)  # lit points drawn last, on top
    return pd.DataFrame(rows, columns=MAP_COLUMNS)


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"

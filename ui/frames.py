"""pandas frames behind the paper browser table and the corpus map."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pandas as pd

from store.paper import Paper

TABLE_COLUMNS = ["Name", "Title", "Year", "Venue", "Source"]
MAP_COLUMNS = ["x", "y", "name", "title", "status"]
CITED, LIT, DIM = "cited in your last answer", "retrieved for your last question", "other papers"
CITED_COLOUR, LIT_COLOUR, DIM_COLOUR = "#b91c1c", "#e8590c", "#94a3b8"
# Muted colours for the themes (the legend names each theme by its label), so the lit papers stand out; kept in
# step with the fill rules of assets/style.css.
THEME_COLOURS = ["#93c5fd", "#86efac", "#c4b5fd", "#fcd34d", "#67e8f9", "#f9a8d4", "#a5b4fc", "#bef264",
                 "#fdba74", "#5eead4"]


def matches(paper: Paper, query: str) -> bool:
    """Every word of the query appears in the paper's name, title, venue, year, source or abstract."""
    haystack = " ".join(str(x) for x in (paper.name, paper.title, paper.venue or "", paper.year or "",
                                         paper.key, paper.text)).lower()
    return all(word in haystack for word in query.lower().split())


def shown_papers(papers: Sequence[Paper], query: str = "") -> list[Paper]:
    """The papers the browser table lists for ``query``, in its row order."""
    return [p for p in papers if matches(p, query)]


def source_label(paper: Paper) -> str:
    """Where a paper comes from, as a reader names it: its file, or for a file named by a hash (the bundled
    "000_2c065e5f55ea4de2.txt") its venue and year; then its place in the file, from 1."""
    stem = paper.source.rsplit(".", 1)[0]
    hashed = re.search(r"[0-9a-f]{12,}", stem) and (paper.venue or paper.year)
    where = " ".join(str(x) for x in (paper.venue, paper.year) if x) if hashed else paper.source
    return f"{where} #{paper.ordinal + 1}"


def papers_frame(papers: Sequence[Paper], query: str = "") -> pd.DataFrame:
    """The browser table: one row per paper matching ``query``; Source as ``source_label`` gives it."""
    rows = [[p.name, p.title, p.year, p.venue or "", source_label(p)] for p in shown_papers(papers, query)]
    if not rows and query.strip():  # said in the table, not shown as bare headers
        rows = [[f"No papers match “{query.strip()}”.", "", None, "", ""]]
    frame = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    frame["Year"] = frame["Year"].astype("Int64")
    return frame


def map_frame(coords: dict[str, tuple[float, float]], papers: Sequence[Paper], lit: Mapping[str, str] | None = None,
              themes: Sequence[str] | None = None) -> pd.DataFrame:
    """Scatter points: the PCA position of each paper; CITED or LIT after the last question (``lit``: paper id ->
    status), else its theme's label (``themes``: a label per paper id, in the same order as ``papers``) or DIM."""
    lit = lit or {}
    labels = list(themes) if themes is not None else [DIM] * len(papers)
    rows = [[*coords[p.paper_id], p.name, _short(p.title), lit.get(p.paper_id, label)]
            for p, label in zip(papers, labels) if p.paper_id in coords]
    rows.sort(key=lambda r: (r[4] == LIT, r[4] == CITED))  # lit points drawn last, on top, the cited topmost
    # The plot takes its colour scale from the categories of its first value and keeps it when the value changes,
    # so a later lit point had no colour: both lit categories are always there, as points without a position.
    placeholders = [[None, None, "", "", CITED], [None, None, "", "", LIT]]
    return pd.DataFrame(placeholders + rows, columns=MAP_COLUMNS)


def map_colours(theme_labels: Sequence[str]) -> dict[str, str]:
    """The map's colour of each status: cited and retrieved papers, then each theme."""
    colours = {CITED: CITED_COLOUR, LIT: LIT_COLOUR, DIM: DIM_COLOUR}
    colours.update({label: THEME_COLOURS[i % len(THEME_COLOURS)] for i, label in enumerate(theme_labels)})
    return colours


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"

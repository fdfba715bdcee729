"""The Themes tab: the loaded papers' themes, their share of each year's papers as a plot, and a theme's papers
listed on a click. Wiring only: themes and trends come from ``PaperChat``."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pandas as pd

THEME_COLUMNS = ["#", "Theme", "Papers", "Trend"]
MEMBER_COLUMNS = ["Name", "Title", "Year"]
TREND_COLUMNS = ["year", "share", "papers", "theme"]
# Themes drawn in the plot (largest first): beyond this many lines, a plot is no longer read.
PLOTTED_THEMES = 8


def themes_frame(chat: Any, trends: Any) -> pd.DataFrame:
    """One row per theme, largest first, with its change in share between the earliest and the latest papers
    (``trends``: ``chat.trends()``, computed once for the tab's views)."""
    change = {t.theme: t.change for t in trends.trends} if trends else {}
    rows = [[i + 1, theme.label, len(theme), f"{100 * change[i]:+.1f} pts" if i in change else ""]
            for i, theme in enumerate(chat.themes.themes)]
    return pd.DataFrame(rows, columns=THEME_COLUMNS)


def trend_frame(chat: Any, trends: Any) -> pd.DataFrame:
    """Each plotted theme's share (%) of each year's papers, with the count behind it (years as text: an axis of
    years, not of numbers like "2,008.5")."""
    if trends is None:
        return pd.DataFrame(columns=TREND_COLUMNS)
    per_year = [sum(row[i] for row in trends.counts) for i in range(len(trends.years))]
    rows = [[str(year), round(100 * row[i] / max(per_year[i], 1), 2), row[i], chat.themes.themes[t].label]
            for t, row in enumerate(trends.counts[:PLOTTED_THEMES]) for i, year in enumerate(trends.years)]
    return pd.DataFrame(rows, columns=TREND_COLUMNS)


def members_frame(chat: Any, index: int) -> pd.DataFrame:
    """The papers of theme ``index``, most central first."""
    themes = chat.themes.themes
    if not 0 <= index < len(themes):
        return pd.DataFrame(columns=MEMBER_COLUMNS)
    papers = chat.catalog.papers
    frame = pd.DataFrame([[papers[pid].name, papers[pid].title, papers[pid].year] for pid in themes[index].paper_ids
                          if pid in papers], columns=MEMBER_COLUMNS)
    frame["Year"] = frame["Year"].astype("Int64")
    return frame


def trend_caption(chat: Any, trends: Any) -> str:
    if trends is None:
        return ("The loaded papers span fewer than two years, so there is no trend to plot. "
                "Click a theme to list its papers.")
    return (f"Share of each year's papers in the {min(PLOTTED_THEMES, len(chat.themes.themes))} largest themes, "
            f"{trends.years[0]}–{trends.years[-1]}. Trend: change in share from {trends.early[0]}–{trends.early[1]} "
            f"to {trends.late[0]}–{trends.late[1]}. Click a theme to list its papers.")


def build_themes_tab(chat: Any) -> tuple[gr.Tab, tuple[gr.components.Component, ...], Any]:
    """Lay out the tab inside the current Blocks; returns the tab, the components to refresh after an ingest, and
    the function that refreshes them."""
    trends = chat.trends()
    with gr.Tab("Themes", id="themes", elem_id="tab-themes") as tab:
        caption = gr.Markdown(trend_caption(chat, trends), elem_id="pc-themes-caption")
        plot = gr.LinePlot(trend_frame(chat, trends), x="year", y="share", color="theme",
                           tooltip=["theme", "year", "papers"], x_title="year", y_title="share of the year's papers (%)",
                           height=380, show_label=False, elem_id="pc-trends", visible=trends is not None)
        with gr.Row(equal_height=False):
            table = gr.Dataframe(themes_frame(chat, trends), interactive=False, wrap=True, max_height=480,
                                 show_label=False, elem_id="pc-themes", column_widths=["6%", "62%", "14%", "18%"],
                                 scale=1)
            members = gr.Dataframe(pd.DataFrame(columns=MEMBER_COLUMNS), interactive=False, wrap=True,
                                   max_height=480, label="Papers of the theme", elem_id="pc-theme-papers", scale=1)

    def list_members(evt: gr.SelectData):
        row = evt.row_value or []
        return members_frame(chat, int(row[0]) - 1) if row else gr.skip()

    def refresh():
        now = chat.trends()
        return (trend_caption(chat, now), gr.LinePlot(trend_frame(chat, now), visible=now is not None),
                themes_frame(chat, now), pd.DataFrame(columns=MEMBER_COLUMNS))

    table.select(list_members, None, members, api_visibility="private", queue=False)
    return tab, (caption, plot, table, members), refresh

"""Themes over the years: how many papers of each theme each year, and which themes grew or shrank."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rag.themes import ThemeMap

# The early and the late period each hold about this share of the dated papers (whole years).
PERIOD_SHARE = 1 / 3


@dataclass(frozen=True)
class ThemeTrend:
    """One theme's share of the papers in the early and the late period, with the counts behind it."""

    theme: int  # index in ThemeMap.themes
    early: int
    early_total: int
    late: int
    late_total: int

    @property
    def change(self) -> float:
        return self.late / max(self.late_total, 1) - self.early / max(self.early_total, 1)


@dataclass(frozen=True)
class Trends:
    """Counts per theme and year, the two periods compared, and every theme's trend, most growing first."""

    years: tuple[int, ...]
    counts: tuple[tuple[int, ...], ...]  # counts[theme][year index]
    early: tuple[int, int]  # first and last year of each period
    late: tuple[int, int]
    trends: tuple[ThemeTrend, ...]

    @property
    def growing(self) -> list[ThemeTrend]:
        return [t for t in self.trends if t.change > 0]

    @property
    def shrinking(self) -> list[ThemeTrend]:
        return [t for t in reversed(self.trends) if t.change < 0]


def theme_trends(themes: ThemeMap, years: Mapping[str, int | None]) -> Trends | None:
    """The themes' trends over the papers' years (``years``: paper_id -> year); None with fewer than two years."""
    dated = {pid: y for pid, y in years.items() if y is not None and pid in themes.theme_of}
    all_years = sorted(set(dated.values()))
    if len(all_years) < 2:
        return None
    index = {y: i for i, y in enumerate(all_years)}
    counts = [[0] * len(all_years) for _ in themes.themes]
    for pid, year in dated.items():
        counts[themes.theme_of[pid]][index[year]] += 1
    per_year = [sum(row[i] for row in counts) for i in range(len(all_years))]
    early_end = min(_period_end(per_year, from_start=True), len(all_years) - 2)
    late_start = max(_period_end(per_year, from_start=False), early_end + 1)
    early = range(0, early_end + 1)
    late = range(late_start, len(all_years))
    trends = [ThemeTrend(theme=t, early=sum(row[i] for i in early), early_total=sum(per_year[i] for i in early),
                         late=sum(row[i] for i in late), late_total=sum(per_year[i] for i in late))
              for t, row in enumerate(counts)]
    trends.sort(key=lambda t: t.change, reverse=True)
    return Trends(years=tuple(all_years), counts=tuple(tuple(row) for row in counts),
                  early=(all_years[early.start], all_years[early.stop - 1]),
                  late=(all_years[late.start], all_years[late.stop - 1]), trends=tuple(trends))


def _period_end(per_year: list[int], from_start: bool) -> int:
    """Index of the last year (from the start) or first year (from the end) of a period holding PERIOD_SHARE of the
    papers; with two years, each period is one year."""
    order = range(len(per_year)) if from_start else range(len(per_year) - 1, -1, -1)
    target, seen = PERIOD_SHARE * sum(per_year), 0
    for i in order:
        seen += per_year[i]
        if seen >= target:
            return i
    return order[-1]

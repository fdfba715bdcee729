"""Answers, sources and papers as safe Markdown/HTML; every piece of paper or model text is escaped."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

from store.paper import Paper

_MARKER = re.compile(r"\[(\d{1,3})\]")
# "<" or ">" (after any backslashes, doubled so they stay literal) gets a backslash: raw HTML then shows
# as text while the rest stays Markdown (tables, **bold**, \| in cells).
_MD_HTML = re.compile(r"(\\*)([<>])")
_MD_IMAGE = re.compile(r"!\[")

LOGO = (
    "<svg class='pc-logo' viewBox='0 0 24 24' width='26' height='26' aria-hidden='true'>"
    "<path fill='currentColor' d='M6 2h8l6 6v12a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm7 1.5V9h5.5z"
    "M7 12h10v1.6H7zm0 3.5h10v1.6H7zm0-7h4v1.6H7z'/></svg>"
)
EMPTY_SOURCES = (
    "<div class='pc-empty'><p><b>Sources</b></p>"
    "<p>Ask a question: the abstracts behind the answer appear here, "
    "with the supporting sentence highlighted.</p></div>"
)


def escape_markdown(text: str) -> str:
    """Text that Markdown renders literally as far as HTML goes: ``<img onerror=...>`` shows as text."""
    text = _MD_HTML.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), text)
    return _MD_IMAGE.sub(r"!\\[", text)  # no remote images: an answer could otherwise load any URL


def link_citations(markdown: str, numbers: Iterable[int], prefix: str = "source",
                   targets: Sequence[tuple[str, str]] = ()) -> str:
    """Turn each ``[n]`` of a cited source into a link to its card ``#{prefix}-n``; ``targets``: for each marker of
    the text in order, the anchor of the sentence it cites within the card and that sentence (the chip's tooltip)."""
    known = set(numbers)
    order = iter(range(len(_MARKER.findall(markdown))))

    def link(match: re.Match) -> str:
        n, at = int(match.group(1)), next(order)
        if n not in known:
            return match.group(0)
        anchor, quote = targets[at] if at < len(targets) else ("", "")
        title = f' "{_tooltip(quote)}"' if quote else ""
        return rf"[\[{n}\]](#{prefix}-{n}{anchor}{title})"

    return _MARKER.sub(link, markdown)


def _tooltip(quote: str) -> str:
    return escape_markdown(quote).replace('"', "'").replace("\n", " ")


# What starts the span a marker cites: the end of a sentence, a line, a table cell or a bold lead-in ("**X**: ").
_SPAN_BREAK = re.compile(r"(?<=[.!?])\s+|\n|\||\*\*:\s*")


def cited_spans(answer: Any) -> tuple[dict[int, list[str]], list[tuple[int, int | None]]]:
    """The abstract sentences each citation rests on (its quote, then every span of the answer text a marker [n]
    follows that the cited abstract holds verbatim), and for each marker of the text in order its number and the index
    of the sentence it cites (None: the paper as a whole)."""
    quotes: dict[int, list[str]] = {}
    papers = _cited_papers(answer.citations)
    for c in answer.citations:
        if c.quote:
            quotes.setdefault(c.n, []).append(c.quote)
    targets: list[tuple[int, int | None]] = []
    for match in _MARKER.finditer(answer.text):
        n = int(match.group(1))
        pieces = _SPAN_BREAK.split(_MARKER.sub("", answer.text[: match.start()]).rstrip())
        span = pieces[-1].strip(" *:-").removesuffix("…").strip()  # a table cell's sentence may be cut short
        paper = papers.get(n)
        if paper is None or len(span.split()) < 3 or not _find(span, paper.text):
            targets.append((n, None))
            continue
        own = quotes.setdefault(n, [])
        index = next((i for i, q in enumerate(own) if _find(span, q) or _find(q, span)), None)
        if index is None:
            own.append(span)
            index = len(own) - 1
        targets.append((n, index))
    return quotes, targets


def _find(quote: str, text: str) -> re.Match | None:
    words = quote.split()
    return re.search(r"\s+".join(re.escape(w) for w in words), text) if words else None


def answer_markdown(answer: Any, prefix: str = "source") -> str:
    """The final answer for the chat: escaped text, each [n] linked to the sentence it cites in the sources panel
    (its tooltip the sentence), then a one-line key."""
    cited = _cited_papers(answer.citations)
    quotes, marks = cited_spans(answer)
    targets = [(f"-q{i}", quotes[n][i]) if i is not None else ("", "") for n, i in marks]
    text = link_citations(escape_markdown(answer.text), cited, prefix, targets)
    if cited:
        key = " · ".join(rf"[\[{n}\] {escape_markdown(paper.name)}](#{prefix}-{n})" for n, paper in cited.items())
        text += f"\n\n**Sources:** {key}"
    suggestions = getattr(answer, "suggestions", [])
    if suggestions:  # one click asks (ui/assets/app.js)
        text += "\n\n**Ask next:** " + " · ".join(f"[{_link_text(q)}](#ask)" for q in suggestions)
    if answer.notice:
        text += f"\n\n> ⚠️ {escape_markdown(answer.notice)}"
    if getattr(answer, "rewritten", ""):
        text += f"\n\n*Answered as: “{escape_markdown(answer.rewritten)}”*"
    return text


def _link_text(text: str) -> str:
    return escape_markdown(text).replace("[", "\\[").replace("]", "\\]")


def partial_markdown(text: str) -> str:
    """A streamed answer so far (markers are linked once the answer is final)."""
    return escape_markdown(text) + " ▍"


def cited_papers(answer: Any) -> list[Paper]:
    """The papers an answer cites, in citation order."""
    return list(_cited_papers(answer.citations).values())


def _cited_papers(citations: Sequence[Any]) -> dict[int, Paper]:
    cited: dict[int, Paper] = {}
    for c in sorted(citations, key=lambda c: c.n):
        cited.setdefault(c.n, c.paper)
    return cited


def _where(paper: Paper) -> str:
    return " · ".join(str(x) for x in (paper.venue, paper.year) if x)


def _meta(paper: Paper) -> list[str]:
    return [x for x in (_where(paper), f"relevance {paper.score:.2f}" if paper.score > 0 else "") if x]


def _highlight(text: str, quotes: Iterable[str], anchor: str = "") -> tuple[str, list[str]]:
    """Escaped text with each quote wrapped in <mark> (whitespace-tolerant), and the quotes not found; with
    ``anchor``, the mark of quote i has the id ``{anchor}-q{i}`` (a citation chip's target)."""
    spans: list[tuple[int, int, int]] = []
    missing: list[str] = []
    for i, quote in enumerate(quotes):
        found = _find(quote, text)
        if found:
            spans.append((*found.span(), i))
        elif quote.split():
            missing.append(quote)
    out, pos = [], 0
    for start, end, i in sorted(spans):
        if start < pos:
            continue
        mark_id = f" id='{anchor}-q{i}'" if anchor else ""
        out += [html.escape(text[pos:start]), f"<mark{mark_id}>{html.escape(text[start:end])}</mark>"]
        pos = end
    out.append(html.escape(text[pos:]))
    return "".join(out), missing


def paper_card(paper: Paper, n: int | None = None, quotes: Sequence[str] = (), prefix: str = "source",
               show_score: bool = True) -> str:
    """One source card: marker, name, venue/year, score, title, abstract with quotes highlighted."""
    chip = f"<span class='pc-chip'>[{n}]</span> " if n is not None else ""
    meta = [html.escape(x) for x in (_meta(paper) if show_score else [_where(paper)]) if x]
    title = ""
    if paper.title and paper.title.strip() != paper.name.strip():
        title = f"<div class='pc-title'>{html.escape(paper.title)}</div>"
    abstract, missing = _highlight(paper.text, quotes, f"{prefix}-{n}" if n is not None else "")
    if missing:  # not verbatim in the abstract (e.g. LaTeX resolved differently): show it above
        abstract = "".join(f"<blockquote><mark>{html.escape(q)}</mark></blockquote>" for q in missing) + abstract
    anchor = f" id='{prefix}-{n}'" if n is not None else ""
    return (
        f"<article class='pc-source'{anchor}>"
        f"<header>{chip}<span class='pc-name'>{html.escape(paper.name)}</span>"
        f"<span class='pc-meta'>{' · '.join(meta)}</span></header>"
        f"{title}<p class='pc-abstract'>{abstract}</p></article>"
    )


def sources_html(answer: Any, prefix: str = "source", floor: float = 0.0) -> str:
    """Cited papers as cards, then the retrieved-but-uncited ones scoring ``floor`` or more, collapsed."""
    if answer is None:
        return EMPTY_SOURCES
    quotes, _ = cited_spans(answer)
    cited = _cited_papers(answer.citations)
    cited_ids = {p.paper_id for p in cited.values()}
    others = [p for p in answer.papers if p.paper_id not in cited_ids and p.score >= floor]
    parts = [f"<div class='pc-sources-head'>Sources <span>{len(cited)} cited · "
             f"{len(cited) + len(others)} retrieved</span></div>"]
    if answer.refused:
        parts.append("<p class='pc-note'>None of the loaded abstracts answers this question.</p>")
    elif getattr(answer, "hedged", False):
        parts.append("<p class='pc-note pc-hedged'>Closest match only: no loaded abstract is exactly about this "
                     "question.</p>")
    parts += [paper_card(paper, n, quotes.get(n, []), prefix) for n, paper in cited.items()]
    if others:
        items = "".join(
            f"<details class='pc-other'><summary><span class='pc-name'>{html.escape(p.name)}</span>"
            f"<span class='pc-meta'>{html.escape(' · '.join(_meta(p)))}</span></summary>"
            f"<p class='pc-abstract'>{html.escape(p.text)}</p></details>"
            for p in others
        )
        parts.append(f"<details class='pc-more'><summary>{len(others)} more retrieved, not cited</summary>"
                     f"{items}</details>")
    return "<div class='pc-sources'>" + "".join(parts) + "</div>"


def paper_detail_html(paper: Paper | None) -> str:
    """The paper browser's detail pane."""
    if paper is None:
        return "<div class='pc-empty'>Select a paper in the table to read its abstract.</div>"
    extra = []
    if paper.authors:
        extra.append(f"<div class='pc-authors'>{html.escape(', '.join(paper.authors))}</div>")
    if paper.url and paper.url.startswith(("https://", "http://")):
        extra.append(f"<a class='pc-link' href='{html.escape(paper.url, quote=True)}' target='_blank' "
                     f"rel='noopener noreferrer'>{html.escape(paper.url)}</a>")
    card = paper_card(paper, show_score=False)
    source = f"<div class='pc-meta'>{html.escape(paper.key)}</div>"
    return card.replace("</article>", "".join(extra) + source + "</article>")


def table_markdown(table: Any) -> str:
    """A comparison table (Markdown text, row dicts like ``{"paper", "n", "problem"...}``, or header + rows)."""
    if not table:
        return ""
    if isinstance(table, str):
        return escape_markdown(table)
    rows = list(table)
    if isinstance(rows[0], dict):
        header = [h for h in rows[0] if h not in TABLE_HIDDEN]
        body = [[_paper_cell(row) if h == "paper" else row.get(h, "") for h in header] for row in rows]
        header = [h.replace("_", " ").capitalize() for h in header]
    else:
        header, body = list(rows[0]), [list(r) for r in rows[1:]]

    def cell(value: Any) -> str:
        return escape_markdown(str(value if value is not None else "")).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in body]
    return "\n".join(lines)


TABLE_HIDDEN = frozenset({"paper_id", "n", "quotes"})


def _paper_cell(row: dict) -> str:
    return f"{row.get('paper', '')} [{row['n']}]" if row.get("n") is not None else str(row.get("paper", ""))


def ingest_report_html(summary: str, rejected: Sequence[Any], notes: Sequence[str] = ()) -> str:
    """The upload result: counts, then a line per rejected record (file, line, reason)."""
    parts = [f"<div class='pc-report'><p><b>{html.escape(summary)}</b></p>"]
    parts += [f"<p class='pc-note'>{html.escape(note)}</p>" for note in notes]
    if rejected:
        rows = "".join(
            f"<tr><td>{html.escape(_basename(e.path))}</td><td>{'' if e.line is None else e.line}</td>"
            f"<td>{html.escape(e.reason)}</td></tr>"
            for e in rejected
        )
        parts.append(f"<table class='pc-rejected'><thead><tr><th>File</th><th>Line</th><th>Why it was skipped"
                     f"</th></tr></thead><tbody>{rows}</tbody></table>")
    return "".join(parts) + "</div>"


def _basename(path: str) -> str:
    return re.split(r"[\\/]", path)[-1]


def header_html(count: int, papers: Sequence[Paper] = ()) -> str:
    """The page header: product name and corpus size."""
    venues = sorted({p.venue for p in papers if p.venue})
    years = sorted({p.year for p in papers if p.year})
    span = ""
    if years:
        span = f" · {years[0]}" + (f"–{years[-1]}" if years[-1] != years[0] else "")
    where = f" · {html.escape(', '.join(venues[:3]))}" + ("…" if len(venues) > 3 else "") if venues else ""
    return (
        f"<div class='pc-header'><div class='pc-brand'>{LOGO}PaperChat</div>"
        f"<div class='pc-corpus' id='pc-corpus-count'><b>{count}</b> papers{where}{span}</div>"
        "<div class='pc-tagline'>Answers cite the abstracts they rest on.</div></div>"
    )

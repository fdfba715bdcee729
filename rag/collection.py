"""Answers about the collection as a whole: its themes, their trends over the years, and what the assistant can do."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from rag.cite import MARKER, UNSUPPORTED_FLAG, verify_citations
from rag.collection_kinds import CollectionKind
from rag.extractive import CitationBuilder
from rag.generate import stream_llm_answer
from rag.themes import Theme, ThemeMap
from rag.trends import ThemeTrend, Trends
from rag.types import Answer, Citation
from store.errors import LLMUnavailable
from store.paper import Paper

# Papers cited per theme in an overview, and themes a trend answer names each way.
CENTRAL_SHOWN = 3
TRENDS_SHOWN = 3
# A quoted line is cut at a word boundary beyond this many characters.
LINE_CHARS = 220
LLM_HINT = ("To have an LLM write the answers, start with `--llm openai-compatible --base-url URL --model NAME` "
            "(or `--llm openai` with `OPENAI_API_KEY` set), or pick a backend under *Corpus & settings* in the web app.")


def gist_sentence(sentences: Sequence[tuple[str, object]]) -> str:
    """The sentence nearest the mean of all of a paper's sentence vectors: the one that sums the paper up."""
    if not sentences:
        return ""
    vectors = np.asarray([v for _, v in sentences], dtype=np.float32)
    mean = vectors.mean(axis=0)
    return sentences[int(np.argmax(vectors @ mean))][0]


def _short(text: str) -> str:
    if len(text) <= LINE_CHARS:
        return text
    return text[:LINE_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _loaded_line(papers: Sequence[Paper]) -> str:
    """'38 papers are loaded (NeurIPS 2026: 38), from 2026.'"""
    sources = Counter(p.venue or p.source for p in papers)
    shown = ", ".join(f"{name}: {count:,}" for name, count in sources.most_common(4))
    if len(sources) > 4:
        shown += f", {len(sources) - 4} more"
    years = sorted({p.year for p in papers if p.year})
    span = "" if not years else f", from {years[0]}" if len(years) == 1 else f", from {years[0]} to {years[-1]}"
    noun = "paper is" if len(papers) == 1 else "papers are"
    return f"{len(papers):,} {noun} loaded ({shown}){span}."


def overview_answer(themes: ThemeMap, papers: Mapping[str, Paper],
                    sentences: Mapping[str, Sequence[tuple[str, object]]],
                    summaries: Mapping[int, tuple[str, Sequence[Citation]]] | None = None) -> Answer:
    """The themes, largest first: label, paper count, and the most central papers cited with one line each.
    ``sentences``: the central papers' sentences with their vectors. ``summaries``: a theme's one-sentence summary
    written by an LLM, by theme index, its [n] numbering its own citations (checked with rag.cite)."""
    if not themes.themes:
        return help_answer([], themes)
    cites = CitationBuilder()
    parts = [f"{_loaded_line(list(papers.values()))} They fall into {len(themes.themes)} themes, largest first "
             "(each named by the words that set its papers apart):"]
    for index, theme in enumerate(themes.themes):
        lines = [f"**{index + 1}. {theme.label}** ({len(theme):,} {'paper' if len(theme) == 1 else 'papers'})"]
        summary = (summaries or {}).get(index)
        if summary:
            text, own = summary
            numbers = {c.n: cites.cite(c.paper, c.quote) for c in own}
            lines[0] += ": " + MARKER.sub(lambda m: f"[{numbers.get(int(m.group(1)), m.group(1))}]", text)
        for pid in theme.paper_ids[:CENTRAL_SHOWN]:
            paper, quote = papers[pid], gist_sentence(sentences.get(pid, []))
            shown = paper.name if summary else _one_line(paper, quote)
            lines.append(f"- {shown} [{cites.cite(paper, quote)}]")
        parts.append("\n".join(lines))
    parts.append("Ask “Which papers are about <theme>?” to list a theme's papers.")
    return Answer(text="\n\n".join(parts), citations=cites.citations, papers=[c.paper for c in cites.citations],
                  kind="overview")


def theme_papers_answer(theme: Theme, papers: Mapping[str, Paper],
                        sentences: Mapping[str, Sequence[tuple[str, object]]], shown: int) -> Answer:
    """The papers of one theme, most central first, one cited line each (the first ``shown`` of them)."""
    cites = CitationBuilder()
    lines = [f"{len(theme):,} {'paper is' if len(theme) == 1 else 'papers are'} in the theme “{theme.label}”"
             f"{', most central first' if len(theme) > 1 else ''}:"]
    for pid in theme.paper_ids[:shown]:
        paper, quote = papers[pid], gist_sentence(sentences.get(pid, []))
        lines.append(f"- {_one_line(paper, quote)} [{cites.cite(paper, quote)}]")
    if len(theme) > shown:
        lines.append(f"- and {len(theme) - shown:,} more (the Themes tab lists them all)")
    return Answer(text="\n".join(lines), citations=cites.citations, papers=[c.paper for c in cites.citations],
                  kind="which")


def _one_line(paper: Paper, quote: str) -> str:
    """The paper's name and what it is in one line: its own title, or a title-less abstract's gist sentence."""
    line = paper.title if paper.title and paper.title not in paper.text else quote
    if not line or line.startswith(paper.name):  # "VISD: a structured self-distillation framework ..."
        return _short(line) or paper.name
    return f"{paper.name}: {_short(line)}"


def llm_theme_summaries(llm, settings, themes: ThemeMap, papers: Mapping[str, Paper],
                        sentences: Mapping[str, Sequence[tuple[str, object]]], embed
                        ) -> tuple[dict[int, tuple[str, list[Citation]]], str]:
    """Each theme's one-sentence summary, written by the LLM from its most central papers (prompts/theme.txt), its
    citations checked against their abstracts; a summary citing nothing that holds is left out (the offline lines
    stand). Returns the summaries by theme index and, if the LLM failed, why (for the answer's notice)."""
    summaries: dict[int, tuple[str, list[Citation]]] = {}
    for index, theme in enumerate(themes.themes):
        central = [papers[pid] for pid in theme.paper_ids[:CENTRAL_SHOWN]]
        try:
            sources, deltas = stream_llm_answer(llm, settings, theme.label, central, prompt_name="theme")
            text = "".join(deltas).strip()
        except LLMUnavailable as exc:
            return summaries, f"Offline theme lines shown: {exc}."
        text, citations = verify_citations(text, sources, embed, dict(sentences))
        if citations and UNSUPPORTED_FLAG not in text:
            summaries[index] = (text, citations)
    return summaries, ""


def theme_papers(chat, theme: Theme) -> Answer:
    """The papers of one theme of ``chat`` (a PaperChat), most central first, each cited."""
    from rag.list_answer import WHICH_MAX_PAPERS

    shown = list(theme.paper_ids[:WHICH_MAX_PAPERS])
    return theme_papers_answer(theme, chat.catalog.papers, chat.store.sentences(shown), WHICH_MAX_PAPERS)


def about_collection(chat, question: str) -> Answer | None:
    """``chat``'s (a PaperChat's) answer to a question about the collection as a whole (its themes or trends) or
    about this assistant ("hi", "what can you do?", nothing at all); None for a question about papers."""
    kind = chat.collection_kinds.kind(question)
    if kind is None or (kind is not CollectionKind.HELP and chat.catalog.named_in(question)):
        return None
    papers = chat.papers()
    if kind is CollectionKind.HELP or not papers:
        return help_answer(papers, chat.themes, offline=not chat.has_llm)
    central = [pid for theme in chat.themes.themes for pid in theme.paper_ids[:CENTRAL_SHOWN]]
    sentences = chat.store.sentences(central)
    if kind is CollectionKind.TRENDS:
        return trends_answer(chat.themes, chat.trends(), chat.catalog.papers, sentences)
    summaries, notice = {}, ""
    if chat.has_llm:  # the LLM sums each theme up in a sentence from its central papers
        try:
            summaries, notice = llm_theme_summaries(chat.llm, chat.settings, chat.themes, chat.catalog.papers,
                                                    sentences, chat.embed_texts)
        except LLMUnavailable as exc:  # misconfigured (no key, no base URL)
            notice = f"Offline theme lines shown: {exc}."
    answer = overview_answer(chat.themes, chat.catalog.papers, sentences, summaries)
    answer.notice = notice
    if summaries:
        answer.backend = chat.settings.llm.backend
    return answer


def _trend_line(trend: ThemeTrend, themes: ThemeMap, trends: Trends) -> str:
    early, late = trends.early, trends.late
    when = lambda span: str(span[0]) if span[0] == span[1] else f"{span[0]}–{span[1]}"  # noqa: E731
    share = lambda part, whole: f"{100 * part / max(whole, 1):.1f}%"  # noqa: E731
    return (f"- {themes.themes[trend.theme].label}: {trend.early:,} of {trend.early_total:,} papers "
            f"({share(trend.early, trend.early_total)}) in {when(early)} → {trend.late:,} of {trend.late_total:,} "
            f"({share(trend.late, trend.late_total)}) in {when(late)}")


def trends_answer(themes: ThemeMap, trends: Trends | None, papers: Mapping[str, Paper],
                  sentences: Mapping[str, Sequence[tuple[str, object]]]) -> Answer:
    """Which themes grew and which shrank between the earliest and the latest third of the papers, with counts."""
    if trends is None:
        years = sorted({p.year for p in papers.values() if p.year})
        reason = (f"All loaded papers with a year are from {years[0]}" if years
                  else "The loaded papers have no years")
        answer = overview_answer(themes, papers, sentences)
        answer.lead_with(f"{reason}, so there is no change over the years to show. Their themes:")
        return answer
    text = [f"{_loaded_line(list(papers.values()))} The share of each of {len(themes.themes)} themes in the earliest "
            f"papers ({trends.early[0]}–{trends.early[1]}) against the latest ({trends.late[0]}–{trends.late[1]}):"]
    if trends.growing:
        text.append("**Growing**\n" + "\n".join(_trend_line(t, themes, trends) for t in trends.growing[:TRENDS_SHOWN]))
    if trends.shrinking:
        text.append("**Shrinking**\n" + "\n".join(_trend_line(t, themes, trends)
                                                  for t in trends.shrinking[:TRENDS_SHOWN]))
    text.append("Per-year counts of every theme are plotted under the Themes tab of the web app.")
    answer = Answer(text="\n\n".join(text), kind="trends")
    answer.papers = [papers[pid] for t in trends.growing[:1] + trends.shrinking[:1]
                     for pid in themes.themes[t.theme].paper_ids[:CENTRAL_SHOWN]]
    return answer


def example_questions(papers: Sequence[Paper], themes: ThemeMap) -> list[str]:
    """Questions the loaded papers answer: a lookup, a comparison, a list and the overview."""
    by_id = {p.paper_id: p for p in papers}
    short = lambda pid: len(by_id[pid].name) <= 40  # noqa: E731 - a name one would type
    questions = []
    for theme in themes.themes:
        named = [pid for pid in theme.paper_ids if pid in by_id and short(pid)]
        if len(named) >= 2:
            a, b = by_id[named[0]].name, by_id[named[1]].name
            questions += [f"What does {a} propose?", f"How do {a} and {b} differ?"]
            break
    if themes.themes:
        questions.append(f"Which papers are about {themes.themes[0].label}?")
    questions.append("What are the main themes of these papers?")
    return questions


def help_answer(papers: Sequence[Paper], themes: ThemeMap, offline: bool = True) -> Answer:
    """What is loaded, a few questions to try, and how to plug in an LLM: the reply to "hi", "help" or nothing."""
    if not papers:
        return Answer(text="No papers are loaded yet. Add some with `paperchat ingest FILES` (txt, jsonl, json or "
                           "csv) or the upload under *Corpus & settings*, then ask about them.", kind="help")
    text = (f"I answer questions about the papers loaded here, citing the abstracts each answer rests on. "
            f"{_loaded_line(papers)}\n\nTry, for example:\n"
            + "\n".join(f"- {q}" for q in example_questions(papers, themes))
            + "\n\nI also compare papers, answer follow-ups, and say plainly when the loaded papers do not cover a "
              "question.")
    if offline:  # how to plug in an LLM, for those who have none
        text += "\n\nAnswers are written offline from the abstracts' own sentences, in English. " + LLM_HINT
    return Answer(text=text, kind="help")

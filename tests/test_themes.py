"""Questions about the whole collection: its themes, their trends over the years, and the help reply to "hi" or
nothing at all; through the Python API, the CLI and the web app."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rag.collection_kinds import CollectionKind, load_examples
from rag.themes import Theme, ThemeMap
from rag.trends import theme_trends
from tests.conftest import SHARED_CORPUS

CHROMIUM = Path("/usr/bin/chromium")
GREETINGS = ["hi", "thanks!", "what can you do?", "help", ""]
OVERVIEWS = ["what are the main trends in these papers?", "summarize all the papers", "give me an overview",
             "What are the main topics?"]


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


# ---- themes of the 38 seeds ----
def test_seed_themes_cover_every_paper_once_with_distinct_labels_from_their_own_words(seed_chat):
    themes = seed_chat.themes.themes
    assert 4 <= len(themes) <= 8
    members = [pid for theme in themes for pid in theme.paper_ids]
    assert sorted(members) == sorted(seed_chat.catalog.papers)  # every paper, in exactly one theme
    assert [len(t) for t in themes] == sorted((len(t) for t in themes), reverse=True)  # largest first
    labels = [t.label.lower() for t in themes]
    assert len(set(labels)) == len(labels) and len({t.terms[0].lower() for t in themes}) == len(themes)
    for theme in themes:
        own = set().union(*(words_of(seed_chat.catalog.papers[pid].text + " " + seed_chat.catalog.papers[pid].title)
                            for pid in theme.paper_ids))
        assert words_of(theme.label) <= own, f"label {theme.label!r} has words none of its papers use"


@pytest.mark.parametrize("question", OVERVIEWS)
def test_overview_lists_every_theme_with_counts_and_cites_central_papers(seed_chat, question):
    answer = seed_chat.ask(question)
    assert not answer.refused and answer.kind in ("overview", "trends")
    themes = seed_chat.themes.themes
    for theme in themes:
        assert f"{theme.label}** ({len(theme)} papers)" in answer.text
    assert sum(int(n) for n in re.findall(r"\*\* \((\d+) papers?\)", answer.text)) == 38
    cited = {c.paper.paper_id for c in answer.citations}
    assert cited == {pid for t in themes for pid in t.paper_ids[:3]}
    for c in answer.citations:  # each quote is a sentence of the cited abstract
        assert c.quote and c.quote in c.paper.text
    if "trend" in question:  # one year only: says so rather than inventing a trend
        assert "no change over the years" in answer.text and "2026" in answer.text


def test_a_theme_label_asked_as_a_list_lists_that_themes_papers(seed_chat):
    theme = seed_chat.themes.themes[1]
    answer = seed_chat.ask(f"Which papers are about {theme.label}?")
    assert not answer.refused
    assert {c.paper.paper_id for c in answer.citations} == set(theme.paper_ids)
    assert f"{len(theme)} papers are in the theme" in answer.text


def test_themes_are_kept_per_store_generation(seed_chat, tmp_path):
    from rag import PaperChat

    first = seed_chat.themes
    again = PaperChat(store_dir=seed_chat.settings.store.dir).themes  # a new process reads the snapshot
    assert [t.paper_ids for t in again.themes] == [t.paper_ids for t in first.themes]
    extra = tmp_path / "extra.jsonl"
    extra.write_text(json.dumps({"title": "KelpSeg: segmenting kelp forests in satellite images",
                                 "abstract": "KelpSeg segments kelp forests in multispectral satellite images with a "
                                             "lightweight U-Net and a new dataset of 4,000 coastal scenes."}) + "\n")
    seed_chat.ingest([extra])
    assert len(seed_chat.themes.theme_of) == 39  # recomputed after the ingest


# ---- trends ----
def test_trends_compare_each_themes_share_early_and_late():
    themes = ThemeMap(themes=(Theme("a", ("a",), ("a1", "a2", "a3", "a4")), Theme("b", ("b",), ("b1", "b2", "b3"))),
                      theme_of={"a1": 0, "a2": 0, "a3": 0, "a4": 0, "b1": 1, "b2": 1, "b3": 1})
    years = {"b1": 2001, "b2": 2001, "a1": 2001, "b3": 2002, "a2": 2002, "a3": 2003, "a4": 2003}
    trends = theme_trends(themes, years)
    assert trends.years == (2001, 2002, 2003) and trends.counts == ((1, 1, 2), (2, 1, 0))
    # each period holds a third of the papers or more: 2001 (3 of 7), and 2002-2003 (2 + 2) from the end
    assert trends.early == (2001, 2001) and trends.late == (2002, 2003)
    (grew,), (shrank,) = trends.growing, trends.shrinking
    assert (grew.theme, grew.early, grew.early_total, grew.late, grew.late_total) == (0, 1, 3, 3, 4)
    assert (shrank.theme, shrank.early, shrank.late) == (1, 2, 1)
    assert theme_trends(themes, {pid: 2020 for pid in years}) is None  # one year: no trend


@pytest.fixture(scope="module")
def years_store(tmp_path_factory) -> Path:
    """A store of 264 real NeurIPS abstracts, 22 from each year of the shared corpus."""
    from rag import PaperChat

    if not SHARED_CORPUS.is_file():
        pytest.skip(f"needs the shared corpus at {SHARED_CORPUS}")
    by_year: dict[int, list[str]] = {}
    with SHARED_CORPUS.open() as f:
        for line in f:
            year = json.loads(line).get("year")
            if year and len(by_year.setdefault(year, [])) < 22:
                by_year[year].append(line)
    path = tmp_path_factory.mktemp("years") / "papers.jsonl"
    path.write_text("".join(line for lines in by_year.values() for line in lines))
    store = path.parent / "store"
    chat = PaperChat(store_dir=store, store_bundled_corpus=False)
    chat.ingest([path])
    chat.themes  # computed once, kept as a snapshot
    return store


def test_trend_answer_names_growing_and_shrinking_themes_with_counts(years_store):
    from rag import PaperChat

    chat = PaperChat(store_dir=years_store)
    answer = chat.ask("how did the topics change over the years?")
    assert answer.kind == "trends" and not answer.refused
    trends = chat.trends()
    growing, shrinking = answer.text.split("**Shrinking**")
    for trend in trends.growing[:3]:
        line = f"{chat.themes.themes[trend.theme].label}: {trend.early} of {trend.early_total} papers"
        assert line in growing and f"{trend.late} of {trend.late_total}" in growing
    for trend in trends.shrinking[:3]:
        assert f"{chat.themes.themes[trend.theme].label}: {trend.early} of {trend.early_total}" in shrinking
    assert len(re.findall(r"^- ", growing, re.M)) == 3 and len(re.findall(r"^- ", shrinking, re.M)) == 3


# ---- the help reply ----
@pytest.mark.parametrize("question", GREETINGS)
def test_greetings_help_and_nothing_get_a_helpful_reply(seed_chat, question):
    answer = seed_chat.ask(question)
    assert answer.kind == "help" and not answer.refused
    assert "38 papers are loaded" in answer.text and "--llm openai-compatible" in answer.text
    examples = re.findall(r"^- (.+\?)$", answer.text, re.M)
    assert len(examples) >= 3
    for example in examples:  # each suggested question works on the loaded papers
        reply = seed_chat.ask(example)
        assert not reply.refused and reply.citations, example


def test_help_on_an_empty_store_says_how_to_load_papers(empty_chat):
    answer = empty_chat.ask("hi")
    assert answer.kind == "help" and "paperchat ingest" in answer.text


@pytest.fixture(scope="module")
def collection_kinds():
    import numpy as np

    from rag.collection_kinds import CollectionKinds
    from store.embed import MiniLMEmbedding

    encoder = MiniLMEmbedding()
    return CollectionKinds(lambda texts: np.asarray(encoder.get_text_embedding_batch(texts), dtype=np.float32))


def test_every_example_row_is_read_as_its_own_kind(collection_kinds):
    rows = load_examples()
    got = collection_kinds.kinds([question for _, question in rows])
    wrong = [(kind, q, g) for (kind, q), g in zip(rows, got) if (g.value if g else "papers") != kind]
    assert not wrong


def test_questions_naming_a_paper_are_never_taken_for_the_collection(seed_chat):
    answer = seed_chat.ask("What are the main themes of PhysVista?")
    assert answer.kind not in ("overview", "trends", "help")
    assert any(c.paper.name == "PhysVista" for c in answer.citations)
    assert seed_chat.collection_kinds.kind("summarize all the papers") is CollectionKind.OVERVIEW


# ---- the command line ----
def run_cli(store: Path, *args: str) -> subprocess.CompletedProcess:
    """The installed ``paperchat`` command, as a user runs it (a real process: its log setup is under test)."""
    command = Path(sys.executable).with_name("paperchat")
    return subprocess.run([str(command), "--store-dir", str(store), *args], capture_output=True, text=True,
                          timeout=300)


def test_cli_ask_empty_gets_help_and_a_usage_hint_with_no_library_logs(seed_chat):
    result = run_cli(seed_chat.settings.store.dir, "ask", "")
    assert result.returncode == 0
    assert "38 papers are loaded" in result.stdout and "Try, for example" in result.stdout
    assert 'Usage: paperchat ask "' in result.stderr
    greeting = run_cli(seed_chat.settings.store.dir, "ask", "hello")
    assert greeting.returncode == 0 and "Try, for example" in greeting.stdout


def test_cli_shows_no_third_party_log_lines_unless_verbose(seed_chat):
    store = seed_chat.settings.store.dir
    shutil.rmtree(store / "bm25", ignore_errors=True)  # rebuilding BM25 is what logged "bm25s" lines
    quiet = run_cli(store, "ask", "What does PipeFSDP improve?")
    assert quiet.returncode == 0 and "PipeFSDP" in quiet.stdout
    assert quiet.stderr.strip() == "", quiet.stderr
    shutil.rmtree(store / "bm25", ignore_errors=True)
    verbose = run_cli(store, "--verbose", "ask", "What does PipeFSDP improve?")
    assert verbose.returncode == 0 and "bm25s" in verbose.stderr


def test_cli_ingest_of_only_rejected_inputs_fails_and_says_so(seed_chat, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    for args in (["ingest", "/nonexistent.jsonl"], ["ingest", str(bad)], ["ingest", "--json", str(bad)]):
        result = run_cli(seed_chat.settings.store.dir, *args)
        assert result.returncode == 1, args
    result = run_cli(seed_chat.settings.store.dir, "ingest", "/nonexistent.jsonl")
    assert "every input was rejected" in result.stderr and "/nonexistent.jsonl" in result.stderr
    assert len(seed_chat.papers()) == 38  # nothing lost


# ---- the web app ----
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium: run .ci/browser-deps.sh")
def test_themes_tab_plots_trends_and_lists_a_themes_papers(years_store, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from rag import PaperChat
    from tests.conftest import CHROMIUM_ARGS, REPO, WAIT
    from tests.ui_server import running_app

    chat = PaperChat(store_dir=years_store)
    with running_app(chat) as url, sync_playwright() as pw:
        expect.set_options(timeout=WAIT)
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 950})
        page.set_default_timeout(WAIT)
        page.goto(url)
        page.get_by_role("tab", name="Themes").click()
        plot = page.locator("#pc-trends")
        expect(plot.locator("canvas, svg").first).to_be_visible()
        expect(page.locator("#pc-themes-caption")).to_contain_text(f"{chat.trends().years[0]}")
        first = chat.themes.themes[0]
        page.locator("#pc-themes").get_by_text(first.label, exact=True).click()
        listed = page.locator("#pc-theme-papers")
        expect(listed).to_contain_text(chat.catalog.papers[first.paper_ids[0]].name[:40])
        page.screenshot(path=tmp_path / "themes.png")
        if os.environ.get("UPDATE_SCREENSHOT"):  # refresh docs/themes.png on demand only
            shutil.copyfile(tmp_path / "themes.png", REPO / "docs" / "themes.png")

        # greetings and an empty question in the chat get the help reply
        page.get_by_role("tab", name="Chat").click()
        page.click("#pc-send")
        bot = page.locator('#pc-chatbot [data-testid="bot"]')
        expect(bot.last).to_contain_text("Try, for example")
        page.fill("#pc-question textarea", "hi!")
        page.click("#pc-send")
        expect(bot).to_have_count(2)
        expect(bot.last).to_contain_text("264 papers are loaded")
        browser.close()


# ---- with an LLM ----
def quote_first_source(body: dict) -> str:
    """A scripted model that answers only from what it is sent: the first sentence of source [1], cited."""
    prompt = body["messages"][-1]["content"]
    abstract = re.search(r"^\[1\] .*?^Abstract: (.+?)$", prompt, re.M | re.S).group(1)
    return re.split(r"(?<=\.)\s+", abstract)[0] + " [1]"


@pytest.fixture
def llm_server():
    from tests.openai_server import FakeOpenAI

    with FakeOpenAI() as server:
        yield server


def test_with_an_llm_each_theme_is_summed_up_in_a_checked_cited_sentence(seed_chat, llm_server):
    from rag import PaperChat
    from tests.openai_server import Reply

    llm_server.script([Reply(text_fn=quote_first_source)])
    chat = PaperChat(store_dir=seed_chat.settings.store.dir, llm_backend="openai-compatible",
                     llm_base_url=llm_server.base_url, llm_model="scripted")
    answer = chat.ask("What are the main themes of these papers?")
    assert answer.backend == "openai-compatible" and not answer.notice
    assert len(llm_server.completion_requests) == len(chat.themes.themes)  # one request a theme
    by_number = {c.n: c for c in answer.citations}
    for index, theme in enumerate(chat.themes.themes):
        header = re.search(rf"^\*\*{index + 1}\. .*$", answer.text, re.M).group()
        (n,) = map(int, re.findall(r"\[(\d+)\]", header))
        cited = by_number[n].paper
        assert cited.paper_id == theme.paper_ids[0]  # source [1] of its request: the theme's most central paper
        assert header.split(": ", 1)[1].removesuffix(f" [{n}]") in cited.text  # the model's sentence, kept


def test_a_failing_llm_leaves_the_offline_theme_lines_with_a_notice(seed_chat, llm_server):
    from rag import PaperChat
    from tests.openai_server import Reply

    llm_server.script([Reply(status=500)])
    chat = PaperChat(store_dir=seed_chat.settings.store.dir, llm_backend="openai-compatible",
                     llm_base_url=llm_server.base_url, llm_model="scripted", llm_max_retries=0)
    answer = chat.ask("summarize all the papers")
    assert answer.kind == "overview" and "Offline theme lines shown" in answer.notice and "HTTP 500" in answer.notice
    assert answer.text == seed_chat.ask("summarize all the papers").text


# ---- suggested next questions ----
@pytest.mark.parametrize("question", ["What is PatchKV?", "How do PhysVista and PhyProbe differ?",
                                      "Which papers propose benchmarks for physical reasoning in VLMs?"])
def test_each_suggested_next_question_is_answered_from_the_papers(seed_chat, question):
    answer = seed_chat.ask(question)
    assert 2 <= len(answer.suggestions) <= 3
    cited = {c.paper.name for c in answer.citations}
    assert all(any(name in s for name in cited) or "papers are about" in s for s in answer.suggestions)
    for suggestion in answer.suggestions:
        reply = seed_chat.ask(suggestion)
        assert not reply.refused and reply.citations, suggestion
    assert seed_chat.ask("How do I bake sourdough bread?").suggestions == []

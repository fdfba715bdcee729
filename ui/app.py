"""The Gradio Blocks app: chat with sources, comparison, paper browser, corpus map, corpus and settings.

Only wiring lives here: answers come from ``rag`` (PaperChat), markup from ``ui.render``.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr

from rag.types import Answer
from store.errors import PaperChatError
from ui import render
from ui.frames import CITED, LIT, map_colours, map_frame, papers_frame, shown_papers
from ui.prefs import ANY_YEAR, BACKEND_LABELS, TOP_K_RANGE, SessionPrefs, validate_prefs
from ui.render import cited_papers
from ui.themes_tab import build_themes_tab
from ui.uploads import ALLOWED_SUFFIXES, UploadRejected, stage_upload

log = logging.getLogger(__name__)

# Bundled-corpus examples: one lookup, one comparison, one "which papers".
EXAMPLES = [
    "What does PipeFSDP improve over TorchTitan?",
    "How do PhysVista and PhyProbe differ in what they evaluate?",
    "Which papers propose benchmarks for physical reasoning in VLMs?",
]
CHAT_PLACEHOLDER = (
    "### Ask the papers\nAnswers quote the loaded abstracts and cite them as [1], [2]… "
    "Click a citation to open the paper in the sources panel."
)


def user_message(exc: Exception) -> str:
    """What a user sees for an error: our errors' own message, a short generic line otherwise."""
    if isinstance(exc, (PaperChatError, gr.Error)):
        return str(exc)
    log.exception("Unexpected error in the web app")
    return f"Something went wrong ({type(exc).__name__}: {str(exc)[:200]}). The details are in the server log."


def shown_error(message: str) -> gr.Error:
    """A message for the user (a toast in the app, the error of an API call) that leaves no traceback in the server
    log: validation and our own errors; an unexpected one is logged once, by ``user_message``."""
    return gr.Error(message, print_exception=False)


def readable_errors(fn: Callable) -> Callable:
    """Event handlers raise gr.Error (a toast with the message), never a traceback."""
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def gen_wrapper(*args, **kwargs):
            try:
                yield from fn(*args, **kwargs)
            except gr.Error:
                raise
            except Exception as exc:
                raise shown_error(user_message(exc)) from None
        return gen_wrapper

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except gr.Error:
            raise
        except Exception as exc:
            raise shown_error(user_message(exc)) from None
    return wrapper


def example_questions(chat: Any) -> list[str]:
    """The bundled examples when their papers are loaded, else ones made from the loaded names."""
    named = [chat.catalog.named_in(q) for q in EXAMPLES[:2]]
    if len(named[0]) >= 1 and len(named[1]) >= 2:
        return EXAMPLES
    names = [p.name for p in chat.papers() if len(p.name) <= 30][:2]
    if len(names) < 2:
        return ["Which papers propose a new benchmark?"]
    return [f"What does {names[0]} propose?", f"How do {names[0]} and {names[1]} differ?",
            "Which papers propose a new benchmark?"]


def picker_labels(papers: list) -> dict[str, str]:
    """The comparison picker's values, each to its paper's id: names, with the source added where a name repeats."""
    counts: dict[str, int] = {}
    for p in papers:
        counts[p.name] = counts.get(p.name, 0) + 1
    return {p.name if counts[p.name] == 1 else f"{p.name} ({p.key})": p.paper_id for p in papers}


def picker_choices(papers: list) -> list[str]:
    return list(picker_labels(papers))


def year_choices(papers: list) -> list[str]:
    return [ANY_YEAR] + [str(y) for y in sorted({p.year for p in papers if p.year})]


def build_app(chat: Any) -> gr.Blocks:
    """The Blocks app over one PaperChat (shared); per-session choices live in gr.State."""
    max_chars = chat.settings.ui.max_question_chars
    floor = chat.settings.retrieval.min_relevance  # papers retrieved below it are neither listed nor lit
    max_mb = chat.settings.ui.max_upload_mb
    uploads_dir = Path(chat.settings.store.dir) / "uploads"

    # ---- corpus views (read fresh: another session may have ingested) ----
    def corpus_updates(query: str = "", lit: dict | None = None):
        papers = chat.papers()
        venues = sorted({p.venue for p in papers if p.venue})
        return (
            render.header_html(len(papers), papers),
            papers_frame(papers, query),
            gr.Dropdown(choices=picker_choices(papers)),
            gr.Dropdown(choices=venues),
            gr.Dropdown(choices=year_choices(papers)),
            gr.Dropdown(choices=year_choices(papers)),
            paper_map_frame(papers, lit),
        )

    def paper_map_frame(papers: list, lit: dict | None):
        themes = chat.themes
        labels = [themes.themes[themes.theme_of[p.paper_id]].label if p.paper_id in themes.theme_of else None
                  for p in papers]
        return map_frame(chat.paper_map(), papers, lit or {}, [label or "other papers" for label in labels])

    # ---- chat ----
    def answer_turn(question: str, history: list, turns: list, prefs: SessionPrefs):
        """Stream one answer into the chat; the sources panel and map highlight follow the final Answer."""
        question = (question or "").strip()
        history = list(history or [])
        if not question:  # an empty question gets the help reply: what is loaded and what to ask
            reply = prefs.chat_for(chat).ask("")
            history += [{"role": "assistant", "content": render.answer_markdown(reply)}]
            yield history, gr.skip(), gr.skip(), gr.skip(), gr.skip()
            return
        if len(question) > max_chars:  # said, and the question left in the box to be shortened
            history += [{"role": "user", "content": render.escape_markdown(question[:300]) + "…"},
                        {"role": "assistant", "content": f"That question is {len(question):,} characters long; "
                                                         f"questions are limited to {max_chars:,}. Please shorten it "
                                                         "(it is still in the box)."}]
            yield history, gr.skip(), gr.skip(), gr.skip(), question
            return
        history += [{"role": "user", "content": render.escape_markdown(question)},
                    {"role": "assistant", "content": render.partial_markdown("")}]
        yield history, gr.skip(), gr.skip(), gr.skip(), ""
        text = ""
        try:
            answerer = prefs.chat_for(chat)
            for piece in answerer.stream(question, history=turns, k=prefs.top_k, filters=prefs.filters()):
                if isinstance(piece, Answer):
                    history[-1]["content"] = render.answer_markdown(piece)
                    cited = {p.paper_id: CITED for p in cited_papers(piece)}
                    ids = {**{p.paper_id: LIT for p in piece.papers if p.score >= floor}, **cited}
                    yield (history, render.sources_html(piece, floor=floor), list(turns) + [(question, piece.text)],
                           ids, "")
                    return
                text += piece
                history[-1]["content"] = render.partial_markdown(text)
                yield history, gr.skip(), gr.skip(), gr.skip(), ""
        except Exception as exc:
            history[-1]["content"] = "⚠️ " + render.escape_markdown(user_message(exc))
            yield history, render.EMPTY_SOURCES, gr.skip(), gr.skip(), ""

    def take_retry(history: list, turns: list):
        """Drop the last exchange and hand its question back to be answered again."""
        if not turns:
            return gr.skip(), gr.skip(), gr.skip()
        question = turns[-1][0]
        history = list(history or [])
        while history and history[-1]["role"] == "assistant":
            history.pop()
        if history:
            history.pop()
        return question, history, turns[:-1]

    def pick_example(evt: gr.SelectData):
        return evt.value.get("text", "") if isinstance(evt.value, dict) else str(evt.value)

    # ---- comparison ----
    @readable_errors
    def compare(selected: list[str], prefs: SessionPrefs):
        labels = picker_labels(chat.papers())
        ids = [labels[s] for s in (selected or []) if s in labels][:3]
        if len(ids) < 2:
            raise shown_error("Pick two or three papers to compare.")
        answer = prefs.chat_for(chat).compare(ids, k=max(prefs.top_k, len(ids)))
        text = render.answer_markdown(answer, prefix="cmp-source")
        table = getattr(answer, "table", None)
        if table and "|" not in answer.text:
            text = render.table_markdown(table) + "\n\n" + text
        return text, render.sources_html(answer, prefix="cmp-source", floor=floor)

    # ---- paper browser ----
    def search_papers(query: str):
        return papers_frame(chat.papers(), query or "")

    def select_paper(query: str, evt: gr.SelectData):
        """The paper of the row clicked, found by its place among the papers the table lists for ``query``."""
        listed = shown_papers(chat.papers(), query or "")
        index = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        paper = listed[index] if isinstance(index, int) and 0 <= index < len(listed) else None
        return render.paper_detail_html(paper), (paper.name if paper else ""), gr.Button(interactive=paper is not None)

    def ask_about(name: str):
        if not name:
            return gr.skip(), gr.skip()
        return gr.Tabs(selected="chat"), f"What does {name} propose, and how is it evaluated?"

    # ---- corpus and settings ----
    @readable_errors
    def ingest_upload(files: list[str] | None, lit: dict, progress=gr.Progress()):
        files = [files] if isinstance(files, str) else list(files or [])
        if not files:
            return (gr.skip(),) * 8
        staged, notes = [], []
        for path in files:
            try:
                staged.append(stage_upload(path, uploads_dir, max_mb))
            except UploadRejected as exc:
                notes.append(str(exc))
        if staged:
            progress(0.0, desc="Reading files")

            def on_progress(done: int, total: int, message: str) -> None:
                progress((done, total) if total else 1.0, desc=message)

            report = chat.ingest(staged, progress=on_progress)
            summary, rejected = report.summary(), report.rejected
        else:
            summary, rejected = "Nothing was added.", []
        return (render.ingest_report_html(summary, rejected, notes), *corpus_updates("", lit))

    def set_prefs(backend, model, base_url, top_k, year_min, year_max, venues):
        prefs, problems = validate_prefs(backend, model, base_url, top_k, year_min, year_max, venues)
        status = "✓ Saved for this session: " + prefs.describe()
        if problems:
            status = "⚠️ " + " ".join(problems) + "\n\n" + status
        return prefs, status, prefs.describe()

    def backend_fields(backend: str):
        return gr.Textbox(visible=backend != "extractive"), gr.Textbox(visible=backend == "openai-compatible")

    def render_map(lit: dict):
        return paper_map_frame(chat.papers(), lit)

    # ---- plain API endpoints (gradio_client) ----
    def api_ask(question: str, top_k: int = 0) -> dict:
        """Answer a question from the loaded papers; returns text, citations and retrieved papers."""
        question = (question or "").strip()
        if len(question) > max_chars:
            raise shown_error(f"Questions are limited to {max_chars:,} characters.")
        try:
            return chat.ask(question, k=top_k or None).to_dict()
        except Exception as exc:
            raise shown_error(user_message(exc)) from None

    def api_papers() -> list[dict]:
        """Every loaded paper: id, name, title, year, venue and source (file#ordinal)."""
        return [{"paper_id": p.paper_id, "name": p.name, "title": p.title, "year": p.year, "venue": p.venue,
                 "source": p.key} for p in chat.papers()]

    # ---- layout ----
    papers = chat.papers()
    defaults = SessionPrefs.from_settings(chat.settings)
    with gr.Blocks(title="PaperChat", fill_width=True) as app:
        prefs = gr.State(defaults)
        turns = gr.State([])
        pending = gr.State("")
        lit_ids = gr.State({})
        picked = gr.State("")
        header = gr.HTML(render.header_html(len(papers), papers), elem_id="pc-header")
        with gr.Tabs(elem_id="pc-tabs") as tabs:
            with gr.Tab("Chat", id="chat", elem_id="tab-chat"):
                with gr.Row(equal_height=False):
                    with gr.Column(scale=3, min_width=420):
                        chatbot = gr.Chatbot(
                            elem_id="pc-chatbot", show_label=False, height=600, buttons=["copy", "copy_all"],
                            placeholder=CHAT_PLACEHOLDER, feedback_options=None, layout="bubble",
                            examples=[{"text": q} for q in example_questions(chat)], latex_delimiters=[],
                        )
                        with gr.Row(equal_height=True):
                            box = gr.Textbox(placeholder=f"Ask about the loaded papers (up to {max_chars:,} "
                                                         "characters)…", show_label=False,
                                             scale=8, lines=1, max_lines=6, elem_id="pc-question")
                            send = gr.Button("Ask", variant="primary", scale=1, min_width=80, elem_id="pc-send")
                        chat_status = gr.Markdown(defaults.describe(), elem_id="pc-chat-status")
                    with gr.Column(scale=2, min_width=320):
                        sources = gr.HTML(render.EMPTY_SOURCES, elem_id="pc-sources", max_height=690,
                                          padding=False, js_on_load=None)
            with gr.Tab("Compare", id="compare", elem_id="tab-compare"):
                with gr.Row(equal_height=True):
                    picker = gr.Dropdown(picker_choices(papers), multiselect=True, max_choices=3, scale=5,
                                         label="Papers to compare (two or three; type to search)",
                                         elem_id="pc-picker")
                    compare_btn = gr.Button("Compare", variant="primary", scale=1, elem_id="pc-compare")
                with gr.Row(equal_height=False):
                    with gr.Column(scale=2):
                        compare_out = gr.Markdown("Pick papers above, then press **Compare**.", label="comparison",
                                                  elem_id="pc-comparison", container=True, padding=True)
                    with gr.Column(scale=1, min_width=320):
                        compare_sources = gr.HTML("", elem_id="pc-compare-sources", max_height=640,
                                                  js_on_load=None, label="sources")
            with gr.Tab("Papers", id="papers", elem_id="tab-papers"):
                with gr.Row(equal_height=False):
                    with gr.Column(scale=3):
                        search = gr.Textbox(placeholder="Filter by name, title, venue, year or words in the "
                                                        "abstract…", show_label=False, elem_id="pc-search")
                        table = gr.Dataframe(papers_frame(papers), interactive=False, wrap=True, max_height=620,
                                             column_widths=["22%", "46%", "8%", "10%", "14%"],
                                             elem_id="pc-table", show_label=False)
                    with gr.Column(scale=2):
                        detail = gr.HTML(render.paper_detail_html(None), elem_id="pc-detail", js_on_load=None)
                        ask_btn = gr.Button("Ask about this paper", interactive=False, elem_id="pc-ask-about")
            with gr.Tab("Map", id="map", elem_id="tab-map") as map_tab:
                gr.Markdown("Each dot is a paper, placed by a 2-D projection (PCA) of its embedding: nearby "
                            "papers are about similar things. Colours are the themes (the Themes tab lists them); the "
                            "papers cited in your last answer are red, the others retrieved for it orange; hover a dot "
                            "for its name.")
                paper_map = gr.ScatterPlot(
                    paper_map_frame(papers, {}), x="x", y="y", color="status", show_label=False,
                    color_map=map_colours([t.label for t in chat.themes.themes]), tooltip=["name", "title"],
                    height=560, x_title="first principal component", y_title="second principal component",
                    color_title="theme", elem_id="pc-map",
                )
            themes_tab, theme_views, refresh_themes = build_themes_tab(chat)
            with gr.Tab("Corpus & settings", id="settings", elem_id="tab-settings"):
                with gr.Row(equal_height=False):
                    with gr.Column():
                        gr.Markdown(f"### Add papers\nUpload {', '.join(ALLOWED_SUFFIXES)} files "
                                    f"(up to {max_mb} MB each). Papers already loaded are skipped.")
                        upload = gr.File(file_count="multiple", file_types=list(ALLOWED_SUFFIXES),
                                         label="Abstract files", elem_id="pc-upload")
                        report = gr.HTML("", elem_id="pc-ingest-report", js_on_load=None)
                    with gr.Column():
                        gr.Markdown("### Answers")
                        backend = gr.Radio([(label, key) for key, label in BACKEND_LABELS.items()],
                                           value=defaults.backend, label="Answer backend", elem_id="pc-backend")
                        model = gr.Textbox(defaults.model, label="Model", visible=defaults.backend != "extractive")
                        base_url = gr.Textbox(defaults.base_url, label="Base URL",
                                              placeholder="http://127.0.0.1:8080/v1",
                                              visible=defaults.backend == "openai-compatible")
                        gr.Markdown("### Retrieval")
                        top_k = gr.Slider(*TOP_K_RANGE, value=defaults.top_k, step=1, label="Papers per question")
                        with gr.Row():
                            year_min = gr.Dropdown(year_choices(papers), value=ANY_YEAR, label="From year")
                            year_max = gr.Dropdown(year_choices(papers), value=ANY_YEAR, label="To year")
                        venues = gr.Dropdown(sorted({p.venue for p in papers if p.venue}), multiselect=True,
                                             label="Venues (none = all)")
                        settings_status = gr.Markdown("", elem_id="pc-settings-status")

        # ---- events ----
        chat_outputs = [chatbot, sources, turns, lit_ids, box]
        gr.on([box.submit, send.click], answer_turn, [box, chatbot, turns, prefs], chat_outputs,
              api_name="chat", concurrency_id="answer")
        chatbot.example_select(pick_example, None, pending, api_visibility="private", queue=False).then(
            answer_turn, [pending, chatbot, turns, prefs], chat_outputs, api_visibility="private",
            concurrency_id="answer")
        chatbot.retry(take_retry, [chatbot, turns], [pending, chatbot, turns], api_visibility="private",
                      queue=False).then(
            answer_turn, [pending, chatbot, turns, prefs], chat_outputs, api_visibility="private",
            concurrency_id="answer")
        chatbot.clear(lambda: ([], render.EMPTY_SOURCES, {}), None, [turns, sources, lit_ids],
                      api_visibility="private", queue=False)

        compare_btn.click(compare, [picker, prefs], [compare_out, compare_sources], api_name="compare",
                          concurrency_id="answer")
        search.change(search_papers, search, table, api_name="search_papers", trigger_mode="always_last",
                      queue=False)
        table.select(select_paper, search, [detail, picked, ask_btn], api_visibility="private", queue=False)
        ask_btn.click(ask_about, picked, [tabs, box], api_visibility="private", queue=False)
        map_tab.select(render_map, lit_ids, paper_map, api_visibility="private")
        themes_tab.select(refresh_themes, None, list(theme_views), api_visibility="private")
        upload.upload(ingest_upload, [upload, lit_ids], [report, header, table, picker, venues, year_min, year_max,
                                                   paper_map],
                      api_name="ingest", concurrency_limit=1, concurrency_id="ingest", show_progress_on=report)
        backend.change(backend_fields, backend, [model, base_url], api_visibility="private", queue=False)
        gr.on([backend.change, model.change, base_url.change, top_k.change, year_min.change, year_max.change,
               venues.change], set_prefs, [backend, model, base_url, top_k, year_min, year_max, venues],
              [prefs, settings_status, chat_status], api_visibility="private", queue=False,
              trigger_mode="always_last")
        app.load(lambda: corpus_updates(), None, [header, table, picker, venues, year_min, year_max, paper_map],
                 api_visibility="private", show_progress="hidden")
        gr.api(api_papers, api_name="papers")
        gr.api(api_ask, api_name="ask")
    return app



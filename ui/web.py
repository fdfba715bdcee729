"""The Gradio chat: streamed answers with the cited sources beside them. No retrieval logic here."""

from __future__ import annotations

import html
from typing import Any

from store.settings import disable_telemetry

EXAMPLES = [
    "What does PipeFSDP improve over TorchTitan?",
    "How do PhysVista and PhyProbe differ in what they evaluate?",
    "Which papers propose benchmarks for physical reasoning in VLMs?",
]


def render_sources(answer: Any) -> str:
    """HTML list of the cited papers with their supporting sentence highlighted (all text escaped)."""
    if answer is None:
        return ""
    parts = []
    for c in answer.citations:
        paper = c.paper
        abstract = html.escape(paper.text)
        if c.quote:
            quote = html.escape(c.quote)
            abstract = abstract.replace(quote, f"<mark>{quote}</mark>", 1)
        where = html.escape(", ".join(str(x) for x in (paper.venue, paper.year) if x))
        parts.append(
            f"<div class='source'><b>[{c.n}] {html.escape(paper.name)}</b> "
            f"<span class='meta'>{where} · score {paper.score:.2f}</span>"
            f"<div class='title'>{html.escape(paper.title)}</div><p>{abstract}</p></div>"
        )
    return "\n".join(parts) or "<p>No sources cited.</p>"


def build_app(chat: Any):
    """The Blocks app for a PaperChat instance."""
    disable_telemetry()
    import gradio as gr

    from rag.types import Answer

    max_chars = chat.settings.ui.max_question_chars

    def respond(message: str, history: list[dict]):
        message = (message or "").strip()
        if not message:
            yield history, gr.skip()
            return
        if len(message) > max_chars:
            history = history + [{"role": "user", "content": message[:200] + "…"},
                                 {"role": "assistant", "content": f"Questions are limited to {max_chars} characters."}]
            yield history, gr.skip()
            return
        turns = [(q["content"], a["content"]) for q, a in zip(history[::2], history[1::2])]
        history = history + [{"role": "user", "content": message}, {"role": "assistant", "content": ""}]
        text = ""
        try:
            for piece in chat.stream(message, history=turns):
                if isinstance(piece, Answer):
                    text = piece.text + (f"\n\n*{piece.notice}*" if piece.notice else "")
                    history[-1]["content"] = text
                    yield history, render_sources(piece)
                else:
                    text += piece
                    history[-1]["content"] = text
                    yield history, gr.skip()
        except Exception as exc:  # never a traceback in the page
            history[-1]["content"] = f"Sorry, something went wrong: {exc}"
            yield history, ""

    with gr.Blocks(title="PaperChat") as app:
        gr.Markdown(f"## PaperChat\n{len(chat.catalog)} papers loaded. Every answer cites the abstracts it rests on.")
        with gr.Row():
            with gr.Column(scale=3):
                chatbot = gr.Chatbot(label="Chat", height=520)
                box = gr.Textbox(placeholder="Ask about the loaded papers…", show_label=False)
                gr.Examples(EXAMPLES, inputs=box)
            with gr.Column(scale=2):
                gr.Markdown("### Sources")
                sources = gr.HTML()
        box.submit(respond, [box, chatbot], [chatbot, sources]).then(lambda: "", None, box)
    return app


def launch(chat: Any, host: str | None = None, port: int | None = None, share: bool = False,
           auth: str | None = None) -> None:
    """Serve the app; binding beyond loopback or sharing requires ``user:password`` auth."""
    host = host or chat.settings.ui.host
    auth = auth or chat.settings.ui.auth
    if (share or host not in ("127.0.0.1", "localhost", "::1")) and not auth:
        raise ValueError("Refusing to listen beyond loopback without --auth user:password (or PAPERCHAT_UI__AUTH).")
    credentials = tuple(auth.split(":", 1)) if auth else None
    app = build_app(chat)
    app.queue(default_concurrency_limit=4).launch(
        server_name=host, server_port=port or chat.settings.ui.port, share=share, auth=credentials,
    )

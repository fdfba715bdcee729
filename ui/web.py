"""Serve the PaperChat web app: theme, assets, auth and queue limits around ``ui.app.build_app``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from store.settings import disable_telemetry

ASSETS = Path(__file__).resolve().parent / "assets"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
# Answers are CPU-bound on small machines: a few at once, the rest wait in the queue.
CONCURRENCY = 2
QUEUE_SIZE = 64


def build_app(chat: Any):
    """The Blocks app for a PaperChat instance (importing gradio only now, after telemetry is off)."""
    disable_telemetry()
    from ui.app import build_app as build

    return build(chat)


def theme():
    """A soft theme with system fonts (no web-font downloads)."""
    import gradio as gr

    fonts = ("ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "sans-serif")
    return gr.themes.Soft(primary_hue="indigo", secondary_hue="sky", neutral_hue="slate", radius_size="md",
                          font=fonts, font_mono=("ui-monospace", "SFMono-Regular", "Menlo", "monospace"))


def launch_options(chat: Any, host: str | None = None, port: int | None = None, share: bool = False,
                   auth: str | None = None) -> dict[str, Any]:
    """Keyword arguments for ``Blocks.launch``; binding beyond loopback or sharing requires auth.

    Raises:
        ValueError: a non-loopback host or ``share`` without ``user:password`` auth.
    """
    disable_telemetry()
    host = host or chat.settings.ui.host
    auth = auth or chat.settings.ui.auth
    if (share or host not in LOOPBACK) and not auth:
        raise ValueError("Refusing to listen beyond loopback without --auth user:password (or PAPERCHAT_UI__AUTH).")
    if auth and ":" not in auth:
        raise ValueError("--auth must be user:password.")
    return dict(
        server_name=host, server_port=port or chat.settings.ui.port, share=share,
        auth=tuple(auth.split(":", 1)) if auth else None,
        theme=theme(), css=(ASSETS / "style.css").read_text(encoding="utf-8"),
        head=f"<script>{(ASSETS / 'app.js').read_text(encoding='utf-8')}</script>",
        max_file_size=f"{chat.settings.ui.max_upload_mb}mb", footer_links=["api"],
        allowed_paths=[], show_error=False,
    )


def launch(chat: Any, host: str | None = None, port: int | None = None, share: bool = False,
           auth: str | None = None, on_ready: Callable[[str], None] | None = None, **extra: Any):
    """Serve the app and return its Blocks (this blocks until shutdown unless ``prevent_thread_lock=True``).
    ``on_ready(url)`` is called once it listens (the CLI prints the address; Gradio's own lines, with their
    ``share=True`` hint, are silenced)."""
    options = launch_options(chat, host, port, share, auth)
    app = build_app(chat)
    app.queue(default_concurrency_limit=CONCURRENCY, max_size=QUEUE_SIZE)
    if on_ready is None:
        app.launch(**options, **extra)
        return app
    app.launch(**options, **{**extra, "quiet": True, "prevent_thread_lock": True})
    on_ready(app.share_url or app.local_url)
    if not extra.get("prevent_thread_lock"):
        app.block_thread()
    return app

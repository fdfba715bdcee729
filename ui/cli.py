"""The `paperchat` command: ingest, ask, papers, ui (and the rest as they come)."""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path

import click

from store.settings import disable_telemetry


def _chat(ctx: click.Context):
    from rag import PaperChat

    return PaperChat(**ctx.obj)


# PaperChat's own packages: only their warnings reach the terminal; other libraries' lines ("DEBUG bm25s: Building
# index from IDs objects", HTTP requests) mean nothing to a CLI user and are shown with --verbose only.
OWN_PACKAGES = ("rag", "store", "ui", "prompts")


class _OwnWarningsOnly(logging.Filter):
    """Passes PaperChat's warnings and anyone's errors. A handler filter, since libraries may set their loggers'
    levels themselves on import (bm25s does)."""

    def filter(self, record: logging.LogRecord) -> bool:
        own = record.name.split(".", 1)[0] in OWN_PACKAGES
        return record.levelno >= (logging.WARNING if own else logging.ERROR)


def quiet_logs(verbose: bool) -> None:
    """Only PaperChat's own warnings reach the terminal, unless ``--verbose`` asks for every log line."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s" if verbose else "%(message)s")
    if not verbose:
        for handler in logging.getLogger().handlers:
            handler.addFilter(_OwnWarningsOnly())


def _fail(exc: Exception) -> click.ClickException:
    return click.ClickException(str(exc))


class _Group(click.Group):
    """Every PaperChatError (e.g. EmbedderMismatch) ends as one line and exit code 1, not a traceback."""

    def invoke(self, ctx: click.Context):
        from store.errors import PaperChatError

        try:
            return super().invoke(ctx)
        except PaperChatError as exc:
            raise _fail(exc) from None


@click.group(cls=_Group)
@click.option("--store-dir", type=click.Path(path_type=Path), envvar="PAPERCHAT_STORE__DIR",
              help="Store directory (default: ~/.local/share/paperchat).")
@click.option("--chroma-host", envvar="PAPERCHAT_STORE__CHROMA_HOST", help="Use a `chroma run` server.")
@click.option("--chroma-port", type=int, envvar="PAPERCHAT_STORE__CHROMA_PORT")
@click.option("--llm", "llm_backend", type=click.Choice(["extractive", "openai", "openai-compatible"]),
              help="Answer backend (default: extractive, offline).")
@click.option("--model", "llm_model", help="LLM model name.")
@click.option("--base-url", "llm_base_url", help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1.")
@click.option("-v", "--verbose", is_flag=True, help="Show the log lines of PaperChat and of the libraries it uses.")
@click.pass_context
def main(ctx: click.Context, verbose: bool, **options):
    """PaperChat: ask questions of a collection of paper abstracts, with citations."""
    disable_telemetry()
    quiet_logs(verbose)
    overrides = {k: v for k, v in options.items() if v is not None}
    if "store_dir" in overrides:
        overrides["store_dir"] = overrides["store_dir"].expanduser()
    ctx.obj = overrides


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def ingest(ctx: click.Context, paths: tuple[Path, ...], as_json: bool):
    """Add papers from txt / jsonl / json / csv files (idempotent)."""
    from store.errors import PaperChatError
    from store.ingest import console_progress

    try:
        report = _chat(ctx).ingest(list(paths), progress=None if as_json else console_progress())
    except PaperChatError as exc:
        raise _fail(exc) from None
    nothing_loaded = bool(report.rejected) and not (report.added or report.updated or report.unchanged)
    if as_json:
        click.echo(json.dumps({
            "added": report.added, "updated": report.updated, "unchanged": report.unchanged,
            "rejected": [{"path": e.path, "line": e.line, "reason": e.reason} for e in report.rejected],
        }, indent=2))
        ctx.exit(1 if nothing_loaded else 0)
    for err in report.rejected:
        click.echo(f"rejected {err}", err=True)
    click.echo(report.summary())
    if nothing_loaded:
        raise click.ClickException("nothing was loaded: every input was rejected (see the lines above)")


@main.command()
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("-k", "--top-k", type=int, help="Papers to retrieve.")
@click.pass_context
def ask(ctx: click.Context, question: str, as_json: bool, top_k: int | None):
    """Answer a question from the loaded papers, with [n] citations."""
    from rag.types import Answer
    from store.errors import PaperChatError

    try:
        answer = None
        for piece in _chat(ctx).stream(question, k=top_k):
            if isinstance(piece, Answer):
                answer = piece
    except PaperChatError as exc:
        raise _fail(exc) from None
    assert answer is not None
    if as_json:
        click.echo(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
        return
    if not question.strip():
        click.echo('Usage: paperchat ask "your question about the loaded papers"', err=True)
    if answer.notice:
        click.echo(f"Note: {answer.notice}", err=True)
    click.echo(answer.text)
    if answer.citations:
        click.echo("\nSources:")
        for c in answer.citations:
            where = ", ".join(str(x) for x in (c.paper.venue, c.paper.year) if x)
            click.echo(f"  [{c.n}] {c.paper.name} — {c.paper.title} ({where}; {c.paper.source}#{c.paper.ordinal})")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the papers as JSON.")
@click.pass_context
def papers(ctx: click.Context, as_json: bool):
    """List the loaded papers."""
    loaded = _chat(ctx).papers()
    if as_json:
        click.echo(json.dumps([
            {"paper_id": p.paper_id, "name": p.name, "title": p.title, "year": p.year, "venue": p.venue,
             "source": p.source, "ordinal": p.ordinal} for p in loaded], indent=2, ensure_ascii=False))
        return
    for p in loaded:
        click.echo(f"{p.source}#{p.ordinal}\t{p.year or ''}\t{p.venue or ''}\t{p.name}")
    sources = Counter(p.source for p in loaded)
    click.echo(f"{len(loaded)} papers from {len(sources)} source(s): "
               + ", ".join(f"{source} ({count})" for source, count in sorted(sources.items())), err=True)


@main.command()
@click.argument("selectors", nargs=-1, required=True)
@click.pass_context
def remove(ctx: click.Context, selectors: tuple[str, ...]):
    """Remove papers: by source file name (as `paperchat papers` shows it), paper id, or SOURCE#ORDINAL."""
    gone = _chat(ctx).remove(list(selectors))
    if not gone:
        raise click.ClickException(f"no loaded paper matches {', '.join(selectors)} (see `paperchat papers`)")
    for p in gone:
        click.echo(f"removed {p.key}\t{p.name}")
    click.echo(f"{len(gone)} paper(s) removed", err=True)


@main.command()
@click.option("--host", default=None, help="Interface to bind (default 127.0.0.1).")
@click.option("--port", type=int, default=None)
@click.option("--share", is_flag=True, help="Create a public Gradio link (requires --auth).")
@click.option("--auth", envvar="PAPERCHAT_UI__AUTH", help="user:password, required beyond loopback.")
@click.pass_context
def ui(ctx: click.Context, host: str | None, port: int | None, share: bool, auth: str | None):
    """Open the chat in your browser."""
    from ui.web import launch

    chat = _chat(ctx)
    port = port or chat.settings.ui.port
    try:
        launch(chat, host=host, port=port, share=share, auth=auth,
               on_ready=lambda url: click.echo(f"PaperChat is running on {url} (Ctrl+C stops it)"))
    except ValueError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        if "port" not in str(exc).lower():
            raise
        raise click.ClickException(f"port {port} is in use: start with --port N (another free port)") from None


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool):
    """Check the store: chunks per paper, orphans, BM25 vs Chroma, embedder. Exit 1 on problems."""
    from store.doctor import check_store

    chat = _chat(ctx)
    report = check_store(chat.settings.store, chat.embedder)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(f"{report.store_dir}: {report.papers} papers, {report.chunks} chunks")
        for f in report.findings:
            click.echo(f"{'PROBLEM' if f.problem else 'ok'} [{f.check}] {f.message}" + (f"\n  fix: {f.fix}" if f.fix else ""))
    ctx.exit(0 if report.ok else 1)


@main.command()
@click.pass_context
def reindex(ctx: click.Context):
    """Rebuild the store with the configured embedder from the abstracts it holds (resumable)."""
    from store.doctor import reindex_store

    chat = _chat(ctx)
    report = reindex_store(chat.settings.store, chat.embedder,
                           progress=lambda done, total, message: click.echo(message, err=True))
    click.echo(f"reindexed: {report.summary()}")


@main.command("llm-serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8080, show_default=True)
@click.option("--n-ctx", type=int, default=2048, show_default=True, help="Context window in tokens.")
def llm_serve(host: str, port: int, n_ctx: int):
    """Serve the bundled SmolLM2-135M on an OpenAI-compatible API (needs paperchat[local]).

    A tiny model for trying the generative path offline, not for good answers. Point PaperChat at it
    with: paperchat --llm openai-compatible --base-url http://127.0.0.1:8080/v1 ask "..."
    """
    from rag.local_model import serve_local_model

    try:
        serve_local_model(host=host, port=port, n_ctx=n_ctx)
    except (ImportError, FileNotFoundError, RuntimeError) as exc:
        raise _fail(exc) from None


@main.command("eval")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--corpus", "corpora", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="Extra papers to ingest first (repeatable; idempotent).")
@click.option("--baseline", is_flag=True, help="Also score stock LlamaIndex (vector top-10) on the same store.")
@click.option("--failures", is_flag=True, help="List the questions that missed a gold paper or refused wrongly.")
@click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON.")
@click.pass_context
def eval_(ctx: click.Context, questions: Path, corpora: tuple[Path, ...], baseline: bool, failures: bool, as_json: bool):
    """Score answers on a question file: recall@1/5/10, all-gold@5, citation precision, refusals."""
    from rag.evaluate import evaluate, evaluate_baseline, load_questions

    chat = _chat(ctx)
    qs = load_questions(questions)
    if corpora:
        click.echo(chat.ingest(list(corpora)).summary(), err=True)
    tick = (lambda i, n, q: None) if as_json else (lambda i, n, q: click.echo(f"[{i + 1}/{n}] {q.id}", err=True))
    reports = {"paperchat": evaluate(chat, qs, progress=tick)}
    if baseline:
        reports["baseline"] = evaluate_baseline(chat, qs, progress=tick)
    if as_json:
        click.echo(json.dumps({name: r.to_dict() for name, r in reports.items()}, indent=2))
        return
    click.echo(f"{len(qs)} questions, {len(chat.catalog)} papers loaded")
    for name, report in reports.items():
        title = "PaperChat" if name == "paperchat" else "Baseline (LlamaIndex VectorStoreIndex, top-10 sentences)"
        click.echo("\n" + report.format(title))
        if failures:
            for r in report.failures():
                click.echo(f"  ! {r.question.id} {r.question.kind}: gold={list(r.question.gold)} top5={r.ranking[:5]} "
                           f"cited={r.cited} refused={r.refused}")


if __name__ == "__main__":
    main()

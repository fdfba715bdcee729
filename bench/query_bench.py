"""Retrieval and offline-answer latency over 200 title questions vs a stock `VectorStoreIndex.as_retriever()`.

    python bench/query_bench.py --limit 1000     # builds /tmp/paperchat-bench/store-1000 first if needed
    python bench/query_bench.py                  # all 8,434 papers (the first build takes about an hour)
    python bench/query_bench.py --profile        # also print where retrieval time goes

The store is built once by `PaperChat.ingest` and reused (a rerun resumes an interrupted build).
The stock retriever reads the very same Chroma chunk collection, with its own embedder instance.
Query-embedding caches are cleared before every timed call: each question is timed as a new one.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from harness import (
    WORK_DIR, machine, mean, peak_rss_mb, percentile, print_table, quiet_libraries, read_records,
    startup_seconds, summary_ms, timed, title_questions, write_subset,
)


def open_chat(store_dir: Path, corpus: Path, host: str | None = None, port: int | None = None):
    """A PaperChat on ``store_dir`` holding ``corpus`` (ingested now if missing), and the build report."""
    from rag import PaperChat

    overrides = {"store_dir": store_dir, "store_bundled_corpus": False}
    if host:
        overrides.update(store_chroma_host=host, store_chroma_port=port)
    chat = PaperChat(**overrides)
    start = time.perf_counter()
    report = chat.ingest([corpus], progress=_progress)
    took = time.perf_counter() - start
    print(f"store {store_dir}: {report.summary()} in {took:.1f} s", flush=True)
    return chat, report, took


def _progress(done: int, total: int, message: str) -> None:
    print(f"  {message} ({machine()})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="Papers in the store (evenly spaced sample); default all.")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--store-dir", type=Path, help="Default: /tmp/paperchat-bench/store-LIMIT.")
    parser.add_argument("--profile", action="store_true", help="cProfile the retrieval pass.")
    args = parser.parse_args()
    quiet_libraries()

    corpus = write_subset(args.limit)
    store_dir = args.store_dir or WORK_DIR / f"store-{args.limit or 'all'}"
    chat, _, _ = open_chat(store_dir, corpus)
    records = read_records(corpus)
    questions = title_questions(records, args.questions, seed=0)
    warmup = title_questions(records, 5, seed=1)

    # ---- what a new process pays before its first answer ----
    catalog_s, retriever_s = startup_seconds(chat)

    from llama_index.core import VectorStoreIndex
    from llama_index.vector_stores.chroma import ChromaVectorStore

    from store.embed import build_embedder

    stock_embedder = build_embedder(chat.settings.embedding)
    stock = VectorStoreIndex.from_vector_store(
        ChromaVectorStore(chroma_collection=chat.store.chunks), embed_model=stock_embedder
    ).as_retriever(similarity_top_k=chat.settings.retrieval.top_k)

    def paperchat_retrieve(q: str) -> set[str]:
        return {h.paper.paper_id for h in chat.retrieve_hits(q)}

    def paperchat_ask(q: str) -> set[str]:
        return {c.paper.paper_id for c in chat.ask(q).citations}

    def stock_retrieve(q: str) -> set[str]:
        return {n.node.metadata.get("paper_id") for n in stock.retrieve(q)}

    def reset() -> None:
        for embedder in (chat.embedder, stock_embedder):
            getattr(embedder, "_query_cache", {}).clear()

    for fn in (paperchat_retrieve, paperchat_ask, stock_retrieve):
        timed(fn, warmup, reset)

    print(f"{len(questions)} questions over {chat.store.paper_count()} papers / {chat.store.chunk_count()} chunks;"
          f" {machine()}", flush=True)
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    results = {"paperchat retrieve (hybrid, paper level)": timed(paperchat_retrieve, questions, reset)}
    if profiler:
        profiler.disable()
    results["paperchat ask (offline extractive answer)"] = timed(paperchat_ask, questions, reset)
    results["stock VectorStoreIndex.as_retriever()"] = timed(stock_retrieve, questions, reset)

    rows = []
    for label, (durations, found) in results.items():
        hit = "gold cited" if "ask" in label else f"gold in top {chat.settings.retrieval.top_k}"
        rows.append([label, summary_ms(durations), f"{mean(durations) * 1000:.1f}",
                     f"{percentile([d * 1000 for d in durations], 99):.1f}", f"{found / len(questions):.0%} {hit}"])
    print_table(f"Query latency ({len(questions)} questions, {chat.store.paper_count()} papers)",
                ["path", "p50 / p95 ms", "mean ms", "p99 ms", "found"], rows)
    print(f"start-up in this process: catalog {catalog_s * 1000:.0f} ms, retriever incl. BM25 load "
          f"{retriever_s * 1000:.0f} ms; peak RSS {peak_rss_mb():.0f} MB")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()

"""Scale: ingest a prefix of the 100k corpus into a `chroma run` server in resumable batches, then query it.

    python bench/make_100k.py                       # once: /tmp/paperchat-bench/neurips-100k.jsonl
    python bench/scale_bench.py --limit 10000       # ingest the first 10k (resumes), then measure
    python bench/scale_bench.py --limit 20000       # later: adds papers 10,001-20,000 and measures again
    python bench/scale_bench.py --host H --port P   # use a server you started (`chroma run --path D --port P`)

Without --host a server is started on --server-path and stopped at the end; the data stays there, so a
rerun (same --limit or larger) skips every stored paper. Each batch is its own JSONL file, so a rerun
parses only the batches still to do. Figures of every batch are appended to scale-progress.csv.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from harness import (
    WORK_DIR, dir_size_mb, machine, peak_rss_mb, print_table, process_rss_mb, quiet_libraries, startup_seconds,
    summary_ms, timed, title_questions,
)

DEFAULT_CORPUS = WORK_DIR / "neurips-100k.jsonl"
CHROMA = Path(sys.executable).parent / "chroma"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(path: Path, log: Path) -> tuple[subprocess.Popen, int]:
    """`chroma run` on a free loopback port, returned once it answers its heartbeat."""
    port = _free_port()
    proc = subprocess.Popen([str(CHROMA), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=log.open("ab"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1):
                return proc, port
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"chroma run did not start; see {log}")
            time.sleep(0.3)


def batch_files(corpus: Path, limit: int, batch: int, out_dir: Path) -> list[Path]:
    """The first ``limit`` records of ``corpus`` as JSONL files of ``batch`` records (written once)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = [out_dir / f"{corpus.stem}-{start:07d}-{batch}.jsonl" for start in range(0, limit, batch)]
    if all(f.exists() for f in files):
        return files
    with corpus.open(encoding="utf-8") as src:
        for path in files:
            lines = list(itertools.islice(src, batch))
            if not path.exists() and lines:
                tmp = path.with_suffix(".tmp")
                tmp.write_text("".join(lines), encoding="utf-8")
                tmp.rename(path)
    return [f for f in files if f.exists()]


def read_prefix(corpus: Path, limit: int) -> list[dict]:
    import json

    with corpus.open(encoding="utf-8") as f:
        return [json.loads(line) for line in itertools.islice(f, limit)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=10_000, help="Papers (a prefix of the corpus) to hold.")
    parser.add_argument("--batch", type=int, default=1000, help="Papers per ingest call (the resume unit).")
    parser.add_argument("--host", help="A running Chroma server; default: start one on --server-path.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--server-path", type=Path, default=WORK_DIR / "scale-chroma")
    parser.add_argument("--store-dir", type=Path, default=WORK_DIR / "scale-store",
                        help="PaperChat's local dir (BM25, embedding cache).")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--threads", type=int, default=0, help="onnxruntime intra-op threads (0: auto).")
    parser.add_argument("--measure-only", action="store_true", help="Skip ingest; measure what is stored.")
    args = parser.parse_args()
    quiet_libraries()
    if not args.corpus.exists():
        raise SystemExit(f"{args.corpus} is missing: run `python bench/make_100k.py` first")

    server = None
    host, port = args.host, args.port
    if not host:
        args.server_path.mkdir(parents=True, exist_ok=True)
        server, port = start_server(args.server_path, WORK_DIR / "scale-chroma.log")
        host = "127.0.0.1"
    try:
        run(args, host, port, server)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()


def run(args: argparse.Namespace, host: str, port: int, server: subprocess.Popen | None) -> None:
    from rag import PaperChat

    chat = PaperChat(store_dir=args.store_dir, store_chroma_host=host, store_chroma_port=port,
                     store_bundled_corpus=False, embedding_threads=args.threads)
    print(f"server {host}:{port}; {chat.store.paper_count()} papers stored; {machine()}", flush=True)
    progress_csv = WORK_DIR / "scale-progress.csv"
    new_csv = not progress_csv.exists()
    ingest_s, ingested = 0.0, 0
    if not args.measure_only:
        files = batch_files(args.corpus, args.limit, args.batch, WORK_DIR / "scale-batches")
        with progress_csv.open("a", newline="") as f:
            log = csv.writer(f)
            if new_csv:
                log.writerow(["time", "file", "added", "unchanged", "seconds", "papers_per_s", "stored", "load1"])
            for path in files:
                start = time.perf_counter()
                report = chat.ingest([path])
                took = time.perf_counter() - start
                stored = chat.store.paper_count()
                if report.added or report.updated:
                    ingest_s += took
                    ingested += report.added + report.updated
                    rate = (report.added + report.updated) / took
                    log.writerow([time.strftime("%H:%M:%S"), path.name, report.added, report.unchanged,
                                  f"{took:.1f}", f"{rate:.2f}", stored, machine().split("load ")[1].split()[0]])
                    f.flush()
                    print(f"  {path.name}: {report.summary()} in {took:.0f} s ({rate:.2f} papers/s); "
                          f"{stored} stored ({machine()})", flush=True)

    papers = chat.store.paper_count()
    chunks = chat.store.chunk_count()
    catalog_s, retriever_s = startup_seconds(chat)

    questions = title_questions(read_prefix(args.corpus, min(args.limit, papers)), args.questions, seed=0)
    warm = title_questions(read_prefix(args.corpus, min(args.limit, papers)), 5, seed=1)

    def reset() -> None:
        chat.embedder._query_cache.clear()

    def retrieve(q: str) -> set[str]:
        return {h.paper.paper_id for h in chat.retrieve_hits(q)}

    def ask(q: str) -> set[str]:
        return {c.paper.paper_id for c in chat.ask(q).citations}

    for q, _ in warm:
        retrieve(q), ask(q)
    retrieval, found_r = timed(retrieve, questions, reset)
    answers, found_a = timed(ask, questions, reset)

    server_rss = process_rss_mb(server.pid) if server is not None else (float("nan"), float("nan"))
    server_mb = dir_size_mb(args.server_path) if server is not None else float("nan")
    local_mb = dir_size_mb(args.store_dir)
    rows = [
        ["papers / chunks stored", f"{papers} / {chunks}"],
        ["ingest this run", f"{ingested} papers in {ingest_s:.0f} s"
                            + (f" = {ingested / ingest_s:.2f} papers/s" if ingest_s else "")],
        ["retrieval p50 / p95 ms", summary_ms(retrieval)],
        ["offline answer p50 / p95 ms", summary_ms(answers)],
        [f"gold paper in top {chat.settings.retrieval.top_k} / cited", f"{found_r / len(questions):.0%} / "
                                                                       f"{found_a / len(questions):.0%}"],
        ["catalog load / retriever (BM25) load s", f"{catalog_s:.1f} / {retriever_s:.1f}"],
        ["Chroma server data on disk MB", f"{server_mb:.0f}"],
        ["PaperChat store dir (BM25 + embed cache) MB", f"{local_mb:.0f}"],
        ["client peak RSS MB", f"{peak_rss_mb():.0f}"],
        ["server RSS now / peak MB", f"{server_rss[0]:.0f} / {server_rss[1]:.0f}"],
    ]
    print_table(f"Scale: {papers} papers through `chroma run`", ["measure", "value"], rows)
    print(f"per-batch ingest figures: {progress_csv}")


if __name__ == "__main__":
    main()

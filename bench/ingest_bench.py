"""Ingest throughput: `paperchat ingest` vs the raw ONNX encoder vs a stock LlamaIndex IngestionPipeline.

    python bench/ingest_bench.py --limit 1000          # a 1,000-paper sample of the NeurIPS corpus
    python bench/ingest_bench.py                       # all 8,434 papers (about an hour on 2 cores)
    python bench/ingest_bench.py --only raw,paperchat  # skip the stock pipeline

All three embed with the same MiniLMEmbedding (same threads / batch size); model load is not timed.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from harness import WORK_DIR, machine, peak_rss_mb, print_table, quiet_libraries, read_records, write_subset

RUNS = ("paperchat", "raw", "stock")


def chunk_texts(corpus: Path) -> tuple[int, list[str]]:
    """The papers of a file and the exact texts PaperChat's ingest embeds for them."""
    from llama_index.core.schema import MetadataMode

    from store.chunk import chunk_paper
    from store.ingest import content_hash
    from store.parse import parse_file

    papers = parse_file(corpus).papers
    texts = [n.get_content(MetadataMode.EMBED) for p in papers for n in chunk_paper(p, content_hash(p))]
    return len(papers), texts


def _prefixed(embedding: dict) -> dict:
    return {f"embedding_{k}": v for k, v in embedding.items()}


def bench_paperchat(corpus: Path, workdir: Path, embedding: dict) -> list[list[object]]:
    """Cold ingest, unchanged re-ingest, and a fresh store fed from the warm embedding cache."""
    from rag import PaperChat

    rows = []
    chat = PaperChat(store_dir=workdir / "paperchat", store_bundled_corpus=False, **_prefixed(embedding))
    chat.store  # opens Chroma and loads the model: not timed (the other runs load theirs untimed too)
    start = time.perf_counter()
    report = chat.ingest([corpus])
    cold = time.perf_counter() - start
    rows.append(["paperchat ingest (cold)", report.added, chat.store.chunk_count(), cold, report.added / cold])

    start = time.perf_counter()
    again = chat.ingest([corpus])
    rows.append(["paperchat ingest again (nothing new)", again.unchanged, 0, time.perf_counter() - start, None])

    warm_dir = workdir / "paperchat-warm"
    shutil.copytree(workdir / "paperchat" / "embed-cache", warm_dir / "embed-cache")
    warm = PaperChat(store_dir=warm_dir, store_bundled_corpus=False, **_prefixed(embedding))
    warm.store
    start = time.perf_counter()
    report = warm.ingest([corpus])
    took = time.perf_counter() - start
    rows.append(["paperchat ingest, new store, warm embed cache", report.added, warm.store.chunk_count(), took,
                 report.added / took])
    return rows


def bench_raw(corpus: Path, embedding: dict) -> list[list[object]]:
    """The encoder alone over the same sentence texts: the ceiling for ingest."""
    from store.embed import build_embedder
    from store.settings import EmbeddingSettings

    n_papers, texts = chunk_texts(corpus)
    embedder = build_embedder(EmbeddingSettings(**embedding))
    embedder.encode(texts[:8])  # first run allocates; not timed
    start = time.perf_counter()
    embedder.encode(texts)
    took = time.perf_counter() - start
    return [["raw ONNX encoder (same sentence texts)", n_papers, len(texts), took, n_papers / took]]


def bench_stock(corpus: Path, workdir: Path, embedding: dict) -> list[list[object]]:
    """LlamaIndex's stock path: Documents -> SentenceSplitter -> embedder -> ChromaVectorStore."""
    import chromadb
    from llama_index.core import Document
    from llama_index.core.ingestion import IngestionPipeline
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.vector_stores.chroma import ChromaVectorStore

    from store.embed import build_embedder
    from store.settings import EmbeddingSettings

    records = read_records(corpus)
    docs = [Document(text=r["abstract"], id_=r["id"], metadata={"title": r["title"], "year": r["year"]})
            for r in records]
    client = chromadb.PersistentClient(path=str(workdir / "stock"))
    store = ChromaVectorStore(chroma_collection=client.get_or_create_collection("stock"))
    embedder = build_embedder(EmbeddingSettings(**embedding))
    embedder.encode(["warm up"])
    pipeline = IngestionPipeline(transformations=[SentenceSplitter(), embedder], vector_store=store)
    start = time.perf_counter()
    nodes = pipeline.run(documents=docs)
    took = time.perf_counter() - start
    return [["stock IngestionPipeline (SentenceSplitter, 1024 tok)", len(docs), len(nodes), took, len(docs) / took]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="Papers to ingest (evenly spaced sample); default all.")
    parser.add_argument("--only", default=",".join(RUNS), help=f"Comma-separated subset of {RUNS}.")
    parser.add_argument("--threads", type=int, default=0, help="onnxruntime intra-op threads (0: auto).")
    parser.add_argument("--batch-size", type=int, default=64, help="Texts per ONNX call.")
    parser.add_argument("--spin", action="store_true", help="Let onnxruntime threads busy-wait.")
    args = parser.parse_args()
    quiet_libraries()

    corpus = write_subset(args.limit)
    embedding = {"threads": args.threads, "batch_size": args.batch_size, "allow_spinning": args.spin}
    only = set(args.only.split(","))
    print(f"corpus {corpus} ({len(read_records(corpus))} papers); embedding {embedding}; {machine()}", flush=True)

    workdir = Path(tempfile.mkdtemp(prefix="ingest-", dir=WORK_DIR))
    rows: list[list[object]] = []
    try:
        for name, run in (("raw", lambda: bench_raw(corpus, embedding)),
                          ("paperchat", lambda: bench_paperchat(corpus, workdir, embedding)),
                          ("stock", lambda: bench_stock(corpus, workdir, embedding))):
            if name in only:
                got = run()
                for row in got:
                    print(f"  {row[0]}: {row[3]:.1f} s ({machine()})", flush=True)
                rows += got
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    raw = next((r[4] for r in rows if r[0].startswith("raw")), None)
    table = []
    for label, papers, chunks, took, rate in rows:
        ratio = f"{rate / raw:.2f}x" if raw and rate else ""
        table.append([label, papers, chunks, f"{took:.1f}", f"{rate:.2f}" if rate else "", ratio])
    stock = next((r[4] for r in rows if r[0].startswith("stock")), None)
    cold = next((r[4] for r in rows if r[0] == "paperchat ingest (cold)"), None)
    print_table("Ingest throughput", ["run", "papers", "chunks", "seconds", "papers/s", "vs raw encoder"], table)
    if stock and cold:
        print(f"paperchat ingest vs stock IngestionPipeline: {cold / stock:.2f}x")
    print(f"peak RSS of this process: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()

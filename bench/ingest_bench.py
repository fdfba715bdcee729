"""Ingest throughput: `paperchat ingest` vs the raw ONNX encoder vs a stock LlamaIndex IngestionPipeline.

    python bench/ingest_bench.py --limit 1000          # a 1,000-paper sample of the NeurIPS corpus
    python bench/ingest_bench.py                       # all 8,434 papers (hours on 2 cores: three paths)
    python bench/ingest_bench.py --only raw,paperchat  # skip the stock pipeline
    python bench/ingest_bench.py --limit 400 --threads 1 --only raw  # one setting, encoder only

All three embed with the same MiniLMEmbedding (same threads / batch size); model load is not timed.
They run interleaved: the sample is cut into --rounds parts and each part goes through all three in
turn (who goes first rotates), so load from other processes weighs on all three alike.
tokens/s counts what each path really encodes (after the 256-token cap): PaperChat one vector per
sentence, prefixed with the paper's name; the stock splitter one per abstract, cut at 256 tokens.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from harness import WORK_DIR, machine, peak_rss_mb, print_table, quiet_libraries, read_records, write_subset

def chunk_texts(corpus: Path) -> tuple[int, list[str]]:
    """The papers of a file and the exact texts PaperChat's ingest embeds for them."""
    from store.chunk import chunk_paper, embedding_texts
    from store.ingest import content_hash
    from store.parse import parse_file

    papers = parse_file(corpus).papers
    texts = [t for p in papers for t in embedding_texts(p, chunk_paper(p, content_hash(p)))]
    return len(papers), texts


def count_tokens(texts: list[str]) -> int:
    """Tokens the MiniLM encoder really runs on (after its 256-token truncation)."""
    from tokenizers import Tokenizer

    from store.embed import MAX_TOKENS, TOKENIZER_PATH

    tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.no_padding()
    return sum(len(e.ids) for e in tokenizer.encode_batch(texts))


def _prefixed(embedding: dict) -> dict:
    return {f"embedding_{k}": v for k, v in embedding.items()}


class RawEncoder:
    """The encoder alone over the same sentence texts: the ceiling for ingest."""

    label = "raw ONNX encoder (same sentence texts)"

    def __init__(self, workdir: Path, embedding: dict):
        from store.embed import build_embedder
        from store.settings import EmbeddingSettings

        self.embedder = build_embedder(EmbeddingSettings(**embedding))
        self.embedder.encode(["warm up"])
        self.tokens = 0

    def run(self, part: Path) -> tuple[int, int, float]:
        n_papers, texts = chunk_texts(part)  # not timed: only the encoder is
        start = time.perf_counter()
        self.embedder.encode(texts)
        took = time.perf_counter() - start
        self.tokens += count_tokens(texts)
        return n_papers, len(texts), took


class PaperChatIngest:
    """`PaperChat.ingest` (what `paperchat ingest` runs): parse, chunk, embed, write both collections."""

    label = "paperchat ingest (cold embedding cache)"

    def __init__(self, workdir: Path, embedding: dict):
        from rag import PaperChat

        self.chat = PaperChat(store_dir=workdir / "paperchat", store_bundled_corpus=False, **_prefixed(embedding))
        self.chat.store  # opens Chroma and loads the model: not timed (nor are the others')
        self.tokens = 0

    def run(self, part: Path) -> tuple[int, int, float]:
        chunks = self.chat.store.chunk_count()
        start = time.perf_counter()
        report = self.chat.ingest([part])
        took = time.perf_counter() - start
        self.tokens += count_tokens(chunk_texts(part)[1])
        return report.added, self.chat.store.chunk_count() - chunks, took


class StockPipeline:
    """LlamaIndex's stock path: Documents -> SentenceSplitter (defaults) -> embedder -> ChromaVectorStore."""

    label = "stock IngestionPipeline (SentenceSplitter defaults)"

    def __init__(self, workdir: Path, embedding: dict):
        import chromadb
        from llama_index.core.ingestion import IngestionPipeline
        from llama_index.core.node_parser import SentenceSplitter
        from llama_index.vector_stores.chroma import ChromaVectorStore

        from store.embed import build_embedder
        from store.settings import EmbeddingSettings

        client = chromadb.PersistentClient(path=str(workdir / "stock"))
        store = ChromaVectorStore(chroma_collection=client.get_or_create_collection("stock"))
        embedder = build_embedder(EmbeddingSettings(**embedding))
        embedder.encode(["warm up"])
        self.pipeline = IngestionPipeline(transformations=[SentenceSplitter(), embedder], vector_store=store)
        self.tokens = 0

    def run(self, part: Path) -> tuple[int, int, float]:
        from llama_index.core import Document
        from llama_index.core.schema import MetadataMode

        records = read_records(part)
        start = time.perf_counter()
        docs = [Document(text=r["abstract"], id_=r["id"], metadata={"title": r["title"], "year": r["year"]})
                for r in records]
        nodes = self.pipeline.run(documents=docs)
        took = time.perf_counter() - start
        self.tokens += count_tokens([n.get_content(MetadataMode.EMBED) for n in nodes])
        return len(docs), len(nodes), took


RUNNERS = {"raw": RawEncoder, "paperchat": PaperChatIngest, "stock": StockPipeline}


def split_parts(corpus: Path, rounds: int, workdir: Path) -> list[Path]:
    """The corpus cut into ``rounds`` JSONL files (each a sample across all years)."""
    records = read_records(corpus)
    parts = []
    for i in range(rounds):
        path = workdir / f"part-{i}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records[i::rounds]),
                        encoding="utf-8")
        parts.append(path)
    return parts


def repeat_rows(chat, parts: list[Path], workdir: Path, embedding: dict) -> list[list[object]]:
    """Ingest again (nothing new), then a new store fed from the now warm embedding cache."""
    from rag import PaperChat

    start = time.perf_counter()
    unchanged = sum(chat.ingest([p]).unchanged for p in parts)
    rows = [["paperchat ingest again (nothing new)", unchanged, 0, time.perf_counter() - start, None, None]]
    warm_dir = workdir / "paperchat-warm"
    shutil.copytree(workdir / "paperchat" / "embed-cache", warm_dir / "embed-cache")
    warm = PaperChat(store_dir=warm_dir, store_bundled_corpus=False, **_prefixed(embedding))
    warm.store
    start = time.perf_counter()
    added = sum(warm.ingest([p]).added for p in parts)
    took = time.perf_counter() - start
    rows.append(["paperchat ingest, new store, warm embed cache", added, warm.store.chunk_count(), took, added / took,
                 None])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="Papers to ingest (evenly spaced sample); default all.")
    parser.add_argument("--only", default=",".join(RUNNERS), help=f"Comma-separated subset of {tuple(RUNNERS)}.")
    parser.add_argument("--rounds", type=int, default=4, help="Interleaved rounds (each a share of the papers).")
    parser.add_argument("--threads", type=int, default=0, help="onnxruntime intra-op threads (0: auto).")
    parser.add_argument("--batch-size", type=int, default=64, help="Texts per ONNX call.")
    parser.add_argument("--spin", action="store_true", help="Let onnxruntime threads busy-wait.")
    args = parser.parse_args()
    quiet_libraries()

    corpus = write_subset(args.limit)
    embedding = {"threads": args.threads, "batch_size": args.batch_size, "allow_spinning": args.spin}
    names = [n for n in RUNNERS if n in args.only.split(",")]
    print(f"corpus {corpus} ({len(read_records(corpus))} papers); embedding {embedding}; {machine()}", flush=True)

    WORK_DIR.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="ingest-", dir=WORK_DIR))
    try:
        parts = split_parts(corpus, args.rounds, workdir)
        runners = {n: RUNNERS[n](workdir, embedding) for n in names}
        totals = {n: [0, 0, 0.0] for n in names}
        for i, part in enumerate(parts):
            order = names[i % len(names):] + names[: i % len(names)]  # rotate who goes first
            for n in order:
                papers, chunks, took = runners[n].run(part)
                for j, v in enumerate((papers, chunks, took)):
                    totals[n][j] += v
                print(f"  round {i + 1}/{len(parts)} {n}: {papers} papers in {took:.1f} s ({machine()})", flush=True)
        rows = [[runners[n].label, *totals[n], totals[n][0] / totals[n][2], runners[n].tokens / totals[n][2]]
                for n in names]
        if "paperchat" in runners:
            rows += repeat_rows(runners["paperchat"].chat, parts, workdir, embedding)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    raw = totals["raw"][0] / totals["raw"][2] if "raw" in totals else None
    table = [[label, papers, chunks, f"{took:.1f}", f"{rate:.2f}" if rate else "",
              f"{rate / raw:.2f}x" if raw and rate else "", f"{tok_rate:.0f}" if tok_rate else ""]
             for label, papers, chunks, took, rate, tok_rate in rows]
    print_table(f"Ingest throughput ({args.rounds} interleaved rounds)",
                ["run", "papers", "chunks", "seconds", "papers/s", "vs raw encoder", "tokens/s"], table)
    if "stock" in totals and "paperchat" in totals:
        ours, stock = (totals[n][0] / totals[n][2] for n in ("paperchat", "stock"))
        print(f"paperchat ingest vs stock IngestionPipeline: {ours / stock:.2f}x")
    print(f"peak RSS of this process: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()

"""Ingest: parse files, skip what is already stored, chunk and embed the rest, write to Chroma."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import TextNode

from store.chroma import PaperStore
from store.chunk import EMBEDDING_RECIPE, chunk_paper, embedding_texts, paper_metadata
from store.embed_cache import EmbeddingCache, embed_texts
from store.errors import IngestError
from store.paper import Paper
from store.parse import parse_file

# Papers embedded and written per step: bounds memory and the work lost to a crash.
INGEST_BATCH = 256

ProgressFn = Callable[[int, int, str], None]


@dataclass
class IngestReport:
    """What an ingest did: counts of papers, and the records it rejected with reasons."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: list[IngestError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    removed: int = 0  # demo papers removed to make room for the user's own
    paper_ids: list[str] = field(default_factory=list)  # every paper read from the files, stored or unchanged

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    def summary(self) -> str:
        text = (
            f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, "
            f"{len(self.rejected)} rejected ({len(self.files)} file(s))"
        )
        if self.removed:
            text += f"; the {self.removed} bundled demo papers were removed: the store holds what you loaded"
        return text


def console_progress(description: str = "ingest") -> ProgressFn:
    """A tqdm bar on stderr driven by ingest's progress callback."""
    from tqdm import tqdm

    bar = tqdm(total=0, unit="paper", desc=description, leave=False)

    def update(done: int, total: int, message: str) -> None:
        bar.total, bar.n = total, done
        bar.set_postfix_str(message[:50])
        bar.refresh()
        if total and done >= total:
            bar.close()

    return update


def content_hash(paper: Paper) -> str:
    """Hash of everything stored for a paper, and of how it is embedded: a change to any of it re-ingests the paper."""
    fields = [paper.abstract, paper.title, paper.name, paper.source, str(paper.ordinal),
              str(paper.year), paper.venue or "", "; ".join(paper.authors), paper.url or "", str(EMBEDDING_RECIPE)]
    return hashlib.sha1("\x1f".join(fields).encode()).hexdigest()


def ingest_files(
    paths: Iterable[str | Path],
    store: PaperStore,
    embedder: BaseEmbedding,
    progress: ProgressFn | None = None,
    cache: EmbeddingCache | None = None,
) -> IngestReport:
    """Ingest papers from files into the store; idempotent and incremental.

    Args:
        paths: txt / jsonl / json / csv files (directories are walked).
        store: the open PaperStore.
        embedder: the embedder the store was built with.
        progress: called as ``progress(done, total, message)``.
        cache: vectors of texts embedded before, by text hash (only new text is encoded).
    Returns:
        An IngestReport; bad records are in ``rejected`` (file and line), never raised.
    """
    report = IngestReport()
    papers: dict[str, Paper] = {}
    for path in _expand(paths):
        report.files.append(str(path))
        parsed = parse_file(path)
        report.rejected.extend(parsed.rejected)
        for paper in parsed.papers:
            papers.setdefault(paper.paper_id, paper)  # the same paper in two files counts once
    return ingest_papers(list(papers.values()), store, embedder, progress, report, cache)


def ingest_papers(
    papers: Iterable[Paper], store: PaperStore, embedder: BaseEmbedding,
    progress: ProgressFn | None = None, report: IngestReport | None = None,
    cache: EmbeddingCache | None = None,
) -> IngestReport:
    """Store papers already parsed (e.g. read back from the registry by reindex); skips unchanged ones."""
    report = report or IngestReport()
    papers = {p.paper_id: p for p in papers}
    hashes = {pid: content_hash(p) for pid, p in papers.items()}
    stored = store.content_hashes(list(papers))
    todo = [p for pid, p in papers.items() if stored.get(pid) != hashes[pid]]
    report.paper_ids = list(papers)
    report.unchanged = len(papers) - len(todo)
    report.updated = sum(1 for p in todo if p.paper_id in stored)
    report.added = len(todo) - report.updated

    if todo:
        store.bump_generation()  # before writing too: a cache keyed on it never outlives a killed run
    # One batch is written (another thread) while the next is embedded. That hides the writes when
    # embedding leaves CPU idle (an embedding API, a GPU, a `chroma run` server elsewhere); on 2 busy
    # cores with local Chroma, which holds the GIL while writing, it gains nothing. Writes stay in
    # order; a failed one stops the ingest before any later batch is written.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-write") as writer:
        pending: Future | None = None
        for start in range(0, len(todo), INGEST_BATCH):
            batch = todo[start : start + INGEST_BATCH]
            if progress:
                progress(start, len(todo), f"embedding papers {start + 1}-{start + len(batch)} of {len(todo)}")
            nodes_per_paper, vectors = _embed_batch(batch, hashes, embedder, cache)
            if pending is not None:
                pending.result()
            pending = writer.submit(_write_batch, batch, hashes, store, nodes_per_paper, vectors)
        if pending is not None:
            pending.result()
    if todo:
        store.bump_generation()
    if progress:
        progress(len(todo), len(todo), report.summary())
    return report


def _embed_batch(batch: list[Paper], hashes: dict[str, str], embedder: BaseEmbedding,
                 cache: EmbeddingCache | None) -> tuple[list[list[TextNode]], np.ndarray]:
    nodes_per_paper = [chunk_paper(p, hashes[p.paper_id]) for p in batch]
    texts = [t for paper, group in zip(batch, nodes_per_paper) for t in embedding_texts(paper, group)]
    return nodes_per_paper, embed_texts(embedder, texts, cache)


def _write_batch(batch: list[Paper], hashes: dict[str, str], store: PaperStore,
                 nodes_per_paper: list[list[TextNode]], vectors: np.ndarray) -> None:
    nodes = [n for group in nodes_per_paper for n in group]
    # Registry out first, registry back last: a paper counts as stored only when all its chunks are.
    # Chunks are overwritten in place, then trimmed (fewer sentences now, or left by a killed run),
    # so a reader asking meanwhile never finds a stored paper with no sentences.
    paper_ids = [p.paper_id for p in batch]
    store.unregister(paper_ids)
    ids = [n.node_id for n in nodes]
    store.add_chunks(ids, [n.text for n in nodes], [n.metadata for n in nodes], vectors)
    store.trim_chunks(paper_ids, keep=set(ids))
    records, offset = [], 0
    for paper, group in zip(batch, nodes_per_paper):
        mean = vectors[offset : offset + len(group)].mean(axis=0)
        offset += len(group)
        records.append((paper, paper_metadata(paper, hashes[paper.paper_id]), mean / max(np.linalg.norm(mean), 1e-12)))
    store.add_papers(records)


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        out.extend(sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path])
    return out


def remove_papers(store: PaperStore, paper_ids: list[str]) -> None:
    """Delete these papers (chunks and registry records); the generation moves on, so BM25, the catalog, the themes
    and the map are rebuilt from what is left."""
    if not paper_ids:
        return
    store.bump_generation()
    store.delete_papers(paper_ids)
    store.bump_generation()

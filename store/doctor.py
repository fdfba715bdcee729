"""Store integrity: check that registry, chunks, BM25 cache and embedder agree; rebuild with `reindex`."""

from __future__ import annotations

import json
import os
import shutil
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding

from store.chroma import (
    GENERATION_KEY,
    WRITE_BATCH,
    PaperStore,
    open_client,
    paper_from_record,
)
from store.chunk import split_sentences
from store.embed import embedder_dimension
from store.ingest import IngestReport, ProgressFn, ingest_papers
from store.paper import Paper
from store.settings import StoreSettings

# Where rag/lexical.load_bm25 keeps its cache.
BM25_DIR = "bm25"
# Bumped when what BM25 indexes changes, so saved indexes are rebuilt (2: the words of coined names).
BM25_FORMAT = 2
# At most this many examples are named per finding; the count says how many there are.
MAX_EXAMPLES = 5


@dataclass
class Finding:
    """One thing the doctor noticed; ``problem`` ones make `paperchat doctor` exit non-zero."""

    check: str
    message: str
    problem: bool = True
    fix: str = ""


@dataclass
class DoctorReport:
    """What `check_store` found, with the store's counts."""

    store_dir: str
    papers: int = 0
    chunks: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.problem for f in self.findings)

    def add(self, check: str, message: str, problem: bool = True, fix: str = "") -> None:
        self.findings.append(Finding(check, message, problem, fix))

    def to_dict(self) -> dict[str, Any]:
        return {
            "store_dir": self.store_dir, "ok": self.ok, "papers": self.papers, "chunks": self.chunks,
            "findings": [f.__dict__ for f in self.findings],
        }


def _examples(items: list[str]) -> str:
    shown = ", ".join(items[:MAX_EXAMPLES])
    return shown + (f" (and {len(items) - MAX_EXAMPLES} more)" if len(items) > MAX_EXAMPLES else "")


def _collection(client: Any, name: str) -> Any | None:
    try:
        return client.get_collection(name)
    except Exception:  # chromadb raises NotFoundError or ValueError depending on version
        return None


def _pages(collection: Any, include: list[str]) -> Iterator[tuple[str, dict, str | None]]:
    total = collection.count()
    for offset in range(0, total, WRITE_BATCH):
        got = collection.get(include=include, limit=WRITE_BATCH, offset=offset)
        docs = got.get("documents") or [None] * len(got["ids"])
        metas = got.get("metadatas") or [{}] * len(got["ids"])
        yield from zip(got["ids"], metas, docs)


def read_registry(client: Any, name: str) -> list[Paper]:
    """Every paper in the registry, rebuilt from its record (the raw abstract is kept there)."""
    papers = _collection(client, f"{name}-papers")
    if papers is None:
        return []
    return [paper_from_record(meta, doc) for _, meta, doc in _pages(papers, ["metadatas", "documents"])]


def check_store(settings: StoreSettings, embedder: BaseEmbedding) -> DoctorReport:
    """Check the store the settings name against ``embedder``; never writes to it.

    Checks: both collections exist; they were built by this embedder (model and dimension); each
    registered paper has exactly its sentence chunks (ids ``paper_id:0..n-1``, same content hash);
    no chunk lacks a registry record; the saved BM25 index holds the same chunk ids as Chroma.
    """
    name = settings.collection
    report = DoctorReport(store_dir=str(settings.dir))
    client = open_client(settings)
    chunks, papers = _collection(client, f"{name}-chunks"), _collection(client, f"{name}-papers")
    if chunks is None or papers is None:
        missing = [n for n, c in ((f"{name}-chunks", chunks), (f"{name}-papers", papers)) if c is None]
        fix = "`paperchat reindex` rebuilds the chunks from the registry" if papers is not None \
            else "run `paperchat ingest FILE`"
        report.add("store", f"collection(s) {', '.join(missing)} missing in {settings.dir}", fix=fix)
        return report

    _check_embedder(report, chunks, papers, embedder)
    registry = {pid: (meta, doc) for pid, meta, doc in _pages(papers, ["metadatas", "documents"])}
    stored: dict[str, dict[str, str]] = defaultdict(dict)  # paper_id -> chunk id -> content hash
    orphans: list[str] = []
    for chunk_id, meta, _ in _pages(chunks, ["metadatas"]):
        pid = (meta or {}).get("paper_id")
        if pid in registry:
            stored[pid][chunk_id] = meta.get("content_hash", "")
        else:
            orphans.append(chunk_id)
    report.papers, report.chunks = len(registry), len(orphans) + sum(map(len, stored.values()))
    if not registry:
        report.add("store", "the store holds no papers yet", problem=False, fix="run `paperchat ingest FILE`")

    rerun = "run the same `paperchat ingest` again (it redoes these papers) or `paperchat reindex`"
    if orphans:
        report.add("orphans", f"{len(orphans)} chunk(s) belong to no registered paper: {_examples(orphans)}",
                   fix="`paperchat reindex` drops them (an interrupted ingest leaves these until it is rerun)")
    without, wrong = [], []
    for pid, (meta, text) in registry.items():
        have = stored.get(pid, {})
        if not have:
            without.append(pid)
            continue
        expected = {f"{pid}:{i}" for i in range(len(split_sentences(text or "")))}
        if set(have) != expected or any(h != meta.get("content_hash") for h in have.values()):
            wrong.append(f"{pid} ({len(have)} chunks, {len(expected)} sentences)")
    if without:
        report.add("chunks", f"{len(without)} registered paper(s) have no chunks: {_examples(without)}", fix=rerun)
    if wrong:
        report.add("chunks", f"{len(wrong)} paper(s) whose chunks do not match their sentences: {_examples(wrong)}",
                   fix=rerun)

    generation = int((papers.metadata or {}).get(GENERATION_KEY, 0))
    _check_bm25(report, settings.dir / BM25_DIR, name, generation, chunks)
    return report


def _check_embedder(report: DoctorReport, chunks: Any, papers: Any, embedder: BaseEmbedding) -> None:
    want = (embedder.model_name, embedder_dimension(embedder))
    for collection in (chunks, papers):
        meta = collection.metadata or {}
        built = (meta.get("paperchat:embed_model"), meta.get("paperchat:dimension"))
        if built != want:
            report.add("embedder", f"{collection.name} was built with {built[0]} ({built[1]} dims); "
                       f"PaperChat is configured for {want[0]} ({want[1]} dims)",
                       fix="`paperchat reindex` rebuilds it with the configured embedder")
            return
    sample = chunks.get(limit=1, include=["embeddings"])
    vectors = sample.get("embeddings")
    if vectors is not None and len(vectors) and len(vectors[0]) != want[1]:
        report.add("embedder", f"stored vectors have {len(vectors[0])} dims, expected {want[1]}",
                   fix="`paperchat reindex`")
    else:
        report.add("embedder", f"built with {want[0]} ({want[1]} dims), as configured", problem=False)


def bm25_cache_name(collection: str, generation: int, chunk_count: int) -> str:
    """The saved BM25 index's directory name for one store state."""
    return f"{collection}-g{generation}-n{chunk_count}-f{BM25_FORMAT}"


def _check_bm25(report: DoctorReport, cache_dir: Path, name: str, generation: int, chunks: Any) -> None:
    current = cache_dir / bm25_cache_name(name, generation, chunks.count())
    corpus = current / "corpus.jsonl"
    if not corpus.exists():
        report.add("bm25", "no saved BM25 index for the current store state (it is built on the next question)",
                   problem=False)
        return
    try:
        bm25_ids = {json.loads(line)["node_id"] for line in corpus.read_text(encoding="utf-8").splitlines() if line}
    except (OSError, ValueError, KeyError) as exc:
        report.add("bm25", f"BM25 index at {current} is unreadable ({exc})", fix=f"delete {current}")
        return
    chroma_ids = {chunk_id for chunk_id, _, _ in _pages(chunks, [])}
    if bm25_ids != chroma_ids:
        only_bm25, only_chroma = sorted(bm25_ids - chroma_ids), sorted(chroma_ids - bm25_ids)
        report.add("bm25", f"BM25 and Chroma disagree: {len(only_bm25)} chunk(s) only in BM25 "
                   f"({_examples(only_bm25)}), {len(only_chroma)} only in Chroma ({_examples(only_chroma)})",
                   fix=f"delete {current}; it is rebuilt on the next question")
    else:
        report.add("bm25", f"BM25 index agrees with Chroma ({len(bm25_ids)} chunks)", problem=False)


def reindex_store(settings: StoreSettings, embedder: BaseEmbedding, progress: ProgressFn | None = None) -> IngestReport:
    """Rebuild both collections with ``embedder`` from the abstracts kept in the registry.

    The registry is first copied to ``{store_dir}/{collection}-reindex.jsonl``; a reindex that is
    killed part-way resumes from that copy when run again, so no paper is lost.
    Returns:
        The IngestReport of re-adding the papers.
    """
    name = settings.collection
    client = open_client(settings)
    backup = settings.dir / f"{name}-reindex.jsonl"
    resuming = backup.exists()
    if not resuming:
        _write_backup(backup, read_registry(client, name))
    papers = [Paper(**{**row, "authors": tuple(row["authors"])}) for row in _read_backup(backup)]
    model, dimension = embedder.model_name, embedder_dimension(embedder)
    chunks = _collection(client, f"{name}-chunks")
    same = chunks is not None and (chunks.metadata or {}).get("paperchat:embed_model") == model \
        and (chunks.metadata or {}).get("paperchat:dimension") == dimension
    if not (resuming and same):  # a resumed run keeps what it already wrote with this embedder
        for suffix in ("-chunks", "-papers"):
            if _collection(client, name + suffix) is not None:
                client.delete_collection(name + suffix)
    store = PaperStore(client, name, embed_model=model, dimension=dimension)
    report = ingest_papers(papers, store, embedder, progress)
    _drop_orphans(store, {p.paper_id for p in papers})
    store.bump_generation()
    for cache in (settings.dir / BM25_DIR).glob(f"{name}-g*"):
        shutil.rmtree(cache, ignore_errors=True)
    backup.unlink()
    return report


def _drop_orphans(store: PaperStore, paper_ids: set[str]) -> None:
    orphans = [cid for cid, meta, _ in _pages(store.chunks, ["metadatas"]) if meta.get("paper_id") not in paper_ids]
    for start in range(0, len(orphans), WRITE_BATCH):
        store.chunks.delete(ids=orphans[start : start + WRITE_BATCH])


def _write_backup(path: Path, papers: list[Paper]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        for p in papers:
            row = {k: v for k, v in p.__dict__.items() if k != "score"}
            out.write(json.dumps({**row, "authors": list(p.authors)}, ensure_ascii=False) + "\n")
        out.flush()
        os.fsync(out.fileno())
    tmp.replace(path)  # the copy exists whole or not at all


def _read_backup(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)

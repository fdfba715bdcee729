"""The Chroma store: a sentence collection for retrieval and a paper collection as the registry."""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from store.errors import EmbedderMismatch, PaperChatError
from store.paper import Paper
from store.settings import StoreSettings, disable_telemetry

# Chroma caps a single write; stay well under it.
WRITE_BATCH = 4000
# Sentence ids tried per paper when reading a paper's sentences (abstracts run to ~30 sentences).
SENTENCE_PROBE = 32
# Papers whose sentences (with vectors) are kept in memory once read: a list question reads hundreds, and the next
# question on a near topic many of the same (~10 sentences of 384 floats a paper: ~60 MB at most).
SENTENCE_CACHE_PAPERS = 4096
# Collection metadata key incremented by every ingest that changes something (BM25 keys on it).
GENERATION_KEY = "paperchat:generation"
DEMO_KEY = "paperchat:demo"  # set while the store holds only the bundled corpus, loaded as the demo default


def chroma_address(settings: StoreSettings) -> tuple[str, int, bool]:
    """(host, port, ssl) of the Chroma server; ``chroma_host`` may also be a URL (https://db:8443)."""
    host, port = settings.chroma_host or "", settings.chroma_port
    if "://" not in host:
        return host, port, False
    url = urlsplit(host)
    ssl = url.scheme == "https"
    return url.hostname or "localhost", url.port or (443 if ssl else port), ssl


def open_client(settings: StoreSettings) -> Any:
    """`HttpClient` when a Chroma host is configured, else `PersistentClient` in the store dir."""
    disable_telemetry()
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_host:
        host, port, ssl = chroma_address(settings)
        try:
            return chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=chroma_settings)
        except Exception as exc:  # chromadb raises bare ValueError/ConnectionError here
            raise PaperChatError(
                f"Cannot reach the Chroma server at {host}:{port} ({exc}). "
                f"Start it with `chroma run --path DIR --port {port}`."
            ) from exc
    path = settings.dir / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


def _schema() -> Any:
    """Cosine HNSW and no full-text index on documents: nothing searches document text inside Chroma (BM25 has
    its own index), and that index cost a third of every chunk write. Stores made with it on still open."""
    from chromadb import FtsIndexConfig, K, Schema, VectorIndexConfig

    schema = Schema()
    schema.delete_index(config=FtsIndexConfig(), key=K.DOCUMENT)
    schema.create_index(config=VectorIndexConfig(space="cosine"))
    return schema


class PaperStore:
    """Sentence chunks (with vectors) and one registry record per paper, in two Chroma collections."""

    def __init__(self, client: Any, name: str, embed_model: str, dimension: int):
        self.client, self.name = client, name
        self.embed_model, self.dimension = embed_model, dimension
        identity = {"paperchat:embed_model": embed_model, "paperchat:dimension": dimension}
        self.chunks = client.get_or_create_collection(f"{name}-chunks", schema=_schema(), metadata=identity)
        self.papers = client.get_or_create_collection(
            f"{name}-papers", schema=_schema(), metadata={GENERATION_KEY: 0, **identity}
        )
        self._check_identity(self.chunks.metadata or {})
        self._sentence_cache: OrderedDict[str, list[tuple[str, Any]]] = OrderedDict()
        self._sentence_lock = threading.Lock()
        self._sentence_epoch = 0  # bumped by every write, so a read that overlapped one is not cached

    def _check_identity(self, meta: dict[str, Any]) -> None:
        built_with = (meta.get("paperchat:embed_model"), meta.get("paperchat:dimension"))
        if built_with != (self.embed_model, self.dimension):
            raise EmbedderMismatch(
                f"The store '{self.name}' was built with embedding model {built_with[0]} "
                f"({built_with[1]} dims) but PaperChat is configured for {self.embed_model} "
                f"({self.dimension} dims). Run `paperchat reindex` to rebuild it with the current "
                "model, or switch the embedding setting back."
            )

    # ---- registry ----
    def generation(self) -> int:
        return int((self.papers.metadata or {}).get(GENERATION_KEY, 0))

    def bump_generation(self) -> None:
        self._set_registry_meta(GENERATION_KEY, self.generation() + 1)

    def holds_demo(self) -> bool:
        """Whether the papers were loaded as the demo default (the bundled corpus), not by the user."""
        return bool((self.papers.metadata or {}).get(DEMO_KEY))

    def mark_demo(self, demo: bool) -> None:
        self._set_registry_meta(DEMO_KEY, demo)

    def _set_registry_meta(self, key: str, value: Any) -> None:
        meta = dict(self.papers.metadata or {})
        meta.pop("hnsw:space", None)  # Chroma refuses to modify the distance function
        meta[key] = value
        self.papers.modify(metadata=meta)

    def content_hashes(self, paper_ids: list[str]) -> dict[str, str]:
        """content_hash of each already-stored paper among ``paper_ids``."""
        found: dict[str, str] = {}
        for start in range(0, len(paper_ids), WRITE_BATCH):
            got = self.papers.get(ids=paper_ids[start : start + WRITE_BATCH], include=["metadatas"])
            found.update({i: m["content_hash"] for i, m in zip(got["ids"], got["metadatas"])})
        return found

    def paper_count(self) -> int:
        return self.papers.count()

    def chunk_count(self) -> int:
        return self.chunks.count()

    def iter_papers(self, include_vectors: bool = False) -> Iterator[tuple[Paper, Any]]:
        """Every stored paper (and its mean vector when asked), in pages."""
        include = ["metadatas", "documents"] + (["embeddings"] if include_vectors else [])
        total = self.papers.count()
        for offset in range(0, total, WRITE_BATCH):
            got = self.papers.get(include=include, limit=WRITE_BATCH, offset=offset)
            vectors = got["embeddings"] if include_vectors else [None] * len(got["ids"])
            for meta, doc, vec in zip(got["metadatas"], got["documents"], vectors):
                yield paper_from_record(meta, doc), vec

    def iter_chunks(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every stored chunk as (id, text, metadata), in pages."""
        total = self.chunks.count()
        for offset in range(0, total, WRITE_BATCH):
            got = self.chunks.get(include=["metadatas", "documents"], limit=WRITE_BATCH, offset=offset)
            yield from zip(got["ids"], got["documents"], got["metadatas"])

    def sentences(self, paper_ids: list[str]) -> dict[str, list[tuple[str, Any]]]:
        """Each paper's sentences in order, as (text, vector); read from Chroma once, then from memory."""
        with self._sentence_lock:
            known = {pid: self._sentence_cache[pid] for pid in paper_ids if pid in self._sentence_cache}
            for pid in known:
                self._sentence_cache.move_to_end(pid)
            epoch = self._sentence_epoch
        read = self._read_sentences([pid for pid in paper_ids if pid not in known])
        with self._sentence_lock:
            if epoch == self._sentence_epoch:
                self._sentence_cache.update(read)
            while len(self._sentence_cache) > SENTENCE_CACHE_PAPERS:
                self._sentence_cache.popitem(last=False)
        return {pid: known[pid] if pid in known else read[pid] for pid in paper_ids}

    def _forget_sentences(self) -> None:
        with self._sentence_lock:
            self._sentence_cache.clear()
            self._sentence_epoch += 1

    def _read_sentences(self, paper_ids: list[str]) -> dict[str, list[tuple[str, Any]]]:
        if not paper_ids:
            return {}
        from store.chunk import chunk_id

        # Looked up by id ("{paper_id}:{i}"), which costs the same at any store size; a metadata
        # filter scans every chunk (15-25 ms at 57k chunks). Papers filling the probe are re-read
        # by filter in case they have more sentences.
        include = ["documents", "metadatas", "embeddings"]
        rows: list[tuple[dict, str, Any]] = []
        unique = list(dict.fromkeys(paper_ids))
        per_call = max(1, WRITE_BATCH // SENTENCE_PROBE)
        for start in range(0, len(unique), per_call):
            ids = [chunk_id(pid, i) for pid in unique[start : start + per_call] for i in range(SENTENCE_PROBE)]
            got = self.chunks.get(ids=ids, include=include)
            rows += zip(got["metadatas"], got["documents"], got["embeddings"])
        found = Counter(meta["paper_id"] for meta, _, _ in rows)
        longer = [pid for pid in unique if found[pid] >= SENTENCE_PROBE]
        if longer:
            got = self.chunks.get(where={"paper_id": {"$in": longer}}, include=include)
            rows = [r for r in rows if r[0]["paper_id"] not in longer]
            rows += zip(got["metadatas"], got["documents"], got["embeddings"])
        rows.sort(key=lambda r: (r[0]["paper_id"], int(r[0].get("sentence", 0))))
        out: dict[str, list[tuple[str, Any]]] = {pid: [] for pid in paper_ids}
        for meta, text, vector in rows:  # a copy, so the cache does not keep Chroma's whole batch array alive
            out[meta["paper_id"]].append((text, np.array(vector, dtype=np.float32)))
        return out

    # ---- writes ----
    def delete_papers(self, paper_ids: list[str]) -> None:
        """Remove the chunks and registry records of these papers."""
        self._forget_sentences()
        for start in range(0, len(paper_ids), WRITE_BATCH):
            batch = paper_ids[start : start + WRITE_BATCH]
            self.chunks.delete(where={"paper_id": {"$in": batch}})
            self.papers.delete(ids=batch)

    def unregister(self, paper_ids: list[str]) -> None:
        """Remove registry records only (their chunks are about to be rewritten)."""
        for start in range(0, len(paper_ids), WRITE_BATCH):
            self.papers.delete(ids=paper_ids[start : start + WRITE_BATCH])

    def trim_chunks(self, paper_ids: list[str], keep: set[str]) -> None:
        """Delete these papers' chunks whose ids are not in ``keep`` (old extra sentences, crash leftovers)."""
        self._forget_sentences()
        for start in range(0, len(paper_ids), WRITE_BATCH):
            got = self.chunks.get(where={"paper_id": {"$in": paper_ids[start : start + WRITE_BATCH]}}, include=[])
            stale = [i for i in got["ids"] if i not in keep]
            for s in range(0, len(stale), WRITE_BATCH):
                self.chunks.delete(ids=stale[s : s + WRITE_BATCH])

    def add_chunks(self, ids: list[str], texts: list[str], metas: list[dict], vectors: Iterable) -> None:
        self._forget_sentences()
        vectors = list(vectors)
        for start in range(0, len(ids), WRITE_BATCH):
            end = start + WRITE_BATCH
            self.chunks.upsert(
                ids=ids[start:end], documents=texts[start:end], metadatas=metas[start:end],
                embeddings=vectors[start:end],
            )

    def add_papers(self, records: list[tuple[Paper, dict, Any]]) -> None:
        """Register papers (written last, so a paper counts as stored only once its chunks are)."""
        for start in range(0, len(records), WRITE_BATCH):
            batch = records[start : start + WRITE_BATCH]
            self.papers.upsert(
                ids=[p.paper_id for p, _, _ in batch],
                documents=[p.text for p, _, _ in batch],
                metadatas=[{**meta, "abstract": p.abstract} for p, meta, _ in batch],
                embeddings=[vec for _, _, vec in batch],
            )


def paper_from_record(meta: dict[str, Any], text: str) -> Paper:
    """Rebuild a Paper from its registry record."""
    year = int(meta.get("year", -1))
    return Paper(
        paper_id=meta["paper_id"],
        name=meta["name"],
        title=meta.get("title", ""),
        abstract=meta.get("abstract", text),
        text=text,
        source=meta.get("source", ""),
        ordinal=int(meta.get("ordinal", 0)),
        year=None if year < 0 else year,
        venue=meta.get("venue") or None,
        authors=tuple(a for a in str(meta.get("authors", "")).split("; ") if a),
        url=meta.get("url") or None,
    )

"""BM25 over the stored sentence nodes, persisted beside the store and rebuilt only when it changed."""

from __future__ import annotations

import logging
import os
import shutil
import uuid
from pathlib import Path

from llama_index.core.schema import TextNode
from llama_index.retrievers.bm25 import BM25Retriever

from rag.terms import coined_parts
from store.chroma import PaperStore
from store.doctor import bm25_cache_name

log = logging.getLogger(__name__)
# BM25 indexes each sentence with its paper's name and title: cheap here, and titles carry key terms. The words a
# coined name is made of count too ("PhyProbe": "probe"), as a reader asking for "a learned probe" would expect.
BM25_METADATA_KEYS = ("name", "title")


def _nodes_from_store(store: PaperStore) -> list[TextNode]:
    # A Chroma-backed index keeps no docstore, so BM25 is built from what Chroma holds. Name and title
    # go into the indexed text; a node keeps only what retrieval reads (paper_id, sentence), so the
    # saved corpus is about half the size it is with each chunk's full metadata (authors, url, ...).
    nodes = []
    for node_id, text, meta in store.iter_chunks():
        name_words = " ".join(sorted(coined_parts(str(meta.get("name", "")))))
        searchable = "\n".join([*(str(meta.get(k, "")) for k in BM25_METADATA_KEYS), name_words, text])
        keep = {"paper_id": meta["paper_id"], "sentence": meta.get("sentence", 0)}
        nodes.append(TextNode(id_=node_id, text=searchable, metadata=keep, excluded_embed_metadata_keys=list(keep)))
    return nodes


def _being_written(path: Path) -> bool:
    """A ``.tmp-PID-...`` cache whose writing process is still alive (a dead one's is litter)."""
    _, sep, rest = path.name.partition(".tmp-")
    if not sep:
        return False
    try:
        os.kill(int(rest.split("-")[0]), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def load_bm25(store: PaperStore, cache_dir: Path, top_k: int) -> BM25Retriever | None:
    """The store's BM25 retriever: loaded from ``cache_dir`` when current, else rebuilt and saved."""
    if store.chunk_count() == 0:
        return None
    path = cache_dir / bm25_cache_name(store.name, store.generation(), store.chunk_count())
    if (path / "retriever.json").exists():
        try:
            # mmap: the sentence corpus (~100 MB at 8k papers) is read lazily, only for hits, so a
            # start-up loads in ~20 ms instead of ~1 s and processes share the pages.
            retriever = BM25Retriever.from_persist_dir(str(path), show_progress=False, mmap=True)
            retriever.similarity_top_k = top_k
            return retriever
        except Exception:  # a cache half-written by a killed process: rebuild it
            log.warning("BM25 cache at %s is unreadable; rebuilding", path)
    retriever = BM25Retriever.from_defaults(nodes=_nodes_from_store(store), similarity_top_k=top_k)
    if cache_dir.exists():
        for old in cache_dir.glob(f"{store.name}-g*"):
            if old.name != path.name and not _being_written(old):
                shutil.rmtree(old, ignore_errors=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        retriever.persist(str(tmp), show_progress=False)
        if path.exists() and not (path / "retriever.json").exists():
            shutil.rmtree(path, ignore_errors=True)  # left half-written by a killed process
        tmp.rename(path)  # atomic: readers see a whole cache or none
    except OSError:  # another process saved the same cache first (or the dir is read-only): use ours
        log.debug("BM25 cache at %s not saved", path, exc_info=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return retriever

"""A disk cache of text vectors keyed by sha1(model name + text), so unchanged text is never re-embedded."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

# Rows per SQL statement (SQLite allows 32766 host parameters; stay far below).
LOOKUP_BATCH = 500
# v2: a rowid table. v1 was WITHOUT ROWID, where a 1.5 KB vector is too big to sit in its b-tree row and
# spilled into an overflow page of its own: 4.7 KB on disk per vector instead of 1.6 KB.
CACHE_FILE = "vectors-v2.sqlite"
LEGACY_FILES = ("vectors.sqlite", "vectors.sqlite-wal", "vectors.sqlite-shm")


class EmbeddingCache:
    """Vectors by text hash in one SQLite file; safe across threads and processes (WAL)."""

    def __init__(self, directory: Path):
        directory.mkdir(parents=True, exist_ok=True)
        for legacy in LEGACY_FILES:
            (directory / legacy).unlink(missing_ok=True)
        self.path = directory / CACHE_FILE
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=60, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL)")
        self.hits = self.misses = 0

    @staticmethod
    def key(model: str, text: str) -> bytes:
        return hashlib.sha1(f"{model}\x00{text}".encode()).digest()

    def get_many(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), LOOKUP_BATCH):
                part = keys[start : start + LOOKUP_BATCH]
                rows = self._db.execute(
                    f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(part))})", part
                )
                found.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        return found

    def put_many(self, keys: list[bytes], vectors: np.ndarray) -> None:
        rows = [(k, np.ascontiguousarray(v, dtype=np.float32).tobytes()) for k, v in zip(keys, vectors)]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)", rows)
            self._db.execute("COMMIT")

    def embed(self, model: str, texts: list[str], encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """Vectors for texts: cached ones read back, the rest encoded (once per distinct text) and stored."""
        keys = [self.key(model, t) for t in texts]
        found = self.get_many(list(dict.fromkeys(keys)))
        missing = list(dict.fromkeys(k for k in keys if k not in found))
        self.hits += len(texts) - sum(1 for k in keys if k not in found)
        self.misses += len(missing)
        if missing:
            first_text = {}
            for k, t in zip(keys, texts):
                first_text.setdefault(k, t)
            fresh = np.asarray(encode([first_text[k] for k in missing]), dtype=np.float32)
            self.put_many(missing, fresh)
            found.update(zip(missing, fresh))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([found[k] for k in keys])

    def close(self) -> None:
        with self._lock:
            self._db.close()


def embed_texts(embedder, texts: list[str], cache: EmbeddingCache | None = None) -> np.ndarray:
    """Text vectors from ``embedder`` (a LlamaIndex BaseEmbedding), through ``cache`` when given."""

    def encode(batch: list[str]) -> np.ndarray:
        return np.asarray(embedder.get_text_embedding_batch(batch), dtype=np.float32)

    return cache.embed(embedder.model_name, texts, encode) if cache is not None else encode(texts)

"""A 2-D map of the papers: PCA of their vectors, cached in the store dir once per ingest generation."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import numpy as np

from store.chroma import PaperStore

log = logging.getLogger(__name__)
CACHE_FILE = "paper-map.json"


def pca_2d(vectors: np.ndarray) -> np.ndarray:
    """Rows projected on their first two principal components; signs fixed so reruns agree."""
    n = len(vectors)
    coords = np.zeros((n, 2), dtype=np.float64)
    if n < 2:
        return coords
    centred = vectors.astype(np.float64) - vectors.mean(axis=0)
    # SVD of the (dim x dim) scatter matrix: the same axes as SVD of the data, at any corpus size.
    axes, _, _ = np.linalg.svd(centred.T @ centred)
    axes = axes[:, :2]
    axes *= np.sign(axes[np.abs(axes).argmax(axis=0), range(axes.shape[1])])
    coords[:, : axes.shape[1]] = centred @ axes
    return coords


def project_papers(store: PaperStore, cache_dir: Path | None = None) -> dict[str, tuple[float, float]]:
    """paper_id -> (x, y); read from ``cache_dir/paper-map.json`` when the store has not changed since."""
    key = {"generation": store.generation(), "papers": store.paper_count(), "model": store.embed_model}
    cache = Path(cache_dir) / CACHE_FILE if cache_dir else None
    if cache and cache.is_file():
        try:
            saved = json.loads(cache.read_text())
            if saved.get("key") == key:
                return {pid: (xy[0], xy[1]) for pid, xy in saved["coords"].items()}
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            log.warning("Ignoring unreadable paper map cache %s", cache)
    ids, vectors = [], []
    for paper, vector in store.iter_papers(include_vectors=True):
        ids.append(paper.paper_id)
        vectors.append(vector)
    coords = pca_2d(np.asarray(vectors, dtype=np.float32)) if ids else np.zeros((0, 2))
    result = {pid: (round(float(x), 5), round(float(y), 5)) for pid, (x, y) in zip(ids, coords)}
    if cache:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps({"key": key, "coords": result}))
            partial.replace(cache)
        except OSError as exc:
            log.warning("Could not cache the paper map in %s: %s", cache, exc)
    return result

"""The speed-ups keep answers exact: embedding cache, catalog snapshots, sentence lookup by id, batching."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from rag import PaperChat
from store import chroma
from store.embed_cache import EmbeddingCache

SEEDS = Path(__file__).resolve().parent.parent / "data"


def test_embedding_cache_encodes_each_text_once(tmp_path):
    cache = EmbeddingCache(tmp_path / "cache")
    calls: list[list[str]] = []

    def encode(texts):
        calls.append(list(texts))
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)

    first = cache.embed("m", ["a", "bb", "a"], encode)
    assert calls == [["a", "bb"]]  # a repeated text is encoded once
    again = EmbeddingCache(tmp_path / "cache").embed("m", ["bb", "a", "ccc"], encode)  # a new process
    assert calls[-1] == ["ccc"]
    np.testing.assert_array_equal(first[[1, 0]], again[:2])
    assert cache.embed("other-model", ["a"], encode).shape == (1, 3) and calls[-1] == ["a"]  # keyed by model


def test_new_store_fed_from_the_cache_runs_no_encoder(seed_store_dir, tmp_path, monkeypatch):
    shutil.copytree(seed_store_dir / "embed-cache", tmp_path / "store" / "embed-cache")
    chat = PaperChat(store_dir=tmp_path / "store", store_bundled_corpus=False)

    def no_encoding(self, texts):
        raise AssertionError(f"re-embedded {len(texts)} cached texts")

    monkeypatch.setattr(type(chat.embedder), "encode", no_encoding)  # a pydantic model: patch the class
    assert chat.ingest([SEEDS]).added == 38
    monkeypatch.undo()
    assert chat.ask("What does PipeFSDP improve over TorchTitan?").citations[0].paper.name == "PipeFSDP"


def test_catalog_snapshot_is_reused_and_never_stale(seed_chat, tmp_path):
    assert len(seed_chat.papers()) == 38
    snapshots = seed_chat.settings.store.dir / "snapshots"
    assert any(snapshots.glob("catalog-*.pkl"))

    reopened = PaperChat(store_dir=seed_chat.settings.store.dir)
    names = {p.name for p in reopened.papers()}
    assert "PipeFSDP" in names

    new = tmp_path / "new.jsonl"
    new.write_text(json.dumps({"id": "snap-1", "title": "QuokkaNet: Pouch-Gated Sparse Attention",
                               "abstract": "We propose QuokkaNet, a sparse attention scheme that routes each query "
                                           "to key blocks chosen by a learned pouch gate, halving attention cost."}))
    assert reopened.ingest([new]).added == 1
    assert "QuokkaNet" in {p.name for p in reopened.papers()}
    assert "QuokkaNet" in {p.name for p in PaperChat(store_dir=seed_chat.settings.store.dir).papers()}
    assert len(list(snapshots.glob("catalog-*.pkl"))) == 1  # the old generation's snapshot is gone


@pytest.mark.parametrize("probe", [chroma.SENTENCE_PROBE, 2])
def test_sentences_by_id_match_a_metadata_filter(seed_chat, monkeypatch, probe):
    monkeypatch.setattr(chroma, "SENTENCE_PROBE", probe)  # 2: most papers take the fallback path
    store = seed_chat.store
    ids = [p.paper_id for p in seed_chat.papers()][:6]
    got = store.chunks.get(where={"paper_id": {"$in": ids}}, include=["documents", "metadatas"])
    expected = {pid: [] for pid in ids}
    for meta, text in sorted(zip(got["metadatas"], got["documents"]), key=lambda r: (r[0]["paper_id"], r[0]["sentence"])):
        expected[meta["paper_id"]].append(text)
    assert {pid: [t for t, _ in rows] for pid, rows in store.sentences(ids + ids[:1]).items()} == expected


def test_token_budget_batches_embed_like_one_at_a_time(seed_chat):
    texts = ["short", "a somewhat longer sentence about sparse attention for long documents " * 3, "mid length text"]
    batched = seed_chat.embedder.encode(texts)
    single = np.stack([seed_chat.embedder.encode([t])[0] for t in texts])
    np.testing.assert_allclose(batched, single, atol=1e-5)

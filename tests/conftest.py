"""Shared fixtures: isolated settings, a seed store built once per session, real servers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Tests never touch the network and never read the developer's own store or .env.
os.environ["ANONYMIZED_TELEMETRY"] = "False"
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
for var in list(os.environ):
    if var.startswith("PAPERCHAT_") or var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        del os.environ[var]

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "data"
SEED_FILES = sorted(SEEDS.glob("*.txt"))
SHARED_CORPUS = REPO.parent / "shared" / "corpora" / "neurips-abstracts.jsonl"


@pytest.fixture(autouse=True)
def _isolated_cwd(tmp_path, monkeypatch):
    """Run each test in its own directory so no stray .env is picked up."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def seed_store_dir(tmp_path_factory) -> Path:
    """A store holding the bundled seed corpus as the user's own papers (ingested, so a later ingest adds to them
    rather than replacing a demo), built once (embedding is the slow part)."""
    from rag import PaperChat

    path = tmp_path_factory.mktemp("seed-store")
    chat = PaperChat(store_dir=path)
    chat.ingest(SEED_FILES)
    assert len(chat.papers()) == 38
    chat.retriever  # builds and persists BM25 too
    del chat
    return path


@pytest.fixture
def seed_chat(seed_store_dir, tmp_path):
    """A PaperChat on a private copy of the seed store (safe to ingest into)."""
    from rag import PaperChat

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    return PaperChat(store_dir=store)


@pytest.fixture
def empty_chat(tmp_path):
    """A PaperChat on an empty store that does not load the bundled corpus."""
    from rag import PaperChat

    return PaperChat(store_dir=tmp_path / "empty-store", store_bundled_corpus=False)

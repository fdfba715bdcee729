"""The store's settings: where papers live and how they are embedded. The one settings object composing them with
the LLM's and the UI's is rag.settings.Settings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

REPO_DIR = Path(__file__).resolve().parent.parent
BUNDLED_CORPUS_DIR = REPO_DIR / "data"


def _default_store_dir() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "paperchat"


class StoreSettings(BaseModel):
    """Where papers live: a local Chroma directory, or a `chroma run` server."""

    model_config = ConfigDict(extra="forbid")

    dir: Path = Field(default_factory=_default_store_dir, description="Store directory (Chroma, BM25, uploads).")
    chroma_host: str | None = Field(None, description="Chroma server host or URL (http://host:8000); set it to use HttpClient.")
    chroma_port: int = Field(8000, description="Chroma server port.")
    collection: str = Field("papers", description="Collection name prefix; the embedder is appended.")
    chunk_size: int = Field(160, description="Chunk size in tokens (sentence-aware).")
    chunk_overlap: int = Field(20, description="Chunk overlap in tokens.")
    bundled_corpus: bool = Field(True, description="Ingest the bundled NeurIPS 2026 abstracts on first start.")
    embed_cache: bool = Field(True, description="Keep text vectors in {dir}/embed-cache so unchanged text is never re-embedded.")


class EmbeddingSettings(BaseModel):
    """Which embedder turns text into vectors."""

    model_config = ConfigDict(extra="forbid")

    backend: Literal["minilm", "openai"] = Field("minilm", description="minilm: bundled ONNX, offline.")
    openai_model: str = Field("text-embedding-3-small", description="Model for the openai backend.")
    batch_size: int = Field(64, description="Most texts per encoder call (calls are also capped at about 384 tokens).")
    threads: int = Field(0, description="onnxruntime intra-op threads; 0 lets it choose.")
    allow_spinning: bool = Field(False, description="Let onnxruntime threads busy-wait between ops (helps only on an idle machine).")


def disable_telemetry() -> None:
    """Keep Chroma and Gradio from phoning home (this must run before either is imported)."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

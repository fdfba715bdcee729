"""A real OpenAI-compatible HTTP server for tests (stdlib only, no mocks).

``FakeOpenAI`` runs a ``http.server.ThreadingHTTPServer`` in a background
thread on ``127.0.0.1`` with an OS-assigned free port.  Point any OpenAI client
(``openai.OpenAI``, LlamaIndex ``OpenAILike``, plain httpx, ...) at
``server.base_url`` (``"http://127.0.0.1:PORT/v1"``); it speaks real HTTP/1.1
over a real socket, so retries, timeouts, SSE parsing and connection errors in
the client are exercised for real.

Endpoints
---------
* ``POST /v1/chat/completions`` -- JSON ``chat.completion`` or, when the request
  has ``"stream": true``, SSE ``data: {chat.completion.chunk}`` events ending
  with ``data: [DONE]`` (a usage chunk is added when the request sets
  ``stream_options.include_usage``).
* ``POST /v1/completions`` -- the same for ``text_completion`` objects.
* ``GET /v1/models`` -- ``{"object": "list", "data": [{"id": ...}]}``.
* Anything else -> 404 with an OpenAI-style error body.
  (The ``/v1`` prefix is optional: ``/chat/completions`` works too.)

Scripting replies
-----------------
::

    from tests.openai_server import FakeOpenAI, Reply

    with FakeOpenAI() as server:
        server.script([
            Reply(status=429, headers={"Retry-After": "0", "retry-after-ms": "1"}),
            Reply(text="PipeFSDP cuts bubbles [1]."),
        ])
        client = openai.OpenAI(base_url=server.base_url, api_key="x")
        ...
        assert server.requests[-1]["messages"][0]["role"] == "system"

Each POST to a completions endpoint consumes the next ``Reply`` of the script;
the last one then repeats for every further request.  ``GET /v1/models`` does
not consume the script.  With no script (or after ``server.script([])``)
the server is in *echo* mode: it answers with the content of the last user
message (chat) or the prompt (completions) -- see ``echo_text``.

``Reply`` fields (all optional, combine freely):

* ``text`` -- the answer.  ``""`` gives an empty answer (stream: only the
  role chunk and the finish chunk).  ``None`` (default) -> ``text_fn`` or echo.
* ``text_fn`` -- ``callable(body: dict) -> str`` computing the answer from the
  request JSON, e.g. ``Reply(text_fn=lambda b: b["messages"][-1]["content"].upper())``.
* ``status`` -- HTTP status.  For ``status >= 400`` the body is an OpenAI
  error object ``{"error": {"message", "type", "code"}}`` (or ``error_body``).
* ``headers`` -- extra response headers, e.g. ``{"Retry-After": "0"}``.
  (The ``openai`` client treats ``Retry-After: 0`` as "not given" and falls
  back to its ~0.5 s backoff; add ``"retry-after-ms": "1"`` for fast tests.)
* ``delay`` -- seconds to wait before sending anything (client timeouts).
* ``chunk_delay`` -- seconds to wait between SSE chunks when streaming.
* ``malformed`` -- send invalid JSON with status 200: a non-streaming body of
  ``{"id": "broken"`` (Content-Type ``application/json``) or, when streaming,
  one ``data: {"id": "broken"`` SSE event.
* ``cut_after`` -- stream cut mid-answer: send the role chunk plus this many
  content chunks, then close the connection abruptly (no terminating HTTP
  chunk, no ``[DONE]``); clients see "incomplete chunked read".  On a
  non-streaming request the JSON body is truncated after half of its bytes
  with a Content-Length promising the whole body.
* ``finish_reason`` -- ``"stop"`` by default (``"length"`` to fake truncation).
* ``chunk_words`` -- words per streamed content chunk (default 1).
* ``error_body`` -- raw dict sent as the body of an error status.
* ``model`` -- the ``model`` field of the answer (default: the request's).

Inspecting what was sent
------------------------
``server.requests`` is a list (in arrival order, thread-safe append) of
``ReceivedRequest`` objects: each *is* the parsed JSON body (a ``dict``; empty
for GET, ``{}`` if the client sent invalid JSON) and also carries ``.method``,
``.path``, ``.headers`` (keys lower-cased) and ``.raw`` (bytes).  E.g.
``server.requests[0]["stream"]``, ``server.requests[0].headers["authorization"]``.
``server.completion_requests`` keeps only the POSTs to completions endpoints.
``server.reset()`` clears requests and script.

Pytest fixture (the class is the whole API; wire it where you like)::

    @pytest.fixture
    def fake_openai():
        with FakeOpenAI() as server:
            yield server

Lifecycle: ``start()`` / ``stop()`` or use it as a context manager.  ``stop()``
interrupts pending ``delay``/``chunk_delay`` sleeps and closes kept-alive
client connections, so it never hangs on a slow scripted reply.
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable

__all__ = ["FakeOpenAI", "Reply", "ReceivedRequest", "echo_text"]


@dataclass
class Reply:
    """One scripted answer of ``FakeOpenAI`` (see the module docstring)."""

    text: str | None = None
    text_fn: Callable[[dict], str] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    chunk_delay: float = 0.0
    malformed: bool = False
    cut_after: int | None = None
    finish_reason: str = "stop"
    chunk_words: int = 1
    error_body: dict | None = None
    model: str | None = None

    def answer(self, body: dict) -> str:
        """The answer text for this request body."""
        if self.text is not None:
            return self.text
        if self.text_fn is not None:
            return str(self.text_fn(body))
        return echo_text(body)


class ReceivedRequest(dict):
    """A received request: the parsed JSON body, plus method/path/headers/raw."""

    def __init__(self, method: str, path: str, headers: dict[str, str], raw: bytes, body: dict):
        super().__init__(body)
        self.method = method
        self.path = path
        self.headers = headers
        self.raw = raw

    @property
    def body(self) -> dict:
        return dict(self)

    def __repr__(self) -> str:
        return f"ReceivedRequest({self.method} {self.path} {dict.__repr__(self)})"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # [{"type": "text", "text": ...}, ...]
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def echo_text(body: dict) -> str:
    """Default answer: the last user message (chat) or the prompt (completions)."""
    for msg in reversed(body.get("messages") or []):
        if isinstance(msg, dict) and msg.get("role") == "user":
            return _content_text(msg.get("content"))
    prompt = body.get("prompt")
    if isinstance(prompt, list):
        prompt = prompt[0] if prompt else ""
    return _content_text(prompt)


def _pieces(text: str, words: int) -> list[str]:
    tokens = re.findall(r"\s*\S+\s*|\s+", text)
    words = max(1, words)
    return ["".join(tokens[i : i + words]) for i in range(0, len(tokens), words)]


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
}

_PATHS = {
    "/v1/chat/completions": "chat",
    "/chat/completions": "chat",
    "/v1/completions": "completion",
    "/completions": "completion",
}


class _Cut(Exception):
    """Raised inside the handler to abandon a response and drop the connection."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive + chunked, like real servers
    server_version = "FakeOpenAI/1.0"
    fake: "FakeOpenAI"  # set on the subclass made per server

    def log_message(self, format: str, *args: Any) -> None:  # silence stderr
        pass

    # ---------- plumbing ----------
    def _read_request(self) -> ReceivedRequest:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
            if not isinstance(body, dict):
                body = {}
        except ValueError:
            body = {}
        headers = {k.lower(): v for k, v in self.headers.items()}
        path = self.path.split("?", 1)[0]
        req = ReceivedRequest(self.command, path, headers, raw, body)
        self.fake._record(req)
        return req

    def _send_json(self, status: int, obj: Any, extra: dict[str, str] | None = None) -> None:
        data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _sse(self, obj: Any) -> None:
        payload = obj if isinstance(obj, str) else json.dumps(obj)
        self._write_chunk(f"data: {payload}\n\n".encode())

    def _abort(self) -> None:
        """Close the connection abruptly, mid-response."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        raise _Cut()

    # ---------- routes ----------
    def do_GET(self) -> None:  # noqa: N802
        req = self._read_request()
        if req.path in ("/v1/models", "/models"):
            models = [{"id": m, "object": "model", "created": 0, "owned_by": "fake-openai"} for m in self.fake.models]
            self._send_json(200, {"object": "list", "data": models})
        else:
            self._not_found(req.path)

    def do_POST(self) -> None:  # noqa: N802
        req = self._read_request()
        kind = _PATHS.get(req.path)
        if kind is None:
            self._not_found(req.path)
            return
        try:
            self._complete(kind, req, self.fake._next_reply())
        except _Cut:
            pass
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _not_found(self, path: str) -> None:
        err = {"error": {"message": f"Unknown path {path}", "type": "not_found_error", "code": None}}
        self._send_json(404, err)

    def _complete(self, kind: str, req: ReceivedRequest, reply: Reply) -> None:
        fake = self.fake
        if reply.delay and fake._stopping.wait(reply.delay):
            self._abort()

        if reply.status >= 400:
            body = reply.error_body or {
                "error": {
                    "message": f"scripted error {reply.status}",
                    "type": _ERROR_TYPES.get(reply.status, "server_error"),
                    "code": None,
                }
            }
            self._send_json(reply.status, body, reply.headers)
            return

        stream = bool(req.get("stream"))
        text = reply.answer(req.body)
        model = reply.model or req.get("model") or fake.models[0]
        ident = f"{'chatcmpl' if kind == 'chat' else 'cmpl'}-fake-{next(fake._ids)}"
        created = int(time.time())
        pieces = _pieces(text, reply.chunk_words)
        prompt_tokens = len(json.dumps(req.get("messages", req.get("prompt", ""))).split())
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": len(pieces),
            "total_tokens": prompt_tokens + len(pieces),
        }

        if not stream:
            if reply.malformed:
                self._send_json(reply.status, b'{"id": "broken"', reply.headers)
                return
            if kind == "chat":
                choice = {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "logprobs": None,
                    "finish_reason": reply.finish_reason,
                }
                obj = "chat.completion"
            else:
                choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": reply.finish_reason}
                obj = "text_completion"
            full = {"id": ident, "object": obj, "created": created, "model": model, "choices": [choice], "usage": usage}
            if reply.cut_after is not None:
                data = json.dumps(full).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self._abort()
            self._send_json(reply.status, full, reply.headers)
            return

        # ---- streaming (SSE over chunked transfer encoding) ----
        self.send_response(reply.status)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for k, v in reply.headers.items():
            self.send_header(k, v)
        self.end_headers()

        obj = "chat.completion.chunk" if kind == "chat" else "text_completion"

        def chunk(delta: dict | None = None, piece: str = "", finish: str | None = None) -> dict:
            if kind == "chat":
                choice = {"index": 0, "delta": delta or {}, "logprobs": None, "finish_reason": finish}
            else:
                choice = {"index": 0, "text": piece, "logprobs": None, "finish_reason": finish}
            return {"id": ident, "object": obj, "created": created, "model": model, "choices": [choice]}

        if kind == "chat":
            self._sse(chunk({"role": "assistant", "content": ""}))
        if reply.malformed:
            self._sse('{"id": "broken"')
        for i, piece in enumerate(pieces):
            if reply.cut_after is not None and i >= reply.cut_after:
                self._abort()
            if reply.chunk_delay and fake._stopping.wait(reply.chunk_delay):
                self._abort()
            self._sse(chunk({"content": piece}, piece))
        if reply.cut_after is not None and reply.cut_after >= len(pieces):
            self._abort()  # cut after everything was sent, before finish/[DONE]
        self._sse(chunk({}, "", reply.finish_reason))
        if (req.get("stream_options") or {}).get("include_usage"):
            self._sse({"id": ident, "object": obj, "created": created, "model": model, "choices": [], "usage": usage})
        self._sse("[DONE]")
        self._write_chunk(b"")  # terminating zero-length chunk


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, addr: tuple[str, int], handler: type, fake: "FakeOpenAI"):
        self.fake = fake
        super().__init__(addr, handler)

    def process_request(self, request: socket.socket, client_address: Any) -> None:
        with self.fake._lock:
            self.fake._conns.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: socket.socket) -> None:
        with self.fake._lock:
            self.fake._conns.discard(request)
        super().shutdown_request(request)


class FakeOpenAI:
    """OpenAI-compatible HTTP test server on 127.0.0.1 (see module docstring)."""

    def __init__(
        self,
        script: Iterable[Reply] | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        models: Iterable[str] = ("fake-model",),
    ):
        self.host = host
        self.port = port
        self.models = list(models)
        self.requests: list[ReceivedRequest] = []
        self._script: list[Reply] = list(script or [])
        self._cursor = 0
        self._lock = threading.Lock()
        self._conns: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # ---------- lifecycle ----------
    def start(self) -> "FakeOpenAI":
        if self._httpd is not None:
            return self
        self._stopping.clear()
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = _Server((self.host, self.port), handler, self)
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name=f"FakeOpenAI:{self.port}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        with self._lock:
            conns = list(self._conns)
            self._conns.clear()
        for conn in conns:  # wake handler threads parked on kept-alive sockets
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """Root URL without the /v1 prefix, e.g. ``http://127.0.0.1:PORT``."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What OpenAI clients want as base_url / api_base: ``http://127.0.0.1:PORT/v1``."""
        return f"{self.url}/v1"

    # ---------- scripting / inspection ----------
    def script(self, replies: Iterable[Reply]) -> "FakeOpenAI":
        """Replace the script; replies are consumed in order, the last repeats. [] = echo."""
        with self._lock:
            self._script = list(replies)
            self._cursor = 0
        return self

    def reset(self) -> None:
        """Forget received requests and the script (back to echo mode)."""
        with self._lock:
            self.requests.clear()
            self._script = []
            self._cursor = 0

    @property
    def completion_requests(self) -> list[ReceivedRequest]:
        """Only the POSTs to chat/completions endpoints."""
        with self._lock:
            return [r for r in self.requests if r.method == "POST" and r.path in _PATHS]

    def _record(self, req: ReceivedRequest) -> None:
        with self._lock:
            self.requests.append(req)

    def _next_reply(self) -> Reply:
        with self._lock:
            if not self._script:
                return Reply()
            reply = self._script[min(self._cursor, len(self._script) - 1)]
            self._cursor += 1
            return reply

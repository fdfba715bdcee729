"""FakeOpenAI proven against the real `openai` client and LlamaIndex's OpenAILike."""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import openai
import pytest
from llama_index.core.llms import ChatMessage
from llama_index.llms.openai_like import OpenAILike

try:  # works whether or not tests/ is a package
    from tests.openai_server import FakeOpenAI, Reply
except ImportError:  # pragma: no cover
    from openai_server import FakeOpenAI, Reply

FAST_429 = Reply(status=429, headers={"Retry-After": "0", "retry-after-ms": "1"})
MSGS = [
    {"role": "system", "content": "Answer only from the abstracts; cite [n]."},
    {"role": "user", "content": "What does PipeFSDP do?"},
]


@pytest.fixture
def server():
    with FakeOpenAI() as s:
        yield s


def client(server: FakeOpenAI, **kw) -> openai.OpenAI:
    kw.setdefault("max_retries", 0)
    kw.setdefault("timeout", 10)
    return openai.OpenAI(base_url=server.base_url, api_key="x", **kw)


def llm(server: FakeOpenAI, **kw) -> OpenAILike:
    kw.setdefault("max_retries", 0)
    kw.setdefault("timeout", 10)
    return OpenAILike(api_base=server.base_url, api_key="x", model="any", is_chat_model=True, **kw)


# ---------------------------------------------------------------- basics


def test_binds_loopback_free_port_and_stops():
    s = FakeOpenAI().start()
    try:
        assert s.base_url == f"http://127.0.0.1:{s.port}/v1" and s.port > 0
        assert client(s).models.list().data[0].id == "fake-model"
    finally:
        s.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", s.port), timeout=1).close()
    s.stop()  # idempotent


def test_two_servers_get_different_ports():
    with FakeOpenAI() as a, FakeOpenAI() as b:
        assert a.port != b.port


# ---------------------------------------------------------------- openai client


def test_openai_nonstreaming_chat_and_request_recording(server):
    server.script([Reply(text="PipeFSDP cuts bubbles [1].")])
    r = client(server).chat.completions.create(model="gpt-x", messages=MSGS, temperature=0.1)
    assert r.choices[0].message.content == "PipeFSDP cuts bubbles [1]."
    assert r.choices[0].finish_reason == "stop"
    assert r.model == "gpt-x" and r.usage.completion_tokens == 4

    (req,) = server.requests
    assert req.method == "POST" and req.path == "/v1/chat/completions"
    assert req["messages"] == MSGS and req["temperature"] == 0.1 and not req.get("stream")
    assert req.headers["authorization"] == "Bearer x"
    assert json.loads(req.raw) == req.body


def test_openai_streaming_chat(server):
    server.script([Reply(text="PipeFSDP cuts bubbles [1].")])
    stream = client(server).chat.completions.create(
        model="m", messages=MSGS, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    deltas = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert deltas == ["PipeFSDP ", "cuts ", "bubbles ", "[1]."]
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].usage.completion_tokens == 4
    assert server.requests[0]["stream"] is True


def test_openai_completions_endpoint_both_modes(server):
    server.script([Reply(text="Paris is the capital.")])
    c = client(server)
    assert c.completions.create(model="m", prompt="Capital?").choices[0].text == "Paris is the capital."
    text = "".join(ch.choices[0].text for ch in c.completions.create(model="m", prompt="Capital?", stream=True))
    assert text == "Paris is the capital."
    assert [r.path for r in server.requests] == ["/v1/completions"] * 2


def test_echo_mode_and_text_fn(server):
    c = client(server)
    assert c.chat.completions.create(model="m", messages=MSGS).choices[0].message.content == "What does PipeFSDP do?"
    server.script([Reply(text_fn=lambda body: f"{len(body['messages'])} messages")])
    assert c.chat.completions.create(model="m", messages=MSGS).choices[0].message.content == "2 messages"


def test_script_is_consumed_in_order_and_last_repeats(server):
    server.script([Reply(text="one"), Reply(text="two")])
    c = client(server)
    got = [c.chat.completions.create(model="m", messages=MSGS).choices[0].message.content for _ in range(4)]
    assert got == ["one", "two", "two", "two"]
    c.models.list()  # GET does not consume the script
    assert len(server.completion_requests) == 4 and len(server.requests) == 5


def test_openai_429_then_success_retries(server):
    server.script([FAST_429, FAST_429, Reply(text="ok after retry")])
    r = client(server, max_retries=2).chat.completions.create(model="m", messages=MSGS)
    assert r.choices[0].message.content == "ok after retry"
    assert len(server.requests) == 3


def test_openai_429_without_retries_raises_rate_limit(server):
    server.script([FAST_429, Reply(text="never reached")])
    with pytest.raises(openai.RateLimitError) as exc:
        client(server, max_retries=0).chat.completions.create(model="m", messages=MSGS)
    assert exc.value.status_code == 429 and exc.value.response.headers["retry-after"] == "0"
    assert len(server.requests) == 1


def test_openai_500_error_body(server):
    server.script([Reply(status=500, error_body={"error": {"message": "boom", "type": "server_error"}})])
    with pytest.raises(openai.InternalServerError, match="boom"):
        client(server).chat.completions.create(model="m", messages=MSGS)


def test_openai_stream_cut_raises_catchable_error(server):
    server.script([Reply(text="one two three four five", cut_after=2)])
    stream = client(server).chat.completions.create(model="m", messages=MSGS, stream=True)
    got = []
    with pytest.raises((httpx.HTTPError, openai.APIError)):
        for ch in stream:
            if ch.choices and ch.choices[0].delta.content:
                got.append(ch.choices[0].delta.content)
    assert got == ["one ", "two "]


def test_openai_nonstream_cut_raises(server):
    server.script([Reply(text="one two three", cut_after=0)])
    with pytest.raises((httpx.HTTPError, openai.APIError)):
        client(server).chat.completions.create(model="m", messages=MSGS)


def test_openai_malformed_json_raises(server):
    server.script([Reply(malformed=True)])
    with pytest.raises(json.JSONDecodeError):
        client(server).chat.completions.create(model="m", messages=MSGS)


def test_openai_malformed_stream_event_raises(server):
    server.script([Reply(text="never", malformed=True)])
    with pytest.raises(json.JSONDecodeError):
        list(client(server).chat.completions.create(model="m", messages=MSGS, stream=True))


def test_empty_answer(server):
    server.script([Reply(text="")])
    c = client(server)
    assert c.chat.completions.create(model="m", messages=MSGS).choices[0].message.content == ""
    chunks = list(c.chat.completions.create(model="m", messages=MSGS, stream=True))
    assert "".join(ch.choices[0].delta.content or "" for ch in chunks) == ""
    assert chunks[-1].choices[0].finish_reason == "stop"


def test_delay_triggers_client_timeout(server):
    server.script([Reply(text="late", delay=2)])
    t = time.monotonic()
    with pytest.raises(openai.APITimeoutError):
        client(server, timeout=0.3).chat.completions.create(model="m", messages=MSGS)
    assert time.monotonic() - t < 1.5


def test_stop_does_not_hang_on_pending_delay():
    s = FakeOpenAI([Reply(text="late", delay=30)]).start()
    errors = []

    def call():
        try:
            httpx.post(f"{s.base_url}/chat/completions", json={}, timeout=60)
        except httpx.HTTPError as e:  # the server drops the pending request
            errors.append(e)

    t = threading.Thread(target=call)
    t.start()
    time.sleep(0.2)
    t0 = time.monotonic()
    s.stop()
    t.join(5)
    assert time.monotonic() - t0 < 3 and not t.is_alive()


def test_unknown_path_404(server):
    r = httpx.post(f"{server.base_url}/embeddings", json={"input": "x"})
    assert r.status_code == 404 and "error" in r.json()


# ---------------------------------------------------------------- LlamaIndex OpenAILike


def test_openailike_chat(server):
    server.script([Reply(text="PipeFSDP cuts bubbles [1].")])
    resp = llm(server).chat([ChatMessage(role="system", content="cite"), ChatMessage(role="user", content="q?")])
    assert resp.message.content == "PipeFSDP cuts bubbles [1]."
    assert server.requests[0]["model"] == "any"
    assert [m["role"] for m in server.requests[0]["messages"]] == ["system", "user"]


def test_openailike_stream_chat(server):
    server.script([Reply(text="PipeFSDP cuts bubbles [1].")])
    deltas = [r.delta for r in llm(server).stream_chat([ChatMessage(role="user", content="q?")])]
    assert "".join(d for d in deltas if d) == "PipeFSDP cuts bubbles [1]."
    assert server.requests[0]["stream"] is True


def test_openailike_complete_uses_chat_endpoint(server):
    server.script([Reply(text="answer")])
    assert llm(server).complete("prompt").text == "answer"
    assert server.requests[0].path == "/v1/chat/completions"


def test_openailike_429_then_success(server):
    server.script([FAST_429, Reply(text="ok")])
    assert llm(server, max_retries=2).chat([ChatMessage(role="user", content="q")]).message.content == "ok"
    assert len(server.requests) == 2


def test_openailike_stream_cut_raises_catchable_error(server):
    server.script([Reply(text="one two three four", cut_after=1)])
    got = []
    with pytest.raises((httpx.HTTPError, openai.APIError)):
        for r in llm(server).stream_chat([ChatMessage(role="user", content="q")]):
            got.append(r.delta)
    assert "".join(d for d in got if d) == "one "


def test_openailike_malformed_json_raises(server):
    server.script([Reply(malformed=True)])
    with pytest.raises(ValueError):  # json.JSONDecodeError
        llm(server).chat([ChatMessage(role="user", content="q")])


def test_openailike_empty_answer(server):
    server.script([Reply(text="")])
    assert (llm(server).chat([ChatMessage(role="user", content="q")]).message.content or "") == ""


def test_openailike_async_stream_chat(server):
    import asyncio

    server.script([Reply(text="async works [1].")])

    async def go() -> str:
        out = ""
        async for r in await llm(server).astream_chat([ChatMessage(role="user", content="q")]):
            out += r.delta or ""
        return out

    assert asyncio.run(go()) == "async works [1]."

"""The web app's API through gradio_client against a real loopback server, and the UI's safety helpers."""

from __future__ import annotations

import json
import re
import shutil
from types import SimpleNamespace

import pytest

from tests.ui_server import KELP_RECORD, running_app

PIPEFSDP_QUESTION = "What does PipeFSDP improve over TorchTitan?"


@pytest.fixture(scope="module")
def served(seed_store_dir, tmp_path_factory):
    """The app over a private copy of the seed store; ``chat.calls`` records what the UI asked rag."""
    from gradio_client import Client

    from rag import PaperChat

    class RecordingChat(PaperChat):
        calls: list = []

        def stream(self, question, history=(), k=None, filters=None):
            self.calls.append(SimpleNamespace(question=question, history=list(history), k=k, filters=filters))
            return super().stream(question, history, k, filters)

    store = tmp_path_factory.mktemp("ui-api") / "store"
    shutil.copytree(seed_store_dir, store)
    chat = RecordingChat(store_dir=store)
    with running_app(chat) as url:
        yield SimpleNamespace(client=Client(url, verbose=False), chat=chat, store=store, url=url)


def test_named_endpoints_and_no_glue(served):
    endpoints = served.client.view_api(return_format="dict", print_info=False)["named_endpoints"]
    for name in ("/chat", "/ask", "/compare", "/search_papers", "/ingest", "/papers"):
        assert name in endpoints
    assert not any(name.startswith(("/take_retry", "/pick_example", "/set_prefs", "/lambda")) for name in endpoints)


def test_ask_returns_the_answer_with_citations(served):
    result = served.client.predict(PIPEFSDP_QUESTION, 0, api_name="/ask")
    assert "[1]" in result["text"] and not result["refused"]
    first = result["citations"][0]
    assert first["n"] == 1 and first["paper"]["name"] == "PipeFSDP"
    assert first["quote"] and first["quote"] in first["paper"]["abstract"].replace("$\\times$", "×")
    assert len(result["papers"]) == served.chat.settings.retrieval.top_k


def test_overlong_questions_get_a_message_and_empty_ones_the_help_reply(served):
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="limited to 2,000 characters"):
        served.client.predict("why " * 600, 0, api_name="/ask")
    empty = served.client.predict("   ", 0, api_name="/ask")  # the help reply: what is loaded, what to ask
    assert empty["kind"] == "help" and not empty["refused"] and "papers are loaded" in empty["text"]


def test_chat_streams_and_passes_the_conversation(served):
    client = served.client
    job = client.submit(PIPEFSDP_QUESTION, [], api_name="/chat")
    history, sources, box = job.result()
    assert len(job.outputs()) >= 2  # the placeholder, then the final answer
    assert box == ""
    assert [m["role"] for m in history] == ["user", "assistant"]
    answer = history[-1]["content"][0]["text"] if isinstance(history[-1]["content"], list) else history[-1]["content"]
    assert re.search(r"\[\\\[1\\\]\]\(#source-1-q0 \"", answer)  # [1] links to the sentence it cites
    assert "id='source-1'" in sources and "<mark id='source-1-q0'>" in sources and "PipeFSDP" in sources
    first_answer_text = served.chat.calls[-1]

    follow_up = "How does it choose the FSDP and PP degrees?"
    client.predict(follow_up, history, api_name="/chat")
    call = served.chat.calls[-1]
    assert call.question == follow_up
    assert [q for q, _ in call.history] == [first_answer_text.question]
    assert "PipeFSDP" in call.history[0][1] and "[1]" in call.history[0][1]
    assert call.k == served.chat.settings.retrieval.top_k and not call.filters


def test_compare_endpoint(served):
    markdown, sources = served.client.predict(["PhysVista", "PhyProbe"], api_name="/compare")
    assert "PhysVista" in markdown and "PhyProbe" in markdown
    assert "(#cmp-source-1)" in markdown and "(#cmp-source-2)" in markdown
    assert sources.count("class='pc-source'") == 2
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="Pick two or three papers"):
        served.client.predict(["PhysVista"], api_name="/compare")


def test_search_papers_filters_the_table(served):
    table = served.client.predict("physvista", api_name="/search_papers")
    assert table["headers"] == ["Name", "Title", "Year", "Venue", "Source"]
    assert [row[0] for row in table["data"]] == ["PhysVista"]
    everything = served.client.predict("", api_name="/search_papers")
    assert len(everything["data"]) == len(served.client.predict(api_name="/papers"))


def test_ingest_endpoint_adds_papers_and_reports_bad_lines(served, tmp_path):
    from gradio_client import handle_file

    before = len(served.client.predict(api_name="/papers"))
    upload = tmp_path / "kelp papers.jsonl"
    upload.write_text(json.dumps(KELP_RECORD) + "\n{broken\n")
    report, header, *_ = served.client.predict([handle_file(str(upload))], api_name="/ingest")
    assert "1 added" in report and "1 rejected" in report
    assert "<td>2</td>" in report and "invalid JSON" in report
    assert f"<b>{before + 1}</b> papers" in header
    papers = served.client.predict(api_name="/papers")
    assert len(papers) == before + 1 and any(p["name"] == "KelpSeg" for p in papers)
    assert (served.store / "uploads" / "kelp_papers.jsonl").read_text() == upload.read_text()


# ---- safety helpers, no server ----


def _paper(**fields):
    from store.paper import Paper

    base = dict(paper_id="p-1", name="ZebraNet", title="ZebraNet: zebra crossings", source="x.jsonl", ordinal=0,
                abstract="", text="", year=2025, venue="ICRA", score=0.5)
    return Paper(**{**base, **fields})


def test_sources_and_answers_escape_html():
    from rag.types import Answer, Citation
    from ui.render import answer_markdown, paper_detail_html, sources_html

    evil = 'Fast. <script>window.__pwned=1</script> And <img src=x onerror="window.__pwned=1"> works.'
    paper = _paper(abstract=evil, text=evil, name="<b>Zebra</b>", url="javascript:alert(1)")
    answer = Answer(text=f"{evil} [1] ![x](http://evil.example/t.png)",
                    citations=[Citation(1, paper, "And <img src=x onerror=\"window.__pwned=1\"> works.")],
                    papers=[paper, _paper(paper_id="p-2", text="<svg onload=alert(1)>")])
    for page in (sources_html(answer), paper_detail_html(paper)):
        assert "<script" not in page and "<img" not in page and "<svg" not in page and "<b>Zebra" not in page
        assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page
    assert "javascript:" not in paper_detail_html(paper)
    assert "<mark id='source-1-q0'>And &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt; works.</mark>" in sources_html(answer)
    markdown = answer_markdown(answer)
    assert "\\<script\\>" in markdown and "<script" not in markdown.replace("\\<script", "")
    assert "![x]" not in markdown  # no remote images
    # [1] links to the sentence it cites, which is its tooltip, escaped like the rest
    assert r'''[\[1\]](#source-1-q0 "And \<img src=x onerror='window.__pwned=1'\> works.")''' in markdown
    assert "<mark id='source-1-q0'>And &lt;img" in sources_html(answer)


def test_escape_markdown_keeps_markdown_and_neutralises_html():
    from ui.render import escape_markdown

    assert escape_markdown("| a \\| b | **c** |") == "| a \\| b | **c** |"
    assert escape_markdown("x<y") == "x\\<y"
    assert escape_markdown("\\<img>") == "\\\\\\<img\\>"  # a backslash cannot re-enable the tag


def test_upload_names_are_sanitised_and_sizes_capped(tmp_path):
    from ui.uploads import UploadRejected, safe_filename, stage_upload

    assert safe_filename("../../etc/passwd.csv") == "passwd.csv"
    assert safe_filename("..\\..\\evil name!.JSONL") == "evil_name.jsonl"
    assert safe_filename(".bashrc") == "bashrc"
    assert safe_filename("") == "upload"
    uploads = tmp_path / "store" / "uploads"
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"x" * 2048)
    staged = stage_upload(src, uploads, max_mb=1, original_name="../../../outside.jsonl")
    assert staged == (uploads / "outside.jsonl").resolve() and not (tmp_path / "outside.jsonl").exists()
    with pytest.raises(UploadRejected, match="over the 0.001 MB upload limit"):
        stage_upload(src, uploads, max_mb=0.001)
    with pytest.raises(UploadRejected, match="only .txt"):
        stage_upload(src, uploads, max_mb=1, original_name="run.sh")


def test_paper_map_is_cached_per_ingest(seed_chat, tmp_path):
    from store.projection import CACHE_FILE

    coords = seed_chat.paper_map()
    assert len(coords) == 38 and all(len(xy) == 2 for xy in coords.values())
    cache = seed_chat.settings.store.dir / CACHE_FILE
    stamp = cache.stat().st_mtime_ns
    assert seed_chat.paper_map() == coords and cache.stat().st_mtime_ns == stamp  # read, not recomputed
    upload = tmp_path / "new.jsonl"
    upload.write_text(json.dumps(KELP_RECORD) + "\n")
    seed_chat.ingest([upload])
    assert len(seed_chat.paper_map()) == 39


def test_launch_refuses_open_binding_without_auth(seed_chat):
    from ui.web import launch_options

    assert launch_options(seed_chat)["server_name"] == "127.0.0.1"
    with pytest.raises(ValueError, match="--auth"):
        launch_options(seed_chat, host="0.0.0.0")
    with pytest.raises(ValueError, match="--auth"):
        launch_options(seed_chat, share=True)
    options = launch_options(seed_chat, host="0.0.0.0", auth="ann:secret")
    assert options["auth"] == ("ann", "secret") and options["max_file_size"] == "50mb"


def test_session_prefs_validate_and_pick_the_llm(seed_chat):
    from ui.prefs import validate_prefs

    prefs, problems = validate_prefs("openai-compatible", "m", "ftp://x", 99, "2027", "2025", ["ICRA"])
    assert prefs.top_k == 30 and prefs.base_url == "" and prefs.venues == ("ICRA",)
    assert any("http://" in p for p in problems) and any("after" in p for p in problems)
    assert prefs.filters().year_min == 2027
    prefs, problems = validate_prefs("openai-compatible", "m", "http://127.0.0.1:9/v1", 5, "Any", "Any", [])
    assert not problems and not prefs.filters()
    twin = prefs.chat_for(seed_chat)
    assert twin is not seed_chat and twin.settings.llm.base_url == "http://127.0.0.1:9/v1"
    assert twin.retriever is seed_chat.retriever and seed_chat.settings.llm.backend == "extractive"
    extractive, _ = validate_prefs("extractive", "", "", 10, "Any", "Any", [])
    assert extractive.chat_for(seed_chat) is seed_chat


def test_cli_ui_says_which_port_is_busy_and_prints_no_share_hint(seed_store_dir, tmp_path):
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    from tests.servers import free_port

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    command = [str(Path(sys.executable).with_name("paperchat")), "--store-dir", str(store), "ui", "--port"]
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        taken = subprocess.run(command + [str(port)], capture_output=True, text=True, timeout=300)
    assert taken.returncode == 1
    assert taken.stderr.strip() == f"Error: port {port} is in use: start with --port N (another free port)"

    port = free_port()
    log = tmp_path / "ui.log"
    with log.open("w") as out:
        server = subprocess.Popen(command + [str(port)], stdout=out, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + 240
            while "PaperChat is running on" not in log.read_text() and time.monotonic() < deadline:
                assert server.poll() is None, log.read_text()
                time.sleep(0.5)
        finally:
            server.terminate()
            server.wait(timeout=30)
    printed = log.read_text()
    assert f"PaperChat is running on http://127.0.0.1:{port}" in printed
    assert "share=True" not in printed and "Traceback" not in printed


def test_validation_messages_reach_the_caller_and_leave_no_traceback_in_the_log(served, capfd):
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="Pick two or three papers to compare"):
        served.client.predict(["PhysVista"], api_name="/compare")
    with pytest.raises(AppError, match="limited to 2,000 characters"):
        served.client.predict("why " * 600, 0, api_name="/ask")
    logged = capfd.readouterr()
    assert "Traceback" not in logged.err + logged.out

"""Client-server mode: PaperChat against a real `chroma run` on loopback (HttpClient), end to end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rag import PaperChat
from store.errors import PaperChatError
from tests.servers import free_port, serving

CHROMA = Path(sys.executable).parent / "chroma"
REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "data"
START_TIMEOUT = 30.0
NAMED_QUESTION = "What does PipeFSDP improve over TorchTitan, and by how much in MFU and memory?"


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    """A `chroma run` server on a free loopback port with its own data dir; killed at teardown."""
    if not CHROMA.exists():
        pytest.skip(f"no chroma executable next to {sys.executable}")
    base = tmp_path_factory.mktemp("chroma-server")
    port = free_port()
    cmd = [str(CHROMA), "run", "--path", str(base / "db"), "--host", "127.0.0.1", "--port", str(port)]
    with serving(cmd, base / "server.log", f"http://127.0.0.1:{port}/api/v2/heartbeat", START_TIMEOUT):
        yield {"host": "127.0.0.1", "port": port, "path": base / "db"}


def _client_chat(server: dict, store_dir: Path, seed_store_dir: Path | None = None, **overrides) -> PaperChat:
    """A PaperChat whose Chroma is the server; its store dir holds only BM25 and the embedding cache."""
    if seed_store_dir is not None and (seed_store_dir / "embed-cache").is_dir() and not store_dir.exists():
        shutil.copytree(seed_store_dir / "embed-cache", store_dir / "embed-cache")  # seeds embedded once per run
    return PaperChat(store_dir=store_dir, store_chroma_host=server["host"], store_chroma_port=server["port"],
                     **overrides)


@pytest.fixture(scope="module")
def server_chat(chroma_server, seed_store_dir, tmp_path_factory) -> PaperChat:
    """The first client: it finds the server empty and ingests the bundled seeds into it."""
    return _client_chat(chroma_server, tmp_path_factory.mktemp("client-a") / "store", seed_store_dir)


def test_first_start_ingests_the_seeds_into_the_server(server_chat, chroma_server):
    assert len(server_chat.papers()) == 38
    assert server_chat.store.client.get_version()  # an HttpClient: it asks the server
    assert not (server_chat.settings.store.dir / "chroma").exists()  # nothing stored locally
    assert (chroma_server["path"] / "chroma.sqlite3").exists()


def test_named_paper_question_gets_a_cited_answer(server_chat):
    answer = server_chat.ask(NAMED_QUESTION)
    assert not answer.refused
    assert answer.citations and answer.citations[0].paper.name == "PipeFSDP"
    assert "[1]" in answer.text
    assert answer.citations[0].quote  # the supporting sentence, read back from the server


def test_second_ingest_adds_nothing(server_chat):
    chunks = server_chat.store.chunk_count()
    report = server_chat.ingest([SEEDS])
    assert (report.added, report.updated, report.unchanged) == (0, 0, 38)
    assert server_chat.store.chunk_count() == chunks


def test_two_instances_see_the_same_papers(server_chat, chroma_server, tmp_path):
    other = _client_chat(chroma_server, tmp_path / "client-b")  # its own BM25 cache, no embedding cache
    assert {p.paper_id for p in other.papers()} == {p.paper_id for p in server_chat.papers()}
    assert [h.paper.paper_id for h in other.retrieve_hits(NAMED_QUESTION)][:3] == \
        [h.paper.paper_id for h in server_chat.retrieve_hits(NAMED_QUESTION)][:3]

    new = tmp_path / "new.jsonl"
    new.write_text(json.dumps({
        "id": "server-test-1", "title": "QuokkaNet: Marsupial-Inspired Sparse Attention",
        "abstract": "We propose QuokkaNet, a sparse attention scheme that routes each query to a handful of "
                    "key blocks chosen by a learned pouch gate. QuokkaNet halves attention cost on long "
                    "documents while matching dense attention accuracy on retrieval benchmarks.",
        "year": 2026, "venue": "NeurIPS",
    }) + "\n")
    assert other.ingest([new]).added == 1
    third = _client_chat(chroma_server, tmp_path / "client-c")
    assert len(third.papers()) == 39
    hits = third.retrieve_hits("How does QuokkaNet choose key blocks?")
    assert hits[0].paper.paper_id == "server-test-1"
    third.store.delete_papers(["server-test-1"])  # leave the module's server as the other tests expect


def test_cli_ask_through_the_server_by_url_env(server_chat, chroma_server, tmp_path):
    """`paperchat ask --json` in a new process, the server named by PAPERCHAT_STORE__CHROMA_HOST as a URL."""
    env = {**os.environ, "PAPERCHAT_STORE__CHROMA_HOST": f"http://127.0.0.1:{chroma_server['port']}",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-c", "from ui.cli import main; main(prog_name='paperchat')", "--store-dir",
         str(tmp_path / "cli-store"), "ask", "--json", NAMED_QUESTION],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    answer = json.loads(proc.stdout)
    assert answer["citations"][0]["paper"]["name"] == "PipeFSDP"
    assert not (tmp_path / "cli-store" / "chroma").exists()


def test_chroma_url_setting_reaches_the_server(chroma_server, tmp_path):
    chat = PaperChat(store_dir=tmp_path / "store", store_chroma_host=f"http://127.0.0.1:{chroma_server['port']}",
                     store_bundled_corpus=False)
    assert chat.store.paper_count() >= 38


def test_unreachable_server_is_one_clear_error(tmp_path):
    chat = PaperChat(store_dir=tmp_path / "store", store_chroma_host="127.0.0.1", store_chroma_port=free_port())
    with pytest.raises(PaperChatError, match="Cannot reach the Chroma server at 127.0.0.1"):
        chat.store

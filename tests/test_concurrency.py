"""Nobody waits on a broken answer: 20 gradio_client users against one app, with an upload ingesting meanwhile.

CI asks 3 questions per client; ``TEST_QUESTIONS_PER_CLIENT=10`` runs the full 20 x 10.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from rag import PaperChat
from tests.ui_server import running_app

CLIENTS = 20
QUESTIONS_PER_CLIENT = int(os.environ.get("TEST_QUESTIONS_PER_CLIENT", "3"))
QUESTIONS = [
    "What does PipeFSDP improve over TorchTitan?", "What does PhysVista evaluate?", "What is PatchKV?",
    "How does PhyProbe probe physical understanding?", "What is ViDiC-1K used for?",
    "What does UniCon3R reconstruct?", "How is Sync-R1 trained?", "What does PURGE remove?",
    "What does VisualMem store?", "What is JRS-Rem?",
]
# Papers the upload rewrites (same id, one more sentence) while users ask about them.
UPDATED = ("PatchKV", "VisualMem", "PURGE")
NEW_PAPERS = 8


@pytest.fixture(scope="module")
def served(seed_store_dir, tmp_path_factory):
    """The real app (ui.web.launch) on a loopback port over a private copy of the seed store."""
    store = tmp_path_factory.mktemp("served") / "store"
    shutil.copytree(seed_store_dir, store)
    chat = PaperChat(store_dir=store)
    chat.retriever  # warm: the first question should not pay for loading BM25
    with running_app(chat) as url:
        yield chat, url


def last_answer(history: list[dict]) -> str:
    content = history[-1]["content"]
    return content if isinstance(content, str) else " ".join(part.get("text", "") for part in content)


def upload_file(chat: PaperChat, path) -> None:
    """New papers plus new versions of papers users are asking about."""
    by_name = {p.name: p for p in chat.papers()}
    records = [{"abstract": f"We introduce Zephyr{i}Net, a recurrent model for tidal energy forecasting at site {i}. "
                            f"Zephyr{i}Net cuts forecast error by a fifth against numerical baselines."}
               for i in range(NEW_PAPERS)]
    records += [{"id": by_name[n].paper_id, "abstract": by_name[n].abstract + " Code and data are released."}
                for n in UPDATED]
    path.write_text("\n".join(json.dumps(r) for r in records))


def test_twenty_clients_get_cited_answers_while_an_upload_ingests(served, tmp_path):
    from gradio_client import Client, handle_file

    chat, url = served
    latencies: list[float] = []
    errors: list[str] = []
    done = threading.Event()
    answered = [0]
    lock = threading.Lock()

    def user(index: int) -> None:
        client = Client(url, verbose=False)
        for j in range(QUESTIONS_PER_CLIENT):
            question = QUESTIONS[(index + j) % len(QUESTIONS)]
            start = time.monotonic()
            try:
                history, sources, box = client.predict(question, [], api_name="/chat")
            except Exception as exc:  # noqa: BLE001 - every failure is counted, none stops the run
                errors.append(f"client {index} q{j}: {type(exc).__name__}: {exc}")
                continue
            elapsed = time.monotonic() - start
            answer = last_answer(history)
            if "(#source-1)" not in answer or "id='source-1'" not in sources or "⚠️" in answer:
                errors.append(f"client {index} q{j} {question!r}: uncited answer {answer[:200]!r}")
            with lock:
                latencies.append(elapsed)
                answered[0] += 1

    upload = tmp_path / "more-papers.jsonl"
    upload_file(chat, upload)
    ingest_result: dict = {}

    def uploader() -> None:
        while answered[0] < CLIENTS and not done.is_set():  # start once users are being answered
            time.sleep(0.05)
        start = time.monotonic()
        try:
            result = Client(url, verbose=False).predict([handle_file(str(upload))], api_name="/ingest")
            ingest_result.update(report=result[0], seconds=time.monotonic() - start)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"upload: {type(exc).__name__}: {exc}")

    started = time.monotonic()
    with ThreadPoolExecutor(CLIENTS + 1) as pool:
        ingest_job = pool.submit(uploader)
        jobs = [pool.submit(user, i) for i in range(CLIENTS)]
        for job in jobs:
            job.result(timeout=600)
        done.set()
        ingest_job.result(timeout=600)
    wall = time.monotonic() - started

    latencies.sort()
    p50 = latencies[len(latencies) // 2] if latencies else float("nan")
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)] if latencies else float("nan")
    print(f"\nconcurrency: {CLIENTS} clients x {QUESTIONS_PER_CLIENT} questions = {len(latencies)} cited answers, "
          f"{len(errors)} errors; p50 {p50:.2f}s, p95 {p95:.2f}s, max {latencies[-1] if latencies else 0:.2f}s; "
          f"wall {wall:.1f}s; upload of {NEW_PAPERS} new + {len(UPDATED)} updated papers took "
          f"{ingest_result.get('seconds', float('nan')):.1f}s during the load")
    assert not errors, errors[:10]
    assert len(latencies) == CLIENTS * QUESTIONS_PER_CLIENT
    assert "8 added, 3 updated" in ingest_result["report"], ingest_result["report"]

    # The app sees the upload: new papers are found, updated ones still answer with citations.
    client = Client(url, verbose=False)
    for question, name in (("What does Zephyr3Net forecast?", "Zephyr3Net"), ("What is PatchKV?", "PatchKV")):
        answer = last_answer(client.predict(question, [], api_name="/chat")[0])
        assert "(#source-1)" in answer and name in answer, answer

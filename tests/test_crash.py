"""Crash safety: SIGKILL a real `paperchat ingest` at random points; the rerun ends with exactly the right store."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rag.lexical import load_bm25
from rag.settings import Settings
from store.chroma import PaperStore, open_client
from store.chunk import split_sentences
from store.doctor import check_store
from store.embed import build_embedder, embedder_dimension
from store.ingest import ingest_files
from store.parse import parse_file
from tests.test_reliability import (
    HashEmbedding,  # fast stand-in where the test is about write order
)

REPO = Path(__file__).resolve().parent.parent
N_PAPERS = 60
KILLS = int(os.environ.get("TEST_KILLS", "4"))
# Papers per write step in the killed runs: small, so kills land between steps, not only inside one.
BATCH = 8
# The real CLI entry point (`paperchat`), run from this checkout, with a smaller ingest batch.
CLI = ("import sys, store.ingest as ingest; ingest.INGEST_BATCH = int(sys.argv.pop(1)); "
       "from ui.cli import main; main(prog_name='paperchat')")
BATCH_STARTED = re.compile(r"embedding papers (\d+)-")  # the ingest progress line, once per batch

FIELDS = ["sparse attention", "graph neural networks", "diffusion models", "reinforcement learning",
          "federated learning", "speech recognition", "causal discovery", "neural radiance fields",
          "symbolic regression", "optimal transport", "active learning", "protein design"]
SETTINGS_ = ["long documents", "molecules", "city scenes", "warehouse robots", "hospitals"]


def write_corpus(path: Path, version: int = 1) -> Path:
    """60 two-sentence abstracts with ids; version 2 gives two papers in three a new abstract (3 or 1 sentences)."""
    lines = []
    for i in range(N_PAPERS):
        field, where = FIELDS[i % len(FIELDS)], SETTINGS_[i // len(FIELDS)]
        sentences = [f"We apply {field} to {where} and describe a method, numbered {i}, with a simple training recipe.",
                     f"On benchmark {i} it improves accuracy over strong baselines while using less compute."]
        if version == 2 and i % 3 == 0:
            sentences.append(f"Ablations on {where} show that every component of method {i} matters.")
        elif version == 2 and i % 3 == 1:
            sentences = sentences[:1]
        lines.append(json.dumps({"id": f"study-{i}", "title": f"Study {i}: {field} for {where}",
                                 "abstract": " ".join(sentences)}))
    path.write_text("\n".join(lines) + "\n")
    return path


def start_ingest(store_dir: Path, corpus: Path) -> tuple[subprocess.Popen, list[str]]:
    env = {**os.environ, "PAPERCHAT_STORE__BUNDLED_CORPUS": "false",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", CLI, str(BATCH), "--store-dir", str(store_dir), "ingest",
                             str(corpus)], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err: list[str] = []

    def pump() -> None:  # tqdm rewrites one line with \r: read raw chunks, not lines
        while chunk := os.read(proc.stderr.fileno(), 4096):
            err.append(chunk.decode(errors="replace"))

    threading.Thread(target=pump, daemon=True).start()
    return proc, err


def batches_started(err: list[str]) -> int:
    return len(set(BATCH_STARTED.findall("".join(err))))


def wait_for_batches(proc: subprocess.Popen, err: list[str], count: int, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while proc.poll() is None and batches_started(err) < count and time.monotonic() < deadline:
        time.sleep(0.02)


def inspect(settings: Settings, embedder) -> dict:
    """Open the store fresh in this process (the killed one is gone), check it, then let go of it."""
    from chromadb.api.client import SharedSystemClient

    SharedSystemClient.clear_system_cache()
    store = PaperStore(open_client(settings.store), settings.store.collection, embedder.model_name,
                       embedder_dimension(embedder))
    report = check_store(settings.store, embedder)
    bm25 = load_bm25(store, settings.store.dir / "bm25", 10)  # as a user asking right after the crash would
    state = {"papers": store.paper_count(), "chunks": store.chunk_count(), "report": report,
             "bm25_ids": sorted(node["node_id"] for node in bm25.corpus) if bm25 else [],
             "chunk_ids": [cid for cid, _, _ in store.iter_chunks()]}
    state["abstracts"] = {p.paper_id: p.abstract for p, _ in store.iter_papers()}
    state["chunks_by_paper"] = {}
    for cid, _, meta in store.iter_chunks():
        state["chunks_by_paper"].setdefault(meta["paper_id"], []).append(cid)
    SharedSystemClient.clear_system_cache()
    return state


@pytest.mark.slow
def test_sigkilled_ingest_reruns_to_the_exact_store(tmp_path):
    seed = int(os.environ.get("TEST_CRASH_SEED", random.randrange(10**6)))
    rng = random.Random(seed)
    v1, v2 = write_corpus(tmp_path / "v1.jsonl", 1), write_corpus(tmp_path / "v2.jsonl", 2)
    final = {p.paper_id: p for p in parse_file(v2).papers}
    expected = {pid: len(split_sentences(p.text)) for pid, p in final.items()}
    assert len(expected) == N_PAPERS
    store_dir = tmp_path / "store"
    settings = Settings(store={"dir": store_dir, "bundled_corpus": False})
    embedder = build_embedder(settings.embedding)

    survived, log, corpus, stored = 0, [], v1, 0
    for k in range(KILLS):
        if stored == N_PAPERS:
            corpus = v2  # v1 is in: kill the update instead (40 papers change)
        proc, err = start_ingest(store_dir, corpus)
        if k == 0:
            time.sleep(rng.uniform(0.3, 2.5))  # during start-up: imports, opening Chroma
        else:
            todo = N_PAPERS - stored if corpus is v1 else 40
            wait_for_batches(proc, err, rng.randint(1, max(1, -(-todo // BATCH))))
            time.sleep(rng.uniform(0.0, 0.6))  # somewhere in embedding or writing that batch
        alive = proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        survived += alive
        state = inspect(settings, embedder)
        stored = state["papers"]
        log.append(f"kill {k + 1} ({corpus.stem}): {'mid-run' if alive else 'after exit'}, "
                   f"{batches_started(err)} batch(es) started, {stored} papers / {state['chunks']} chunks on disk")
        # A paper counts as stored only with all its chunks: a kill may leave orphans, never partial papers.
        bad = [f.message for f in state["report"].findings if f.problem and f.check not in ("orphans",)]
        assert not bad, (log, bad)
        assert set(state["bm25_ids"]) == set(state["chunk_ids"])

    proc, err = start_ingest(store_dir, v2)
    assert proc.wait(timeout=300) == 0, "".join(err)[-2000:]
    state = inspect(settings, embedder)
    print(f"\ncrash test (seed {seed}): {survived} of {KILLS} SIGKILLs landed mid-ingest, then a full run")
    print("\n".join(log))

    assert state["papers"] == N_PAPERS
    assert len(state["chunk_ids"]) == len(set(state["chunk_ids"])) == sum(expected.values())
    assert {pid: len(ids) for pid, ids in state["chunks_by_paper"].items()} == expected
    for pid, ids in state["chunks_by_paper"].items():
        assert sorted(ids) == sorted(f"{pid}:{i}" for i in range(expected[pid]))
    assert state["abstracts"] == {pid: p.abstract for pid, p in final.items()}  # the v2 text, not v1
    assert state["report"].ok, [f.message for f in state["report"].findings]
    assert state["bm25_ids"] == sorted(state["chunk_ids"])  # BM25 and Chroma hold the same chunks
    assert survived >= 1  # at least one kill really interrupted an ingest


# ---------------------------------------------------------------- every write step, deterministically

WRITE_STEPS = ["unregister", "add_chunks", "trim_chunks", "add_papers", "bump_generation"]


class Killed(BaseException):
    """Stands in for SIGKILL at one write step (BaseException: nothing may catch and tidy up)."""


@pytest.mark.parametrize("step", WRITE_STEPS)
def test_interrupted_at_each_write_step_then_rerun_is_exact(step, tmp_path, monkeypatch):
    """Crash at the 2nd call of each write step while updating papers; rerun; the store is exact."""
    import store.ingest as ingest

    monkeypatch.setattr(ingest, "INGEST_BATCH", 3)
    settings = Settings(store={"dir": tmp_path / "store", "bundled_corpus": False})
    embedder = HashEmbedding()
    store = PaperStore(open_client(settings.store), "papers", embedder.model_name, 64)
    records = [json.loads(line) for line in write_corpus(tmp_path / "all.jsonl").read_text().splitlines()[:16]]
    v1 = [{**r, "id": f"paper-{i}"} for i, r in enumerate(records[:10])]
    v2 = [{**r, "id": f"paper-{i}"} for i, r in enumerate(records)]
    for record in v2[1:10:2]:  # half the stored papers lose their second sentence, six are new
        record["abstract"] = record["abstract"].split(". ")[0] + "."
    (tmp_path / "v1.jsonl").write_text("\n".join(json.dumps(r) for r in v1))
    (tmp_path / "v2.jsonl").write_text("\n".join(json.dumps(r) for r in v2))
    ingest_files([tmp_path / "v1.jsonl"], store, embedder)

    original = getattr(PaperStore, step)
    calls = {"n": 0}

    def crash_on_second(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise Killed(step)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(PaperStore, step, crash_on_second)
    with pytest.raises(Killed):
        ingest_files([tmp_path / "v2.jsonl"], store, embedder)
    monkeypatch.setattr(PaperStore, step, original)
    after_crash = check_store(settings.store, embedder)
    assert not [f for f in after_crash.findings if f.problem and f.check == "chunks"], after_crash.findings

    report = ingest_files([tmp_path / "v2.jsonl"], store, embedder)
    assert report.added + report.updated + report.unchanged == 16
    health = check_store(settings.store, embedder)
    assert health.ok and health.papers == 16, health.findings
    stored = {p.paper_id: p.abstract for p, _ in store.iter_papers()}
    assert stored == {f"paper-{i}": r["abstract"] for i, r in enumerate(v2)}

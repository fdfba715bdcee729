"""The store holds what the user loaded: the bundled corpus is only a demo for an empty store that is read from,
and the user's first ingest replaces it; papers can be listed per source and removed. CLI, Python API and UI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SEED_FILES

RECORDS = [
    {"title": "Inhaled budesonide in mild persistent asthma: a randomised trial",
     "abstract": "We randomised 412 adults with mild persistent asthma to inhaled budesonide or placebo for 52 weeks. "
                 "Budesonide reduced severe exacerbations by 44% and improved FEV1 by 120 mL.",
     "year": 2019, "venue": "Thorax"},
    {"title": "Xpert MTB/RIF for tuberculosis diagnosis in primary care",
     "abstract": "In 1,380 patients with presumed tuberculosis, Xpert MTB/RIF detected 91% of culture-positive cases. "
                 "Same-day treatment initiation rose from 18% to 56% after its introduction.",
     "year": 2021, "venue": "Lancet"},
    {"title": "Ambulatory blood pressure in chronic obstructive pulmonary disease",
     "abstract": "Twenty-four-hour ambulatory blood pressure was recorded in 96 patients with COPD and 60 controls. "
                 "Night-time systolic pressure was 9 mmHg higher in COPD and rose with airflow obstruction.",
     "year": 2020, "venue": "Chest"},
]


def write_records(path: Path, records=RECORDS) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def run_cli(store: Path, *args: str) -> subprocess.CompletedProcess:
    command = Path(sys.executable).with_name("paperchat")
    return subprocess.run([str(command), "--store-dir", str(store), *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def demo_store_dir(tmp_path_factory) -> Path:
    """A store that was empty when first read from, so it holds the bundled corpus as its demo."""
    from rag import PaperChat

    path = tmp_path_factory.mktemp("demo") / "store"
    chat = PaperChat(store_dir=path)
    assert len(chat.papers()) == 38 and chat.store.holds_demo()
    return path


@pytest.fixture
def demo_copy(demo_store_dir, tmp_path) -> Path:
    store = tmp_path / "demo-store"
    shutil.copytree(demo_store_dir, store)
    return store


def test_ingest_into_a_fresh_store_holds_exactly_the_files(tmp_path):
    from rag import PaperChat

    chat = PaperChat(store_dir=tmp_path / "store")
    report = chat.ingest([write_records(tmp_path / "pubmed.jsonl")])
    assert report.added == 3 and report.removed == 0
    assert sorted(p.title for p in chat.papers()) == sorted(r["title"] for r in RECORDS)
    assert chat.ask("How many papers are loaded?").text.startswith("3 papers are loaded")
    again = PaperChat(store_dir=tmp_path / "store")  # a later process sees the same, no demo added
    assert len(again.papers()) == 3 and not again.store.holds_demo()


def test_the_users_first_ingest_replaces_the_demo_corpus(demo_copy, tmp_path):
    from rag import PaperChat

    chat = PaperChat(store_dir=demo_copy)
    assert len(chat.papers()) == 38
    chat.ask("What does PipeFSDP improve?")  # caches built on the demo must not outlive it
    report = chat.ingest([write_records(tmp_path / "pubmed.jsonl")])
    assert report.removed == 38 and "demo papers were removed" in report.summary()
    assert len(chat.papers()) == 3 and not chat.store.holds_demo()
    answer = chat.ask("Which papers use medical imaging?")
    assert not any(c.paper.venue == "NeurIPS" for c in answer.citations)
    assert not any(c.paper.name == "PipeFSDP" for c in chat.ask("What does PipeFSDP improve?").citations)
    later = chat.ingest([write_records(tmp_path / "more.jsonl", RECORDS[:1] + [
        {"title": "Sputum eosinophils guide steroid dosing", "abstract": "Steroid doses titrated to sputum "
         "eosinophil counts halved exacerbations in 74 patients with asthma over two years."}])])
    assert later.removed == 0 and len(chat.papers()) == 4  # from then on, ingests add


def test_ingesting_the_bundled_files_keeps_them_as_the_users_own(demo_copy):
    from rag import PaperChat

    chat = PaperChat(store_dir=demo_copy)
    report = chat.ingest(SEED_FILES)
    assert (report.unchanged, report.removed) == (38, 0)
    assert len(chat.papers()) == 38 and not chat.store.holds_demo()


def test_cli_ingest_papers_remove_and_doctor(tmp_path):
    store = tmp_path / "store"
    first, second = write_records(tmp_path / "a.jsonl", RECORDS[:2]), write_records(tmp_path / "b.jsonl", RECORDS[2:])
    assert run_cli(store, "ingest", str(first), str(second)).returncode == 0
    listed = run_cli(store, "papers")
    assert len(listed.stdout.splitlines()) == 3
    assert "3 papers from 2 source(s): a.jsonl (2), b.jsonl (1)" in listed.stderr

    removed = run_cli(store, "remove", "a.jsonl#1")
    assert removed.returncode == 0 and "removed a.jsonl#1" in removed.stdout
    removed = run_cli(store, "remove", "b.jsonl")
    assert removed.returncode == 0 and "Ambulatory blood pressure" in removed.stdout
    listed = run_cli(store, "papers", "--json")
    assert [p["title"] for p in json.loads(listed.stdout)] == [RECORDS[0]["title"]]
    doctor = run_cli(store, "doctor")
    assert doctor.returncode == 0 and "PROBLEM" not in doctor.stdout, doctor.stdout
    answer = json.loads(run_cli(store, "ask", "What did Xpert MTB/RIF detect?", "--json").stdout)
    assert not any(c["paper"]["title"] == RECORDS[1]["title"] for c in answer["citations"])
    missing = run_cli(store, "remove", "nothing.jsonl")
    assert missing.returncode == 1 and "no loaded paper matches nothing.jsonl" in missing.stderr


def test_ui_upload_into_the_demo_holds_exactly_the_upload(demo_copy, tmp_path):
    from gradio_client import Client, handle_file

    from rag import PaperChat
    from tests.ui_server import running_app

    chat = PaperChat(store_dir=demo_copy)
    with running_app(chat) as url:
        client = Client(url, verbose=False)
        assert len(client.predict(api_name="/papers")) == 38
        client.predict([handle_file(str(write_records(tmp_path / "mine.jsonl")))], api_name="/ingest")
        papers = client.predict(api_name="/papers")
        assert sorted(p["title"] for p in papers) == sorted(r["title"] for r in RECORDS)

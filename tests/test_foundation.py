"""The foundation contract: seeds in, cited answers out, offline, through Python and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SEED_FILES

OFF_TOPIC = [
    "How do I bake sourdough bread with a stiff starter?",
    "What is the statute of limitations for tax fraud in Germany?",
    "Which football club won the 1998 World Cup final?",
]


def test_bundled_corpus_is_read_whole(seed_chat):
    papers = seed_chat.papers()
    assert len(papers) == 38
    assert {p.source for p in papers} == {f.name for f in SEED_FILES}
    assert all(p.venue == "NeurIPS" and p.year == 2026 for p in papers)
    names = {p.name for p in papers}
    assert {"PipeFSDP", "PhysVista", "PathView-Bench", "PickMoment", "PhyProbe"} <= names
    assert not any("\\" in p.name or "\\" in p.text for p in papers)


def test_second_ingest_adds_nothing(seed_chat):
    report = seed_chat.ingest(SEED_FILES)
    assert (report.added, report.updated, report.unchanged) == (0, 0, 38)
    assert seed_chat.store.chunk_count() == sum(len(s) for s in seed_chat.store.sentences(
        [p.paper_id for p in seed_chat.papers()]).values())


def test_changed_abstract_replaces_its_chunks(empty_chat, tmp_path):
    src = tmp_path / "two.jsonl"
    first = {"id": "a", "title": "PipeFSDP: pipelined FSDP", "abstract": "We propose PipeFSDP, a training "
             "framework that removes pipeline bubbles. It speeds up training by 1.3x on 64 GPUs."}
    src.write_text(json.dumps(first) + "\n")
    assert empty_chat.ingest([src]).added == 1
    before = empty_chat.store.chunk_count()
    first["abstract"] = "We propose PipeFSDP, a training framework that removes pipeline bubbles."
    src.write_text(json.dumps(first) + "\n")
    report = empty_chat.ingest([src])
    assert (report.added, report.updated) == (0, 1)
    assert empty_chat.store.chunk_count() == before - 1
    assert "1.3x" not in empty_chat.papers()[0].text


@pytest.mark.parametrize("template", ["What does {} propose?", "what is {} about?"])
def test_each_seed_paper_asked_by_name_is_retrieved_first(seed_chat, template):
    misses = []
    for paper in seed_chat.papers():
        spoken = paper.name if "{}" in template and template.startswith("What") else paper.name.lower()
        top = seed_chat.retrieve(template.format(spoken), k=3)[0]
        if top.paper_id != paper.paper_id:
            misses.append((paper.name, top.name))
    assert misses == []


def test_named_question_gets_a_cited_answer_from_that_paper(seed_chat):
    answer = seed_chat.ask("What does PipeFSDP improve over TorchTitan?")
    assert not answer.refused
    assert answer.citations and answer.citations[0].paper.name == "PipeFSDP"
    assert "[1]" in answer.text
    assert answer.citations[0].quote in answer.citations[0].paper.text
    assert answer.papers[0].name == "PipeFSDP" and answer.papers[0].score > 0


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_off_topic_questions_are_refused(seed_chat, question):
    answer = seed_chat.ask(question)
    assert answer.refused
    assert "do not cover" in answer.text
    assert not answer.citations


def test_citations_point_at_retrieved_papers(seed_chat):
    for question in ["How can KV cache compression lose less accuracy?",
                     "Which benchmark evaluates pathology image understanding?",
                     "How do PhysVista and PhyProbe differ in what they evaluate?"]:
        answer = seed_chat.ask(question)
        retrieved = {p.paper_id for p in answer.papers}
        numbers = {int(n) for n in __import__("re").findall(r"\[(\d+)\]", answer.text)}
        assert numbers == {c.n for c in answer.citations}
        assert all(c.paper.paper_id in retrieved for c in answer.citations)


def test_query_engine_source_nodes_carry_paper_metadata(seed_chat):
    response = seed_chat.as_query_engine().query("What does PhysVista evaluate?")
    assert "[1]" in str(response)
    top = response.source_nodes[0].node.metadata
    assert top["name"] == "PhysVista" and top["venue"] == "NeurIPS" and top["year"] == 2026
    assert {"paper_id", "title", "source", "ordinal", "authors", "url"} <= set(top)


def _cli(store: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PAPERCHAT_STORE__DIR": str(store)}
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parent.parent, timeout=300)


def test_cli_ask_json_matches_the_contract(seed_store_dir, tmp_path):
    import shutil

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    done = _cli(store, "ask", "What does PickMoment learn?", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["refused"] is False and "[1]" in data["text"]
    assert data["citations"][0]["n"] == 1 and data["citations"][0]["paper"]["name"] == "PickMoment"
    paper_fields = {"paper_id", "name", "title", "abstract", "source", "ordinal", "year", "venue", "authors",
                    "url", "score"}
    assert paper_fields <= set(data["papers"][0])
    listed = _cli(store, "papers", "--json")
    assert len(json.loads(listed.stdout)) == 38


def test_cli_ingest_reports_bad_lines_and_keeps_good_ones(seed_store_dir, tmp_path):
    import shutil

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    bad = tmp_path / "mixed.jsonl"
    bad.write_text(
        json.dumps({"id": "good-1", "title": "QuietNet", "abstract": "We present QuietNet, a denoiser for "
                    "seismic recordings that learns from unlabeled traces."}) + "\n{not json\n"
        + json.dumps({"title": "no abstract"}) + "\n"
    )
    done = _cli(store, "ingest", str(bad))
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout
    assert "mixed.jsonl:2" in done.stderr and "mixed.jsonl:3" in done.stderr


def test_sentences_are_embedded_with_their_abstracts_acronyms_spelled_out(empty_chat, tmp_path):
    """A sentence that says only "PC" and "BP" is found by a question in long form; quotes stay verbatim."""
    src = tmp_path / "pc.jsonl"
    abstract = ("Predictive Coding (PC) is an account of cortical learning. Spiking Neural Networks (SNNs) are a "
                "second topic of this abstract, studied for energy use. We show that learning in PC is more "
                "efficient than BP, especially in deep and narrow networks.")
    src.write_text(json.dumps({"id": "pc", "title": "Target alignment", "abstract": abstract}) + "\n")
    empty_chat.ingest([src])
    paper = empty_chat.papers()[0]
    sentences = empty_chat.store.sentences([paper.paper_id])[paper.paper_id]
    assert sentences[-1][0] == "We show that learning in PC is more efficient than BP, especially in deep and narrow networks."
    question = np.asarray(empty_chat.embedder.get_query_embedding("Does predictive coding learn more efficiently?"))
    stored = [float(np.asarray(vector) @ question) for _, vector in sentences]
    raw = np.asarray(empty_chat.embedder.get_text_embedding(f"{paper.name}\n{sentences[-1][0]}"))
    assert stored[-1] > float(raw @ question) + 0.05  # the stored vector carries "Predictive Coding"
    assert stored[-1] > stored[1]  # above the sentence about SNNs


def test_ingest_survives_sentence_splitter_timeouts(empty_chat, tmp_path, monkeypatch):
    """NLTK >= 3.10 times out its regexes on a busy machine; ingest must go on, splitting at punctuation."""
    import nltk.redos

    monkeypatch.setattr(nltk.redos, "DEFAULT_TIMEOUT", 1e-9)  # every Punkt regex now times out, for real
    src = tmp_path / "one.jsonl"
    src.write_text(json.dumps({"id": "a", "title": "PipeFSDP", "abstract": "We propose PipeFSDP, a training "
                               "framework that removes pipeline bubbles. It speeds up training by 1.3x on 64 GPUs "
                               "compared with TorchTitan."}) + "\n")
    assert empty_chat.ingest([src]).added == 1
    paper = empty_chat.papers()[0]
    assert [t for t, _ in empty_chat.store.sentences([paper.paper_id])[paper.paper_id]] == [
        "We propose PipeFSDP, a training framework that removes pipeline bubbles.",
        "It speeds up training by 1.3x on 64 GPUs compared with TorchTitan."]


def test_words_of_a_coined_name_find_its_paper_by_keyword(seed_chat):
    """BM25 indexes the words a name is made of: "probe" finds PhyProbe although its sentences never say it."""
    hits = seed_chat.retriever.bm25.retrieve("a learned probe")
    assert seed_chat.catalog.papers[hits[0].node.metadata["paper_id"]].name == "PhyProbe"
